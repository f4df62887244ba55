"""A new chat's title is its first message, stored whole (up to 200 characters): the chat
list, Rename and the chat export get all of it; only the heading above the messages is
shortened, with the full title as its tooltip."""

from __future__ import annotations

import pytest

from hela_desktop.chat_export import conversation_markdown
from hela_desktop.turn import TITLE_MAX

FIRST = ("Hello! I want to tell you about my dog Pixel and my sister Ana, who lives in "
         "Lisbon and visits us every summer with her two cats.")


def test_the_first_message_titles_the_chat_whole(make_assistant, settings):
    settings.max_answer_tokens = 4
    a = make_assistant()
    done = list(a.chat(FIRST))[-1]
    title = next(c["title"] for c in a.store.conversations() if c["id"] == done.conversation_id)
    assert len(FIRST) > 60 and title == FIRST and "…" not in title
    assert conversation_markdown(a.store, done.conversation_id).startswith(f"# {FIRST}\n")
    assert len(FIRST) <= TITLE_MAX


@pytest.mark.gui
def test_the_window_shortens_only_what_it_shows(qtbot):
    pytest.importorskip("pytestqt")
    from hela_desktop.ui.chat import TITLE_SHOWN, ChatPane, ConversationList

    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.set_title(FIRST)
    shown = pane.title.text()
    assert shown.endswith("…</b>") and len(shown) <= TITLE_SHOWN + len("<b></b>")
    assert pane.title.toolTip() == FIRST
    pane.set_title("Sailing")
    assert pane.title.text() == "<b>Sailing</b>" and pane.title.toolTip() == ""

    chats = ConversationList()
    qtbot.addWidget(chats)
    chats.set_conversations([{"id": 1, "title": FIRST, "messages": 2, "updated_at": 0.0}], 1)
    item = chats.list.item(0)
    assert item.text() == FIRST  # what Rename is pre-filled with; the list elides on screen
    assert FIRST in item.toolTip()
