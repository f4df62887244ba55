"""Multi-line text prompts a keyboard can finish: Edit knowledge, Edit and resend, and the
Edit memory dialog.

Qt's multi-line `QInputDialog` keeps Tab and Enter for the text (a tab, a new line), so
the keyboard never reached OK, and its box did not wrap, so a long fact scrolled sideways
(QA pass 22).  Here Tab moves on to the buttons, Ctrl+Enter saves from the text, and the
text wraps at the box's edge.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from .theme import button_focus_style, focus_frame_style


class _SaveKeys(QtCore.QObject):
    """Ctrl+Enter in a text box accepts its dialog (Enter alone is a new line there)."""

    def __init__(self, dlg: QtWidgets.QDialog):
        # (the dialog is its parent, not an attribute: a filter holding the dialog made a
        # cycle the garbage collector broke mid-destruction, and the boxes' last events
        # then reached a filter half gone: two Edit memory dialogs in turn crashed Python)
        super().__init__(dlg)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if (event.type() == QtCore.QEvent.Type.KeyPress
                and event.key() in (QtCore.Qt.Key.Key_Return, QtCore.Qt.Key.Key_Enter)
                and event.modifiers() & QtCore.Qt.KeyboardModifier.ControlModifier):
            dlg = self.parent()
            if isinstance(dlg, QtWidgets.QDialog):
                dlg.accept()
            return True
        return False


def keyboard_finishes(dlg: QtWidgets.QDialog) -> None:
    """Every plain-text box of `dlg` wraps and passes Tab on, and is edged in the accent
    while it has the keyboard (Fusion marks no text box: in the dark scheme Tab seemed to
    land nowhere), a button in the text colour; Ctrl+Enter accepts `dlg`."""
    pal = QtWidgets.QApplication.palette()  # (the default Save looks the same with the
    # keyboard on it or not: it gets the chat's Send mark, the verification pass of 0.14)
    dlg.setStyleSheet(focus_frame_style(pal, "QPlainTextEdit") + button_focus_style(pal))
    keys = _SaveKeys(dlg)
    for box in dlg.findChildren(QtWidgets.QPlainTextEdit):
        box.setTabChangesFocus(True)  # (what is edited here holds no tabs)
        box.setLineWrapMode(QtWidgets.QPlainTextEdit.LineWrapMode.WidgetWidth)
        box.installEventFilter(keys)


def text_prompt(parent: QtWidgets.QWidget | None, title: str, label: str, text: str,
                ok: str = "") -> QtWidgets.QInputDialog:
    """A multi-line `QInputDialog` (not shown) the keyboard can finish (`keyboard_finishes`),
    its label saying how; `ok`: the OK button's words."""
    dlg = QtWidgets.QInputDialog(parent)
    dlg.setOption(QtWidgets.QInputDialog.InputDialogOption.UsePlainTextEditForTextInput)
    dlg.setWindowTitle(title)
    dlg.setLabelText(f"{label}\n(Ctrl+Enter: {ok or 'OK'}; Tab: to the buttons)")
    dlg.setTextValue(text)
    if ok:
        dlg.setOkButtonText(ok)
    for lab in dlg.findChildren(QtWidgets.QLabel):  # a long label wraps: Edit and resend's
        lab.setWordWrap(True)  # words on what it takes back made the dialog 1,270 px wide
    dlg.resize(520, 260)
    keyboard_finishes(dlg)
    return dlg


def ask_text(parent: QtWidgets.QWidget | None, title: str, label: str, text: str,
             ok: str = "") -> tuple[str, bool]:
    """(the text, True) once the user saves `text_prompt`'s dialog; ("", False) if not."""
    dlg = text_prompt(parent, title, label, text, ok)
    accepted = dlg.exec() == QtWidgets.QDialog.DialogCode.Accepted
    value = dlg.textValue()
    dlg.deleteLater()
    return (value, True) if accepted else ("", False)
