"""QA pass 6 (the terminal and a long chat): what the window got wrong.

pytest-qt offscreen, the real window on a real data folder (real SQLite, real embedder),
no model loaded."""

from __future__ import annotations

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6 import QtWidgets  # noqa: E402
from test_app_polish import _window  # noqa: E402
from test_ui_app import SEED, _wait  # noqa: E402

from hela_desktop.store import Store  # noqa: E402

pytestmark = pytest.mark.gui


def test_edit_memory_refuses_to_empty_what_you_said(qtbot, seed_dir, embedder):
    """Emptying "You said" was saved: the memory lost its retrieval key (what you said) and
    silently could never be recalled again.  Save now says why and keeps the dialog open."""
    from hela_desktop.ui.memory_browser import EditMemoryDialog

    data_dir = seed_dir(SEED)
    w = _window(qtbot, data_dir, embedder)
    _wait(qtbot, lambda: w.embedder_ready, 60)
    w.right_tabs.setCurrentIndex(1)
    _wait(qtbot, lambda: w.browser.model.rowCount() == len(SEED), 20)
    e = w.browser.model.episode_at(0)
    dlg = EditMemoryDialog(e, w.browser)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.user.setPlainText("   ")
    dlg.accept()
    assert dlg.result() != QtWidgets.QDialog.DialogCode.Accepted and dlg.isVisible()
    assert dlg.problem.isVisibleTo(dlg) and "cannot be empty" in dlg.problem.text()
    dlg.user.setPlainText("My cat is called Miso.")
    dlg.accept()
    assert dlg.result() == QtWidgets.QDialog.DialogCode.Accepted
    with Store(data_dir) as st:  # nothing was saved by the refused Save
        assert st.episode(e.id).user_text == e.user_text
    w.close()


def test_an_answer_without_memories_does_not_say_there_are_none_yet(qtbot):
    """Seen 25 memories into a chat: the timeline of an answer that recalled none said
    "there is nothing similar yet", as if the memory were empty."""
    from hela_desktop.ui.timeline import TimelineView

    t = TimelineView()
    qtbot.addWidget(t)
    t.set_answer([], 60, "Answer · message #50")
    hint = t.empty_hint()
    assert "yet" not in hint and "close enough" in hint


def test_the_last_answers_footer_is_scrolled_into_view(qtbot, tmp_path):
    """Seen 10 and 42 turns into a chat: when an answer ended, the lines added under it
    ("stopped at the 60-token limit …", "From your memories: …") were left below the
    view's bottom edge (the scroll bar 48 px short of its end), half hidden."""
    from hela_desktop.ui.window_status import Sources

    w = _window(qtbot, tmp_path / "data")
    w.resize(1200, 700)
    view = w.chat.view
    for i in range(12):
        view.add_user(f"Question number {i}: what is my dog's name?")
        view.add_assistant("Your dog is called Pepper. " * 6, None, [])
    view.add_user("And my brother?")
    view.begin_assistant()
    view.append_tokens([(i, "Tom is a pilot. ") for i in range(20)])
    sb = view.verticalScrollBar()
    assert sb.value() == sb.maximum() > 0  # following the answer as it streams
    shown = [(1, "I have a brother, Tom, who is a pilot.", "I have a brother, Tom, who is a pilot."),
             (2, "My dog is called Pepper, a grey whippet.", "My dog is called Pepper, a grey whippet.")]
    view.finish_assistant(7, [], "stopped at the 60-token limit (Settings ▸ Longest answer) — "
                          "60 tokens · 0 memory swaps · 23.7 tokens/s", Sources(shown, 2))
    qtbot.wait(50)
    assert sb.value() == sb.maximum()
    view.add_user("One more?")  # a reader who scrolled up to read is left where they are
    view.begin_assistant()
    sb.setValue(0)
    view.append_tokens([(0, "Yes.")])
    view.finish_assistant(9, [], "1 tokens", Sources(shown))
    qtbot.wait(50)
    assert sb.value() == 0
    w.close()


def chat_dir(tmp_path, title: str, exchanges: list[tuple[str, str]]):
    """A data folder holding one chat of (question, answer) exchanges; it and the chat's id."""
    d = tmp_path / "data"
    with Store(d) as store:
        cid = store.add_conversation(title)
        for question, answer in exchanges:
            store.add_message(cid, "user", question)
            store.add_message(cid, "assistant", answer)
    return d, cid


def test_edit_and_resend_of_an_early_message_says_what_it_takes_back(qtbot, tmp_path):
    """Seen 42 turns into a chat: Edit and resend on the 2nd message asked only "Your
    message:", then took back the 40 later exchanges and their 40 memories, unannounced."""
    from hela_desktop.ui.chat_edit import edit_label

    d, cid = chat_dir(tmp_path, "Clara", [(f"Fact number {i}.", f"Noted {i}.") for i in range(4)])
    w = _window(qtbot, d)
    w.open_conversation(cid)
    _wait(qtbot, lambda: w.current_conv == cid and "Noted 3." in w.chat.view.toPlainText(), 20)
    seen: list[str] = []

    def answer() -> None:  # the real dialog, read then cancelled
        dlg = QtWidgets.QApplication.activeModalWidget()
        assert isinstance(dlg, QtWidgets.QInputDialog)
        seen.append(dlg.labelText())
        dlg.reject()

    from PySide6 import QtCore

    QtCore.QTimer.singleShot(200, answer)
    w.chat.view.editRequested.emit(1, "Fact number 1.")
    assert seen and "2 later exchanges" in seen[0] and "memories" in seen[0]
    assert "Noted 3." in w.chat.view.toPlainText()  # cancelled: nothing taken back
    assert edit_label(0) == "Your message:" and "1 later exchange " in edit_label(1)
    w.close()
