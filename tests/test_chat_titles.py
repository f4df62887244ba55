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
    from hela_desktop.ui.chat_list import ConversationList
    from hela_desktop.ui.chat_pane import TITLE_SHOWN, ChatPane

    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.set_title(FIRST)
    shown = pane.title.text()
    assert shown.endswith("…") and len(shown) <= TITLE_SHOWN
    from test_app_qa_pass7 import _as_shown

    assert _as_shown(pane.title.toolTip()) == FIRST  # (wrapped: one long line, QA pass 38)
    pane.set_title("Sailing")
    assert pane.title.text() == "Sailing" and pane.title.font().bold()
    # narrower than the title, it ends in "…" where it is cut (QA pass 21: cut mid-word):
    # an `ElidedLabel`, whose drawing test_app_qa_gv8 checks
    from hela_desktop.ui.plain import ElidedLabel

    assert isinstance(pane.title, ElidedLabel)

    chats = ConversationList()
    qtbot.addWidget(chats)
    chats.set_conversations([{"id": 1, "title": FIRST, "messages": 2, "updated_at": 0.0}], 1)
    assert chats.list.model().index(0, 0).data() == FIRST  # what Rename is pre-filled with;
    assert FIRST in chats.tooltip_of(1)  # the list elides on screen


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
        return [c["title"] for c in chats.shown()]

    # what the assistant thread answers for the messages: here, none holds the words
    chats.findRequested.connect(lambda text: chats.set_found(text, {}))
    assert shown() == [c["title"] for c in convs] and chats.none_label.isHidden()
    chats.filter.setText("lisbon")
    assert shown() == ["Sailing in Lisbon", "Lisbon flat hunting"]
    assert chats.none_label.text() == "2 of 4 chats (searching their messages…)"
    qtbot.waitUntil(lambda: chats.none_label.text() == "2 of 4 chats", timeout=2000)
    chats.filter.setText("LISBON flat")
    assert shown() == ["Lisbon flat hunting"]
    chats.set_conversations(convs + [{"id": 9, "title": "Flat in Lisbon, again",
                                      "messages": 1, "updated_at": 0.0}], 0)
    assert shown() == ["Lisbon flat hunting", "Flat in Lisbon, again"]  # still filtered
    with qtbot.waitSignal(chats.selected, timeout=2000) as sig:
        qtbot.keyClick(chats.filter, QtCore.Qt.Key.Key_Down)
    assert sig.args == [2] and chats.current_id() == 2
    chats.filter.setText("dentist")
    qtbot.waitUntil(lambda: chats.none_label.text() == "No chat holds “dentist”.", timeout=2000)
    assert shown() == []
    qtbot.keyClick(chats.filter, QtCore.Qt.Key.Key_Escape)
    assert chats.filter.text() == "" and len(shown()) == 5 and chats.none_label.isHidden()


@pytest.mark.gui
def test_the_chat_search_finds_chats_by_what_was_said_in_them(qtbot, tmp_path, embedder):
    """The filter found chats by their titles only: an imported chat titled "New chat"
    that talked about Lisbon could not be found.  It now also finds the chats whose
    messages hold every word (case aside, accents too), says how many were found that way,
    and shows the message in the chat's tooltip."""
    pytest.importorskip("pytestqt")
    import qt_env  # noqa: F401
    from test_app_polish import _window
    from test_ui_app import _wait

    from hela_desktop.store import Store

    folder = tmp_path / "d"
    with Store(folder) as s:
        titled = s.add_conversation("Lisbon trip")
        untitled = s.add_conversation("New chat")
        other = s.add_conversation("Taxes")
        s.add_message(untitled, "user", "Where should we eat in LISBON? Émile says Belém.")
        s.add_message(untitled, "assistant", "Try the pastéis near the monastery.")
        s.add_message(other, "user", "My tax return is due in May.")
    w = _window(qtbot, folder, embedder)
    chats = w.conversations
    _wait(qtbot, lambda: len(chats.chats()) == 3, 60)

    def shown() -> list[int]:
        return [int(c["id"]) for c in chats.shown()]

    assert "\n1 message · " in chats.tooltip_of(other)  # it said "1 messages"
    chats.filter.setText("lisbon")
    assert shown() == [titled]  # the title at once
    _wait(qtbot, lambda: sorted(shown()) == sorted([titled, untitled]), 20)
    assert chats.none_label.text() == "2 of 3 chats, 1 by what was said in them"
    assert "“Where should we eat in LISBON? Émile says Belém.”" in chats.tooltip_of(untitled)
    assert "\n2 messages · " in chats.tooltip_of(untitled)
    chats.select(untitled)  # opened from the search: the words are shown
    _wait(qtbot, lambda: w.current_conv == untitled
          and w.chat.view.textCursor().selectedText() == "LISBON", 20)
    chats.filter.setText("émile belém")  # not ASCII: matched with Unicode case folding
    _wait(qtbot, lambda: shown() == [untitled], 20)
    chats.filter.setText("pastéis monastery")  # an answer's words count too
    _wait(qtbot, lambda: shown() == [untitled], 20)
    chats.filter.setText("lisbon taxes")  # every word, in one message or the title
    _wait(qtbot, lambda: chats.none_label.text() == "No chat holds “lisbon taxes”.", 20)
    assert shown() == []
    w.close()


def test_each_chat_says_when_it_was_last_active():
    """500 imported chats showed titles only: nothing told a chat of 2022 from one of this
    morning.  Each row now ends with when it was last active, as short as the row allows."""
    import time

    from hela_desktop.ui.chat_list import short_when

    now = time.mktime((2026, 12, 2, 15, 0, 0, 0, 0, -1))
    assert short_when(time.mktime((2026, 12, 2, 9, 5, 0, 0, 0, -1)), now) == "09:05"
    assert short_when(time.mktime((2026, 3, 7, 9, 5, 0, 0, 0, -1)), now) == "7 Mar"
    assert short_when(time.mktime((2023, 3, 7, 9, 5, 0, 0, 0, -1)), now) == "Mar 2023"
    assert short_when(None, now) == "" and short_when(0.0, now) == ""
    assert short_when(1e20, now) == ""  # a date no calendar has (an odd import): no row breaks


@pytest.mark.gui
def test_the_chat_rows_carry_their_date(qtbot):
    pytest.importorskip("pytestqt")
    import time

    from hela_desktop.ui.chat_list import WHEN_ROLE, ConversationList, short_when

    chats = ConversationList()
    qtbot.addWidget(chats)
    at = time.time() - 86400 * 400
    chats.set_conversations([{"id": 1, "title": "Old", "messages": 2, "updated_at": at}], 1)
    chats.show()
    row = chats.list.model().index(0, 0)
    assert row.data(WHEN_ROLE) == short_when(at) != ""
    assert row.data() == "Old"  # the title alone: Rename and the filter read it
    chats.list.viewport().grab()  # the row paints with its date (no error)
