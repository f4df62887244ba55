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
    from hela_desktop.ui.chat import TITLE_SHOWN, ChatPane
    from hela_desktop.ui.chat_list import ConversationList

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


@pytest.mark.gui
def test_the_chat_list_filters_by_title(qtbot):
    """Hundreds of imported chats: a filter above the list finds one by the words of its
    title (case aside, every word), keeps filtering as the list is refreshed, says when
    nothing matches; Down goes to the first chat shown, Esc clears."""
    pytest.importorskip("pytestqt")
    from PySide6 import QtCore

    from hela_desktop.ui.chat_list import ConversationList

    chats = ConversationList()
    qtbot.addWidget(chats)
    chats.show()
    convs = [{"id": i, "title": t, "messages": 2, "updated_at": 0.0} for i, t in enumerate(
        ["Sailing in Lisbon", "Pixel's vet visit", "Lisbon flat hunting", "Tax return"])]
    chats.set_conversations(convs, 0)

    def shown() -> list[str]:
        return [chats.list.item(i).text() for i in range(chats.list.count())
                if not chats.list.item(i).isHidden()]

    assert shown() == [c["title"] for c in convs] and chats.none_label.isHidden()
    chats.filter.setText("lisbon")
    assert shown() == ["Sailing in Lisbon", "Lisbon flat hunting"]
    assert chats.none_label.text() == "2 of 4 chats"
    chats.filter.setText("LISBON flat")
    assert shown() == ["Lisbon flat hunting"]
    chats.set_conversations(convs + [{"id": 9, "title": "Flat in Lisbon, again",
                                      "messages": 1, "updated_at": 0.0}], 0)
    assert shown() == ["Lisbon flat hunting", "Flat in Lisbon, again"]  # still filtered
    with qtbot.waitSignal(chats.selected, timeout=2000) as sig:
        qtbot.keyClick(chats.filter, QtCore.Qt.Key.Key_Down)
    assert sig.args == [2] and chats.current_id() == 2
    chats.filter.setText("dentist")
    assert shown() == [] and chats.none_label.text() == "No chat title holds “dentist”."
    qtbot.keyClick(chats.filter, QtCore.Qt.Key.Key_Escape)
    assert chats.filter.text() == "" and len(shown()) == 5 and chats.none_label.isHidden()
