"""User text shown as written: Qt guesses that a string with something like a tag in it is
HTML (message boxes, labels and tooltips do), so a chat titled "Pixel <b>bold</b>" would
show in bold. Everything that shows the user's words goes through here."""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Callable

from PySide6 import QtCore, QtGui, QtWidgets

PLAIN = QtCore.Qt.TextFormat.PlainText


# a tooltip of more than this would not fit a laptop's screen (a 5,000-character paste
# made one 1,000 pixels tall, its start above the screen's edge): the rest is left out
TIP_CHARS = 1200
TIP_LINE = 90  # a tooltip with a longer line is wrapped


def tip(text: str, end: str = "") -> str:
    """A tooltip that shows `text` as written (tooltips have no plain-text switch), and
    no more of it than fits a screen; `end`, a last line, is always shown."""
    if len(text) > TIP_CHARS:
        head = text[:TIP_CHARS]
        cut = head.rsplit(None, 1)[0] if " " in head[-80:] else head  # at a word, if near
        text = f"{cut}… ({len(text) - len(cut):,} more characters)"
    text += f"\n{end}" if end else ""
    rich = QtGui.Qt.mightBeRichText(text)
    # (Qt wraps a rich tooltip only: a long plain line made one 1,200 px wide, QA pass 38,
    # where another memory's, rich by chance, was wrapped)
    if not rich and max(map(len, text.splitlines()), default=0) <= TIP_LINE:
        return text
    return "<p style='white-space:pre-wrap'>" + html.escape(text, quote=rich) + "</p>"


def reason_first(msg: str) -> str:
    """An error that starts with a file's path ("/m/x.gguf: model file not found; check
    the path …", the terminal's way) as a person reads it in a window: the reason first,
    as a sentence, then the file on its own line (QA pass 23 saw a lower-case fragment
    after a long path)."""
    head, sep, rest = msg.partition(": ")
    path_like = ("://" not in head and "\n" not in head
                 and (head.startswith(("/", "~")) or head[1:3] == ":\\"))
    if not (sep and rest.strip() and path_like):
        return msg if "://" in head else msg[:1].upper() + msg[1:]
    if not rest.startswith("llama.cpp"):  # (its name is written so)
        rest = rest[:1].upper() + rest[1:]
    return f"{rest.rstrip('. ')}.\n\nFile: {head}"


def no_orphan(line: str) -> str:
    """`line` with its last two words bound by a no-break space, so that wrapping in a
    narrow pane never leaves one word alone on the last line (a last piece already bound,
    several words, is left as it is)."""
    head, sep, last = line.rpartition(" ")
    return f"{head}\u00a0{last}" if sep and head.strip() and "\u00a0" not in last else line


def message_box(icon: QtWidgets.QMessageBox.Icon, title: str, text: str,
                buttons: QtWidgets.QMessageBox.StandardButton = QtWidgets.QMessageBox.StandardButton.Close,
                parent: QtWidgets.QWidget | None = None) -> QtWidgets.QMessageBox:
    """A message box whose text is plain text, whatever it contains."""
    box = QtWidgets.QMessageBox(icon, title, "", buttons, parent)
    box.setTextFormat(PLAIN)
    box.setText(text)
    # wide enough for its title as the window manager writes it, the app's name after it
    # and its buttons beside it (QA pass 31: "Import finis… eLa Desktop"); a message box
    # ignores a minimum width of its own, so its grid holds a strut
    app = QtGui.QGuiApplication.applicationDisplayName()
    need = box.fontMetrics().horizontalAdvance(f"{title} — {app}" if app else title) + 140
    grid = box.layout()
    if isinstance(grid, QtWidgets.QGridLayout):
        grid.addItem(QtWidgets.QSpacerItem(need, 0, QtWidgets.QSizePolicy.Policy.Minimum,
                                           QtWidgets.QSizePolicy.Policy.Minimum),
                     grid.rowCount(), 0, 1, grid.columnCount())
    return box


def show_message(parent: QtWidgets.QWidget, kind: str, title: str, text: str,
                 on_settings: Callable[[], None] | None = None) -> QtWidgets.QMessageBox:
    """A non-blocking message box over `parent` ("warning", "information"), with an "Open
    Settings…" button when `on_settings` is given; it takes the keyboard at once (Enter and
    Esc answer it, even without a window manager) and deletes itself when closed."""
    icon = {"warning": QtWidgets.QMessageBox.Icon.Warning,
            "information": QtWidgets.QMessageBox.Icon.Information}.get(
        kind, QtWidgets.QMessageBox.Icon.NoIcon)
    box = message_box(icon, title, text, parent=parent)
    if on_settings is not None:
        b = box.addButton("Open Settings…", QtWidgets.QMessageBox.ButtonRole.AcceptRole)
        b.clicked.connect(lambda: QtCore.QTimer.singleShot(0, on_settings))
    box.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setWindowModality(QtCore.Qt.WindowModality.NonModal)
    box.show()
    box.activateWindow()
    return box


def labels(*widgets: QtWidgets.QLabel) -> None:
    """These labels show plain text."""
    for w in widgets:
        w.setTextFormat(PLAIN)


def is_rtl(text: str) -> bool:
    """Whether `text` reads right to left: its first letter that has a direction is Arabic,
    Hebrew, Persian… (the rule of Qt's ``QString::isRightToLeft``, which PySide lacks)."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


def text_direction(text: str) -> QtCore.Qt.LayoutDirection:
    return QtCore.Qt.LayoutDirection.RightToLeft if is_rtl(text) else QtCore.Qt.LayoutDirection.LeftToRight


def draw_elided(p: QtGui.QPainter, rect: QtCore.QRect | QtCore.QRectF, align: QtCore.Qt.AlignmentFlag,
                text: str) -> None:
    """`text` on one line in `rect`, ended with "…" where it does not fit: at its end as
    its reader sees it — the left end for right-to-left text, which also starts at the
    right (`align`'s left becomes right), as a person reading it expects."""
    direction = text_direction(text)
    shown = p.fontMetrics().elidedText(text, QtCore.Qt.TextElideMode.ElideRight, int(rect.width()))
    p.save()
    p.setLayoutDirection(direction)
    p.drawText(rect, int(QtWidgets.QStyle.visualAlignment(direction, align)), shown)
    p.restore()


class BidiDelegate(QtWidgets.QStyledItemDelegate):
    """Rows of a list or table whose right-to-left text (Arabic, Hebrew…) reads from the
    right: aligned right and elided with "…" at its left end (Qt lays every row out in the
    view's direction, so such a row began at the left and its "…" stood next to its first
    word)."""

    def initStyleOption(self, option, index) -> None:  # noqa: N802 - Qt's name
        super().initStyleOption(option, index)
        if is_rtl(option.text):
            option.direction = QtCore.Qt.LayoutDirection.RightToLeft


class ElidedLabel(QtWidgets.QLabel):
    """A one-line plain-text label that may shrink: when narrower than its text it shows
    the longest of the shorter forms given that fits ("14 memories · 23 links (4 learned)",
    then "14 memories · 23 links", then "14 memories"), and past the shortest it ends with
    "…" (instead of being cut mid-word; at the left end of right-to-left text); its
    tooltip holds the whole text."""

    def __init__(self, text: str = "", parent: QtWidgets.QWidget | None = None):
        super().__init__(text, parent)
        self.setTextFormat(PLAIN)
        self.shorter: tuple[str, ...] = ()
        # as wide as its text when there is room (sizeHint), down to a few characters
        # (minimumSizeHint) when there is not
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred,
                           QtWidgets.QSizePolicy.Policy.Preferred)

    def setText(self, text: str, *shorter: str) -> None:  # noqa: N802 - Qt's name
        self.shorter = shorter
        super().setText(text)
        self.setToolTip(tip(text))
        self.updateGeometry()  # a longer text asks for more room

    def shown_text(self, width: int) -> str:
        """The form drawn in `width` pixels (before any "…")."""
        fm = self.fontMetrics()
        for form in (self.text(), *self.shorter):
            if fm.horizontalAdvance(form) <= width:
                return form
        return self.shorter[-1] if self.shorter else self.text()

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt's name
        return QtCore.QSize(self.fontMetrics().horizontalAdvance(self.text()) + 4,
                            super().sizeHint().height())

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt's name
        # a few characters (the window's layouts are made for this least width: in a small
        # window the shortest form is then cut too, "24 me…")
        return QtCore.QSize(min(self.sizeHint().width(), 40), super().minimumSizeHint().height())

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt's name
        p = QtGui.QPainter(self)
        p.setPen(self.palette().color(self.foregroundRole()))
        rect = self.contentsRect()  # right to left too
        draw_elided(p, rect, self.alignment(), self.shown_text(rect.width()))


class _FindKeys(QtCore.QObject):
    def __init__(self, edit: QtWidgets.QLineEdit, down: Callable[[], None] | None):
        super().__init__(edit)
        self.edit, self.down = edit, down

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if obj is self.edit and event.type() == QtCore.QEvent.Type.KeyPress:
            if event.key() == QtCore.Qt.Key.Key_Escape and self.edit.text():
                self.edit.clear()
                return True
            if event.key() == QtCore.Qt.Key.Key_Down and self.down is not None:
                self.down()
                return True
        return False


def find_keys(edit: QtWidgets.QLineEdit, down: Callable[[], None] | None = None) -> None:
    """A search or filter box's keys, the same everywhere: Esc clears it (an empty one
    lets Esc through, to stop an answer), Down goes to what it found (`down`)."""
    edit.installEventFilter(_FindKeys(edit, down))


class RefocusAfterDialogs(QtCore.QObject):
    """Give `window` the keyboard back when one of the app's dialogs closes and nothing
    else took it.  A window manager does this; without one (a bare X server, some kiosk
    set-ups) the focus went to the screen itself, and Ctrl+N and every other shortcut did
    nothing until a click in the window (Qt reports no focus change then: the dialog's
    window is watched until it hides).  Only a window of the app that took the focus and
    then closed triggers it, and only when no window of the app is active: never a switch
    to another program."""

    def __init__(self, window: QtWidgets.QWidget):
        super().__init__(window)
        self.window = window
        app = QtGui.QGuiApplication.instance()
        if isinstance(app, QtGui.QGuiApplication):
            app.focusWindowChanged.connect(self._changed)

    def _changed(self, win: QtGui.QWindow | None) -> None:
        if win is not None and win is not self.window.windowHandle():
            win.visibleChanged.connect(self._hidden)  # (again next time: harmless)

    def _hidden(self, visible: bool) -> None:
        if not visible:
            QtCore.QTimer.singleShot(0, self, self._refocus)

    def _refocus(self) -> None:
        if QtWidgets.QApplication.activeWindow() is None and self.window.isVisible():
            self.window.activateWindow()


class _WheelScrollsForm(QtCore.QObject):
    """Over a number or choice box that has not been clicked into, the mouse wheel scrolls
    the form (`area`), not the box's value."""

    def __init__(self, area: QtWidgets.QAbstractScrollArea):
        super().__init__(area)
        self.area = area

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:  # noqa: N802
        if (event.type() == QtCore.QEvent.Type.Wheel and isinstance(obj, QtWidgets.QWidget)
                and not obj.hasFocus()):
            QtCore.QCoreApplication.sendEvent(self.area.verticalScrollBar(), event)
            return True
        return False


def wheel_scrolls(area: QtWidgets.QScrollArea) -> None:
    """Scrolling a form with the wheel no longer changes the boxes the pointer passes over
    (QA pass 24: scrolling Settings set "Memories per answer" to 3 and "Room for memories"
    to 300 on the way down).  A box takes the wheel once clicked or tabbed into."""
    guard = _WheelScrollsForm(area)
    body = area.widget()
    if body is None:
        return
    for box in (body.findChildren(QtWidgets.QAbstractSpinBox)
                + body.findChildren(QtWidgets.QComboBox)):
        box.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)  # (not by the wheel)
        box.installEventFilter(guard)


def undo_bar(on_undo):
    """A hidden "… deleted. [Undo]" strip: (frame, label, button)."""
    bar = QtWidgets.QFrame()
    bar.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
    lay = QtWidgets.QHBoxLayout(bar)
    lay.setContentsMargins(6, 2, 6, 2)
    label = QtWidgets.QLabel("")
    # a long "Forgot #17 “…”" wraps: it pushed the splitter and folded the chat list (QA
    # pass 34)
    label.setWordWrap(True)
    label.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored,
                        QtWidgets.QSizePolicy.Policy.Preferred)
    button = QtWidgets.QPushButton("Undo")
    button.clicked.connect(on_undo)
    lay.addWidget(label, 1)
    lay.addWidget(button)
    bar.hide()
    return bar, label, button
