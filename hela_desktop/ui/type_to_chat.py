"""Typing where nothing takes text goes to the message box.

A user who clicked a memory in the graph, or a line of the chat, and then typed a question
lost it without a sign: the keys went to the graph, which has no text (QA pass 22).  Keys
that write a character there (no Ctrl, Alt or Meta; not a lone space, which may scroll)
move the keyboard to the message box and are written there, as chat apps do.  The
graph keeps its own keys: + / = and − zoom it (pyqtgraph's view box).
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

_COMMAND_KEYS = (QtCore.Qt.KeyboardModifier.ControlModifier
                 | QtCore.Qt.KeyboardModifier.AltModifier
                 | QtCore.Qt.KeyboardModifier.MetaModifier)


KEPT = frozenset("+=-")  # the graph's zoom keys


def writes(event) -> str:
    """The character(s) a key press writes, or "" for a command, a move, a lone space or
    a key the graph keeps (`KEPT`)."""
    text = event.text()
    if not text or event.modifiers() & _COMMAND_KEYS or text.isspace() or text in KEPT:
        return ""
    return text if text.isprintable() else ""


class TypeToChat(QtCore.QObject):
    """Sends what is typed on `sources` (widgets without text of their own) to `box`."""

    def __init__(self, box: QtWidgets.QPlainTextEdit, *sources: QtWidgets.QWidget):
        super().__init__(box)
        self.box = box
        for w in sources:
            w.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() != QtCore.QEvent.Type.KeyPress or not self.box.isEnabled():
            return False
        text = writes(event)
        if not text:
            return False
        self.box.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)
        self.box.moveCursor(self.box.textCursor().MoveOperation.End)
        self.box.insertPlainText(text)
        return True
