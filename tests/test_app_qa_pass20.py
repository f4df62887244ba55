"""Twentieth pass, as a new user: what the window showed that it should not have."""

from __future__ import annotations

import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)
from PySide6 import QtCore, QtGui, QtWidgets  # noqa: E402
from test_app_polish import _window  # noqa: E402
from test_app_qa_pass6 import chat_dir  # noqa: E402
from test_ui_app import _wait  # noqa: E402


def _shot(w: QtWidgets.QWidget) -> QtGui.QImage:
    return w.grab().toImage()


def test_tab_shows_where_it_lands_in_the_graph(qtbot, tmp_path):
    """Tab went from the graph's Details button to the graph itself and then to the details
    pane, and none of the three looked any different with the keyboard on it (QA pass 19):
    a keyboard user lost track.  Each now shows it; the cycle is unchanged."""
    data_dir, cid = chat_dir(tmp_path, "Chat", [(f"Question {i}", f"Answer {i}.") for i in range(3)])
    w = _window(qtbot, data_dir)
    w.resize(1500, 900)
    w.activateWindow()
    qtbot.waitActive(w)
    w.open_conversation(cid)
    _wait(qtbot, lambda: "Answer 2." in w.chat.view.toPlainText(), 20)
    g = w.graph
    g.search.setFocus(QtCore.Qt.FocusReason.TabFocusReason)
    order = []
    for _ in range(5):
        f = QtWidgets.QApplication.focusWidget()
        order.append(f)
        qtbot.keyClick(f, QtCore.Qt.Key.Key_Tab)
    assert order[3:] == [g.details_button, g.plot], order
    for wid in (g.details_button, g.plot, g.details):
        w.chat.input.setFocus(QtCore.Qt.FocusReason.TabFocusReason)
        qtbot.wait(50)
        before = _shot(wid)
        wid.setFocus(QtCore.Qt.FocusReason.TabFocusReason)
        _wait(qtbot, lambda wid=wid: wid.hasFocus(), 5)
        qtbot.wait(50)
        assert _shot(wid) != before, f"{type(wid).__name__} looks the same with the keyboard on it"
    w.close()
