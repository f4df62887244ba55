"""Twenty-fourth pass, as a new user: what the window showed that it should not have."""

from __future__ import annotations

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)


def _chats(data, titles):
    from hela_desktop.store import Store

    ids = []
    with Store(data) as store:
        for t in titles:
            cid = store.add_conversation(t)
            store.add_message(cid, "user", f"{t}: hello")
            ids.append(cid)
    return ids


def test_deleting_the_open_chat_opens_its_neighbour(qtbot, tmp_path):
    """QA pass 23: deleting the chat that was open opened a new, empty chat, and the user
    had to find their place in the list again.  The chat below it in the list opens (the
    one above when it was the last); a new chat only when none is left."""
    pytest.importorskip("pytestqt")
    from test_app_polish import _window
    from test_ui_app import _wait

    data = tmp_path / "data"
    a, b, c = _chats(data, ["Oldest", "Middle", "Newest"])  # listed newest first
    w = _window(qtbot, data)
    _wait(qtbot, lambda: len(w.conversations.chats()) == 3, 20)

    def open_(cid):
        w.conversations.select(cid)
        _wait(qtbot, lambda: w.current_conv == cid, 20)

    open_(b)
    w.chat.input.setPlainText("half a thought about the middle chat")
    w._delete_conversation(b)
    _wait(qtbot, lambda: w.current_conv == a and "Oldest: hello" in w.chat.view.toPlainText(), 20)
    _wait(qtbot, lambda: [x["id"] for x in w.conversations.chats()] == [c, a], 20)
    assert w.conversations.current_id() == a
    assert w.chat.input.toPlainText() == ""  # the deleted chat's unsent words went with it
    w._delete_conversation(a)  # the last in the list: the one above
    _wait(qtbot, lambda: w.current_conv == c and "Newest: hello" in w.chat.view.toPlainText(), 20)
    w._delete_conversation(c)  # none left: a new chat
    _wait(qtbot, lambda: w.current_conv is None and w.conversations.chats() == [], 20)
    assert w.chat.title.text() == "New chat"
    w.close()


def test_a_model_error_reads_reason_first():
    """QA pass 23: the start-up box read "/home/…/models/x.gguf: model file not found;
    check the path or choose another GGUF file" — a path, then a lower-case fragment."""
    from hela_desktop.ui.plain import reason_first

    assert reason_first("/m/x.gguf: model file not found; check the path or choose another "
                        "GGUF file") == ("Model file not found; check the path or choose "
                                         "another GGUF file.\n\nFile: /m/x.gguf")
    assert reason_first("/m/x.gguf: llama.cpp could not load this model (bad magic).") == (
        "llama.cpp could not load this model (bad magic).\n\nFile: /m/x.gguf")
    # no path first: only the first letter
    assert reason_first("default model not found: install it") == "Default model not found: install it"
    assert reason_first("http://127.0.0.1:8080: cannot reach it") == (
        "http://127.0.0.1:8080: cannot reach it")  # (an address keeps its case)



def test_scrolling_settings_with_the_wheel_changes_no_value(qtbot, tmp_path):
    """QA pass 24: scrolling down Settings with the mouse wheel set "Memories per answer"
    to 3 and "Room for memories" to 300 as the pointer passed over them.  The wheel scrolls
    the form over a box not clicked into; clicked into, the box takes it."""
    from PySide6 import QtCore, QtGui, QtWidgets

    from hela_desktop.config import Settings
    from hela_desktop.ui.settings_dialog import SettingsDialog

    dlg = SettingsDialog(Settings(), tmp_path / "data")
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    dlg.advanced_button.setChecked(True)
    dlg.resize(700, 350)  # (the form scrolls)
    bar = dlg.form_scroll.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=5000)
    box = dlg.max_memories
    before, top = box.value(), bar.value()

    def wheel(widget: QtWidgets.QWidget) -> None:
        at = QtCore.QPointF(widget.rect().center())
        ev = QtGui.QWheelEvent(at, QtCore.QPointF(widget.mapToGlobal(at.toPoint())),
                               QtCore.QPoint(0, 0), QtCore.QPoint(0, -120),
                               QtCore.Qt.MouseButton.NoButton, QtCore.Qt.KeyboardModifier.NoModifier,
                               QtCore.Qt.ScrollPhase.NoScrollPhase, False)
        QtWidgets.QApplication.sendEvent(widget, ev)

    dlg.buttons.setFocus()
    wheel(box)
    assert box.value() == before and bar.value() > top  # the form scrolled
    dlg.activateWindow()
    box.setFocus()
    qtbot.waitUntil(box.hasFocus, timeout=5000)
    wheel(box)
    assert box.value() == before - 1  # clicked into: the box's own
    assert box.focusPolicy() == QtCore.Qt.FocusPolicy.StrongFocus


def test_a_doubted_answer_says_check_it_under_it(qtbot, tmp_path):
    """The warning is drawn under a stored answer whose statistics hold a doubt (and the
    terminal prints it: `cli.chat`)."""
    pytest.importorskip("pytestqt")
    from test_app_polish import _window
    from test_ui_app import _wait

    from hela_desktop.store import Store

    data = tmp_path / "data"
    recalled = [{"episode_id": 4, "kind": "episode", "score": 0.5,
                 "text": "Actually Ines moved to Porto.", "extra": {}},
                {"episode_id": 1, "kind": "episode", "score": 0.5,
                 "text": "My sister Ines lives in Lyon.", "extra": {"superseded_by": 4}}]
    with Store(data) as store:
        cid = store.add_conversation("Sister")
        store.add_message(cid, "user", "Where does my sister live?")
        store.add_message(cid, "assistant", "Ines lives in Lyon.",
                          stats={"tokens": 6, "swaps": 0, "elapsed_s": 1.0, "memories": recalled,
                                 "drew_on": [1, 4], "doubt": {"kind": "older", "newer": 4}})
    w = _window(qtbot, data)
    w.open_conversation(cid)
    _wait(qtbot, lambda: "Ines lives in Lyon." in w.chat.view.toPlainText(), 20)
    assert ("Check this answer: it may give older news — “Actually Ines moved to Porto.” is "
            "newer.") in w.chat.view.toPlainText()
    w.close()


def test_settings_offers_earlier_exchanges_and_the_about_you_list(qtbot, tmp_path):
    """QA pass 24: `history_exchanges`, 0.15's main change, could be set only by editing
    settings.json.  Settings ▸ Answers has it ("all that fit" = -1), and the choice of
    who answers "What do you know about me?"."""
    from hela_desktop.config import Settings
    from hela_desktop.ui.settings_dialog import SettingsDialog

    s = Settings(history_exchanges=3, list_about_you=False)
    dlg = SettingsDialog(s, tmp_path / "data")
    qtbot.addWidget(dlg)
    assert dlg.history.value() == 3 and not dlg.about_you.isChecked()
    dlg.history.setValue(-1)
    assert dlg.history.text() == "all that fit"
    dlg.about_you.setChecked(True)
    got = dlg.result_settings()
    assert got.history_exchanges == -1 and got.list_about_you is True
    dlg._defaults()
    got = dlg.result_settings()
    assert got.history_exchanges == Settings().history_exchanges == 1 and got.list_about_you


def test_a_window_on_another_data_folder_names_it(tmp_path, monkeypatch):
    """QA pass 24: two windows on two data folders were both titled "HeLa Desktop"."""
    from hela_desktop.ui.main_window import window_title

    monkeypatch.setenv("HELA_DATA_DIR", str(tmp_path / "usual"))
    assert window_title(tmp_path / "usual") == "HeLa Desktop"
    assert window_title(tmp_path / "work-notes") == "work-notes — HeLa Desktop"


def test_after_restore_the_keyboard_stays_in_the_archive(qtbot, tmp_path):
    """QA pass 24: after Restore the button went with its rows, and the keyboard jumped to
    the window's first control ("+ New").  It stays in the archive's table."""
    from PySide6 import QtCore
    from test_ui_app import fill_store

    from hela_desktop.store import Store
    from hela_desktop.ui.memory_browser import MemoryBrowser

    with Store(tmp_path / "data") as store:
        ids = fill_store(store, 3)
        store.set_archived(ids[1], "stale")
        b = MemoryBrowser(store)
        qtbot.addWidget(b)
        b.resize(600, 500)
        b.show()
        b.tabs.setCurrentIndex(2)
        b.activateWindow()
        tab = b.archive_tab
        rect = tab.table.visualRect(tab.model.index(0, 2))
        qtbot.mouseClick(tab.table.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())
        tab.restore_button.setFocus()
        qtbot.waitUntil(tab.restore_button.hasFocus, timeout=5000)
        tab.table.clearSelection()  # (the restored row leaves the table)
        assert tab.table.hasFocus() and not tab.restore_button.isEnabled()


def test_a_narrow_archive_leaves_the_answer_out_so_your_words_read(qtbot, tmp_path):
    """The verification of 0.16: at the default size every "You" entry of the Archive was
    cut ("What is my cat call…"), the answer column as wide; the Memories tab leaves the
    answer out when narrow, and now the Archive does too."""
    from test_ui_app import fill_store

    from hela_desktop.store import Store
    from hela_desktop.ui.archive_tab import ANSWER_COLUMN_FROM
    from hela_desktop.ui.memory_browser import MemoryBrowser

    with Store(tmp_path / "data") as store:
        ids = fill_store(store, 3)
        store.set_archived(ids[1], "stale")
        b = MemoryBrowser(store)
        qtbot.addWidget(b)
        b.show()
        b.tabs.setCurrentIndex(2)
        table = b.archive_tab.table
        b.resize(500, 500)
        qtbot.waitUntil(lambda: table.viewport().width() < ANSWER_COLUMN_FROM, timeout=5000)
        qtbot.waitUntil(lambda: table.isColumnHidden(3), timeout=5000)
        b.resize(1000, 500)
        qtbot.waitUntil(lambda: not table.isColumnHidden(3), timeout=5000)
