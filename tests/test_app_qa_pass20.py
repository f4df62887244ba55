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
    # (QA pass 20: Send, drawn as the default button, and the chat list did not show it
    # either; Send takes the keyboard once there is a message to send)
    w.chat.input.setPlainText("Hello")
    for wid in (g.details_button, g.plot, g.details, w.chat.send_button, w.conversations.list):
        w.chat.input.setFocus(QtCore.Qt.FocusReason.TabFocusReason)
        qtbot.wait(50)
        before = _shot(wid)
        wid.setFocus(QtCore.Qt.FocusReason.TabFocusReason)
        _wait(qtbot, lambda wid=wid: wid.hasFocus(), 5)
        qtbot.wait(50)
        assert _shot(wid) != before, f"{type(wid).__name__} looks the same with the keyboard on it"
    w.close()


def test_an_entry_put_back_says_why(qtbot, tmp_path):
    """Context size "100" typed and the box left: Qt put 2048 back without a word (QA pass
    19: "silently reverts"), and Enter pressed OK with 2048.  "100" is not refused key by
    key (it could still grow into 1000), so the range hint never showed.  Leaving the box
    now says it; Enter says it and keeps the dialog open."""
    from hela_desktop.config import Settings
    from hela_desktop.ui.settings_dialog import SettingsDialog

    dlg = SettingsDialog(Settings(), tmp_path / "data")
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.activateWindow()
    qtbot.waitActive(dlg)
    dlg.advanced_button.click()  # Context size is under Advanced
    box = dlg.n_ctx
    _wait(qtbot, box.isVisible, 5)
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box, "100")
    # Enter would press OK, saving the old value: the entry stays, to be put right
    qtbot.keyClick(box, QtCore.Qt.Key.Key_Return)
    assert dlg.isVisible() and box.text() == "100 tokens"
    _wait(qtbot, lambda: QtWidgets.QToolTip.isVisible() and QtWidgets.QToolTip.text()
          == "Context size: 100 tokens is out of range. From 512 to 131072 tokens", 5)
    QtWidgets.QToolTip.hideText()
    qtbot.wait(400)  # (hidden: a tip shown within its fade-out would go with it)
    # Tab out (sent to the box: offscreen, the tip's window took the focus from the dialog)
    out = QtGui.QFocusEvent(QtCore.QEvent.Type.FocusOut, QtCore.Qt.FocusReason.TabFocusReason)
    QtWidgets.QApplication.sendEvent(box, out)
    assert box.value() == Settings().n_ctx and box.text() != "100 tokens"  # put back
    _wait(qtbot, lambda: QtWidgets.QToolTip.isVisible() and QtWidgets.QToolTip.text()
          == "Context size: 100 tokens is out of range, so it was not kept. From 512 to "
          "131072 tokens", 5)
    # an entry Qt keeps says nothing; nor does one left for another window (kept as typed)
    for typed, reason, kept in (("4096", QtCore.Qt.FocusReason.TabFocusReason, 4096),
                                ("100", QtCore.Qt.FocusReason.ActiveWindowFocusReason, None)):
        box.lineEdit().selectAll()
        qtbot.keyClicks(box, typed)
        QtWidgets.QToolTip.hideText()
        qtbot.wait(400)
        QtWidgets.QApplication.sendEvent(box, QtGui.QFocusEvent(QtCore.QEvent.Type.FocusOut, reason))
        qtbot.wait(400)
        assert not QtWidgets.QToolTip.isVisible(), typed
        assert kept is None or box.value() == kept
    dlg.reject()


def test_dark_scheme_radio_and_check_boxes_can_be_seen(qtbot):
    """In the dark scheme Fusion edged a radio button's ring and a check box's box in the
    window colour darkened: "This computer" and "A model server" in Settings could not be
    told apart (QA pass 19).  The edge now stands at least 3:1 against the background (the
    contrast asked of a control's parts), in both schemes."""
    from hela_desktop.formulas import contrast_ratio
    from hela_desktop.ui.theme import apply_theme

    app = QtWidgets.QApplication.instance()
    palette = app.palette()
    try:
        for dark in (True, False):
            apply_theme(app, dark)
            for box in (QtWidgets.QRadioButton(""), QtWidgets.QCheckBox("")):
                qtbot.addWidget(box)
                box.resize(box.sizeHint())
                box.show()
                qtbot.waitExposed(box)
                img = box.grab().toImage()
                bg = box.palette().color(QtGui.QPalette.ColorRole.Window)
                best = max(contrast_ratio((c.redF(), c.greenF(), c.blueF()),
                                          (bg.redF(), bg.greenF(), bg.blueF()))
                           for x in range(img.width()) for y in range(img.height())
                           for c in (img.pixelColor(x, y),))
                assert best >= 3.0, (dark, type(box).__name__, best)
    finally:
        app.setPalette(palette)
