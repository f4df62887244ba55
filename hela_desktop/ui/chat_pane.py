"""The chat pane around the message view (`chat.MessageView`): the chat's heading and the
input row, the message box (`ChatInput`) with Send and Stop."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from .chat import MessageView
from .plain import ElidedLabel, tip
from .theme import button_focus_style, focus_frame_style

TITLE_SHOWN = 60  # characters of a chat's title shown above its messages (then "…")
# Enter pressed while an answer is being written
BUSY_HINT = ("HeLa is still answering. Your message stays here: press Enter again once "
             "the answer is done, or Esc to stop it.")
SEND_BLANK = "Type a message to send it (Enter)"  # Send's tooltip while the box is blank


class ChatInput(QtWidgets.QPlainTextEdit):
    """Enter sends, Shift+Enter inserts a new line; grows from 2 to 6 lines.  Undo (Ctrl+Z)
    with nothing of its own to undo is `nothingToUndo`: the window's undo then (QA pass 21:
    right after "Forget about Ana." the keyboard was here, and Ctrl+Z did nothing)."""

    submitted = QtCore.Signal(str)
    nothingToUndo = QtCore.Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setPlaceholderText("Message HeLa…  (Enter to send, Shift+Enter for a new line)")
        self.setTabChangesFocus(True)
        self.document().contentsChanged.connect(self._fit_height)
        self._fit_height()

    def keyPressEvent(self, e: QtGui.QKeyEvent) -> None:  # noqa: N802 - Qt API
        if e.key() in (QtCore.Qt.Key.Key_Return, QtCore.Qt.Key.Key_Enter):
            if e.modifiers() & QtCore.Qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
                return
            text = self.toPlainText().strip()
            if text:
                self.submitted.emit(text)
            return
        if e.matches(QtGui.QKeySequence.StandardKey.Undo) and not self.document().isUndoAvailable():
            self.nothingToUndo.emit()
            return
        super().keyPressEvent(e)

    def _fit_height(self) -> None:
        fm = self.fontMetrics()
        lines = max(2, min(6, int(self.document().size().height()) or 2))
        self.setFixedHeight(int(fm.lineSpacing() * lines + 16))


class ChatPane(QtWidgets.QWidget):
    """Message view + input row (Send / Stop)."""

    sendRequested = QtCore.Signal(str)
    stopRequested = QtCore.Signal()
    chatsRequested = QtCore.Signal()  # "‹ Chats": the chat list, shut, asked for
    graphRequested = QtCore.Signal()  # "Memory graph ›": the graph side, shut, asked for
    titleChanged = QtCore.Signal(str)  # the heading as shown (the window's title follows)

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        # ends in "…" where the pane cuts it (QA pass 21: "…called Pixel", cut mid-word);
        # a long title never widens the pane (set_title shortens it; the tooltip has it all)
        self.title = ElidedLabel("New chat")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.title.setContentsMargins(4, 2, 4, 2)
        self.title.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored,
                                 QtWidgets.QSizePolicy.Policy.Preferred)
        # the side panes, when shut (a small window folds them, or a drag), are offered
        # back here (QA pass 31: at 800 × 600 the graph side was gone with no sign)
        self.chats_button = self._side_button(
            "‹ Chats", "Show the chat list (View ▸ Chat list, Ctrl+Shift+L)", self.chatsRequested)
        self.graph_button = self._side_button(
            "Memory graph ›", "Show the memory graph and Memories (View ▸ Memory graph, "
            "Ctrl+1); the window folded them to keep the chat readable", self.graphRequested)
        head = QtWidgets.QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.chats_button)
        head.addWidget(self.title, 1)
        head.addWidget(self.graph_button)
        lay.addLayout(head)
        self.view = MessageView()
        lay.addWidget(self.view, 1)
        row = QtWidgets.QHBoxLayout()
        self.input = ChatInput()
        self.input.submitted.connect(self._submit)
        self.send_button = QtWidgets.QPushButton("Send")
        self.send_button.setDefault(True)
        self._streaming = False
        # nothing to send, nothing to press (QA pass 30: Send with only spaces in the box
        # did nothing and said nothing)
        self.input.textChanged.connect(self._update_send)
        self.send_button.clicked.connect(lambda: self._submit(self.input.toPlainText().strip()))
        self.stop_button = QtWidgets.QPushButton("Stop")
        self.stop_button.setToolTip("Stop the answer (Esc); the partial answer is kept")
        self.stop_button.clicked.connect(self.stopRequested)
        self.stop_button.setEnabled(False)
        self._update_send()
        buttons = QtWidgets.QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        row.addWidget(self.input, 1)
        row.addLayout(buttons)
        self.show_focus()
        lay.addLayout(row)

    def _side_button(self, text: str, tooltip: str, signal) -> QtWidgets.QToolButton:
        button = QtWidgets.QToolButton()
        button.setText(text)
        button.setToolTip(tooltip)
        button.setAutoRaise(True)
        button.clicked.connect(signal)
        button.hide()
        return button

    def show_shut(self, list_shut: bool, graph_shut: bool) -> None:
        """Offer back the chat list and the graph side that are shut."""
        self.chats_button.setVisible(list_shut)
        self.graph_button.setVisible(graph_shut)

    def show_focus(self) -> None:
        """Edge the chat and the message box in the accent, and Send and Stop in the text
        colour, while they have the keyboard (again after the palette changes)."""
        pal = QtWidgets.QApplication.palette()
        self.setStyleSheet(focus_frame_style(pal, "MessageView", "ChatInput")
                           + button_focus_style(pal))

    def _update_send(self) -> None:
        """Send is pressable when there is a message to send and no answer is being
        written; its tooltip says which is missing."""
        blank = not self.input.toPlainText().strip()
        self.send_button.setEnabled(not self._streaming and not blank)
        self.send_button.setToolTip(SEND_BLANK if blank and not self._streaming
                                    else BUSY_HINT if self._streaming else "Send (Enter)")

    def _submit(self, text: str) -> None:
        if text and self._streaming:  # Enter while an answer is written:
            # nothing happened, and nothing said why (the message stays in the box)
            above = -2 * self.input.fontMetrics().height() - 16  # not over Stop, below it
            QtWidgets.QToolTip.showText(self.input.mapToGlobal(QtCore.QPoint(8, above)),
                                        BUSY_HINT, self.input)
            return
        if not text:
            return
        self.input.clear()
        self.sendRequested.emit(text)

    def set_streaming(self, on: bool) -> None:
        self._streaming = on
        self._update_send()
        self.stop_button.setEnabled(on)

    def set_title(self, title: str) -> None:
        """The chat's heading: its title, shortened with "…" past `TITLE_SHOWN` characters
        (the title itself is stored whole); the full title is then the tooltip."""
        shown = title if len(title) <= TITLE_SHOWN else title[:TITLE_SHOWN - 1].rstrip() + "…"
        self.title.setText(shown)
        self.title.setToolTip(tip(title))
        self.titleChanged.emit(shown)
