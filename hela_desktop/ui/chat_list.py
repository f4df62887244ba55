"""The chat list beside the conversation: chats newest first, a filter for the hundreds an
import brings (by title at once, and by what was said in them when the assistant thread
answers `findRequested`), New / Rename / Delete.

The list is a `QListView` over `ChatListModel`: refilling it (after every answer, the chat
moves to the top) is one model reset, and the view lays out and paints only the rows in
sight, so thousands of imported chats cost no more than a few (a `QListWidget` built 3,000
items on the GUI thread, 0.15-0.49 s each time)."""

from __future__ import annotations

import time

from PySide6 import QtCore, QtGui, QtWidgets

from ..words import count
from .explain import when as format_when
from .plain import BidiDelegate, draw_elided, find_keys, message_box, tip
from .theme import focus_frame_style, muted

ID_ROLE = QtCore.Qt.ItemDataRole.UserRole  # the chat's id
TIP_ROLE = QtCore.Qt.ItemDataRole.UserRole + 1  # a chat's own tooltip, before a search's line
WHEN_ROLE = QtCore.Qt.ItemDataRole.UserRole + 2  # its last activity, short ("14:02", "3 Mar")
MEMORIES_ROLE = QtCore.Qt.ItemDataRole.UserRole + 3  # memories formed in it (not deleted)


def short_when(ts: float | None, now: float | None = None) -> str:
    """When a chat was last active, as short as a list row allows: the time today ("14:02"),
    the day this year ("3 Mar"), else the month and year ("Mar 2023"); "" for none or a time
    no calendar has."""
    if not ts:
        return ""
    try:
        t, n = time.localtime(ts), time.localtime(time.time() if now is None else now)
    except (OverflowError, OSError, ValueError):
        return ""
    if t[:3] == n[:3]:
        return time.strftime("%H:%M", t)
    if t.tm_year == n.tm_year:
        return f"{t.tm_mday} {time.strftime('%b', t)}"
    return time.strftime("%b %Y", t)


def chat_said(c: dict) -> str:
    """A chat's own tooltip: its title, how many messages (and memories formed in it), and
    when it was last active."""
    formed = int(c.get("memories") or 0)
    return (f"{c['title']}\n{count(c['messages'], 'message')}"
            + (f", {count(formed, 'memory', 'memories')}" if formed else "")
            + f" · {format_when(c['updated_at'])}")


class ChatListModel(QtCore.QStringListModel):
    """The chats the list shows (those the filter lets through), each read when the view
    asks for it: a row's tooltip and date are made when it is painted or hovered, not for
    every chat at each refill.  The titles are a `QStringListModel`'s, so that laying out
    thousands of rows counts them in C++ (a Python `rowCount`, asked once per row, took
    most of a refill's time)."""

    def __init__(self, parent: QtCore.QObject | None = None):
        super().__init__(parent)
        self.rows: list[dict] = []
        self.found: dict[int, str] = {}  # chat id: the message that holds the filter's words

    def set_rows(self, rows: list[dict], found: dict[int, str]) -> None:
        self.rows, self.found = rows, found
        self.setStringList([c["title"] for c in rows])  # one reset

    def flags(self, index) -> QtCore.Qt.ItemFlag:
        return super().flags(index) & ~QtCore.Qt.ItemFlag.ItemIsEditable  # renamed by Rename

    def row_of(self, cid: int | None) -> int:
        """The row showing chat `cid`, -1 for none."""
        return next((i for i, c in enumerate(self.rows) if c["id"] == cid), -1) if cid is not None else -1

    def data(self, index, role=QtCore.Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        c = self.rows[index.row()]
        R = QtCore.Qt.ItemDataRole
        if role in (R.DisplayRole, R.EditRole):
            return c["title"]
        if role == ID_ROLE:
            return c["id"]
        if role == WHEN_ROLE:
            return short_when(c.get("updated_at"))
        if role == MEMORIES_ROLE:
            return int(c.get("memories") or 0)
        if role == TIP_ROLE:
            return chat_said(c)
        if role == R.ToolTipRole:  # a chat found by its messages: the message too
            said, base = self.found.get(c["id"]), chat_said(c)
            return tip(f"{base}\n\n“{said}”" if said else base)
        return None


class ChatRowDelegate(BidiDelegate):
    """A chat's title, elided, and at the row's right end when it was last active, in the
    readable grey (chats imported from years back are told apart by it)."""

    def paint(self, painter: QtGui.QPainter, option, index) -> None:
        when = index.data(WHEN_ROLE)
        if not when:
            super().paint(painter, option, index)
            return
        opt = QtWidgets.QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        title, opt.text = opt.text, ""
        widget = opt.widget
        style = widget.style() if widget is not None else QtWidgets.QApplication.style()
        style.drawControl(QtWidgets.QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = style.subElementRect(QtWidgets.QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        fm = opt.fontMetrics
        room = fm.horizontalAdvance(when) + fm.horizontalAdvance("  ")
        selected = bool(opt.state & QtWidgets.QStyle.StateFlag.State_Selected)
        pal = opt.palette
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(pal.color(QtGui.QPalette.ColorRole.HighlightedText if selected
                                 else QtGui.QPalette.ColorRole.Text))
        draw_elided(painter, rect.adjusted(2, 0, -room, 0),
                    QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter, title)
        painter.setPen(pal.color(QtGui.QPalette.ColorRole.HighlightedText if selected
                                 else QtGui.QPalette.ColorRole.PlaceholderText))
        painter.drawText(rect.adjusted(0, 0, -2, 0), int(QtCore.Qt.AlignmentFlag.AlignRight
                                                         | QtCore.Qt.AlignmentFlag.AlignVCenter), when)
        painter.restore()


RENAME_WIDTH = (420, 760)  # the Rename box's width in pixels: at least, at most


def ask_title(parent: QtWidgets.QWidget, title: str) -> tuple[str, bool]:
    """Rename chat: the title in a box wide enough to read it; Qt's getText made a box of
    150 pixels for titles of up to 200 characters (/work/exp/qa13u/shots/16-rename.png)."""
    dlg = QtWidgets.QInputDialog(parent)
    dlg.setWindowTitle("Rename chat")
    dlg.setLabelText("Title:")
    dlg.setTextValue(title)
    least, most = RENAME_WIDTH
    wide = dlg.fontMetrics().horizontalAdvance(title) + 60
    dlg.resize(max(least, min(most, wide)), dlg.sizeHint().height())
    ok = dlg.exec() == QtWidgets.QDialog.DialogCode.Accepted
    text = dlg.textValue()
    dlg.deleteLater()
    return text, ok


class ConversationList(QtWidgets.QWidget):
    """Chats, newest first, with New / Rename / Delete."""

    selected = QtCore.Signal(int)  # conversation id (-1: none)
    newRequested = QtCore.Signal()
    renameRequested = QtCore.Signal(int, str)
    deleteRequested = QtCore.Signal(int)
    deleteWithMemoriesRequested = QtCore.Signal(int)  # the chat and the memories formed in it
    findRequested = QtCore.Signal(str)  # the filter's text: which chats' messages hold it

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        head = QtWidgets.QHBoxLayout()
        title = QtWidgets.QLabel("<b>Chats</b>")
        self.new_button = QtWidgets.QToolButton()
        self.new_button.setText("+ New")
        self.new_button.setToolTip("New chat (Ctrl+N)")
        self.new_button.clicked.connect(self.newRequested)
        head.addWidget(title)
        head.addStretch(1)
        head.addWidget(self.new_button)
        lay.addLayout(head)
        # what an answer being written holds still (`set_busy`): all but "+ New"
        self.body = QtWidgets.QWidget()
        outer, lay = lay, QtWidgets.QVBoxLayout(self.body)
        lay.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.body, 1)
        # with hundreds of imported chats, finding one by its title
        self.filter = QtWidgets.QLineEdit()
        self.filter.setPlaceholderText("Search chats…")
        self.filter.setClearButtonEnabled(True)
        self.filter.setToolTip("Show the chats whose title or messages hold these words "
                               "(Esc clears)")
        self._found: tuple[str, dict[int, str]] = ("", {})  # (text, {chat: message}) found
        self._find_timer = QtCore.QTimer(self, singleShot=True, interval=250)
        self._find_timer.timeout.connect(self._ask_find)
        self.filter.textChanged.connect(self._filter_changed)
        find_keys(self.filter, self._to_first_shown)
        lay.addWidget(self.filter)
        self.none_label = QtWidgets.QLabel("")
        self.none_label.setWordWrap(True)
        muted(self.none_label)
        self.none_label.hide()
        lay.addWidget(self.none_label)
        self._chats: list[dict] = []  # every chat, newest first
        self._current: int | None = None  # the open chat, selected whenever it is shown
        self.model = ChatListModel(self)
        self.list = QtWidgets.QListView()
        self.list.setObjectName("chatList")
        self.show_focus()
        self.list.setModel(self.model)
        self.list.setUniformItemSizes(True)  # one line each: no row is measured to lay out
        self.list.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(QtCore.Qt.TextElideMode.ElideRight)
        # Arabic, Hebrew titles from the right; when each chat was last active at the right
        self.list.setItemDelegate(ChatRowDelegate(self.list))
        self.list.setContextMenuPolicy(QtCore.Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        self.list.selectionModel().currentChanged.connect(self._on_current)
        self.list.doubleClicked.connect(lambda _index: self.rename_current())
        lay.addWidget(self.list, 1)
        row = QtWidgets.QHBoxLayout()
        self.rename_button = QtWidgets.QPushButton("Rename")
        self.delete_button = QtWidgets.QPushButton("Delete")
        self.rename_button.clicked.connect(self.rename_current)
        self.delete_button.clicked.connect(self.delete_current)
        row.addWidget(self.rename_button)
        row.addWidget(self.delete_button)
        self.rename_button.setToolTip("Rename the chat (F2)")
        self.delete_button.setToolTip("Delete the chat (Delete)")
        for key, slot in ((QtCore.Qt.Key.Key_F2, self.rename_current),
                          (QtCore.Qt.Key.Key_Delete, self.delete_current)):  # as in Memories
            # (PySide6 ignores a `context=` given to this constructor: the shortcut was
            # window-wide, and Delete in the memory table became ambiguous and did nothing)
            shortcut = QtGui.QShortcut(QtGui.QKeySequence(key), self.list, slot)
            shortcut.setContext(QtCore.Qt.ShortcutContext.WidgetShortcut)
        lay.addLayout(row)
        self._silent = False
        self._enable(False)

    # ---- what the list holds --------------------------------------------------------------
    def show_focus(self) -> None:
        """Edge the list in the accent while it has the keyboard (its selected row looked
        the same with or without it: QA pass 20); again after the palette changes."""
        self.setStyleSheet(focus_frame_style(QtWidgets.QApplication.palette(),
                                             "QListView#chatList"))

    def set_conversations(self, convs: list[dict], current: int | None) -> None:
        """Show `convs` (newest first) with chat `current` selected, without `selected`."""
        self._chats, self._current = list(convs), current
        self._apply_filter(self.filter.text())

    def chats(self) -> list[dict]:
        """Every chat the list holds, newest first (the filter aside)."""
        return list(self._chats)

    def shown(self) -> list[dict]:
        """The chats the filter lets through, as the list shows them."""
        return list(self.model.rows)

    def tooltip_of(self, cid: int) -> str:
        """The tooltip of chat `cid`'s row ("" when it is not shown)."""
        row = self.model.row_of(cid)
        return "" if row < 0 else str(self.model.index(row, 0).data(QtCore.Qt.ItemDataRole.ToolTipRole))

    def select(self, cid: int) -> None:
        """Make chat `cid` the current one, as a click on its row does (it is opened)."""
        row = self.model.row_of(cid)
        if row >= 0:
            self.list.setCurrentIndex(self.model.index(row, 0))

    def clear_current(self) -> None:
        """No chat selected (a new chat is being started)."""
        self._current = None
        self._silent = True
        self.list.selectionModel().clear()
        self._silent = False
        self._enable(False)

    def _show(self, rows: list[dict], found: dict[int, str]) -> None:
        """Refill the view with `rows`, the open chat selected if among them (silently)."""
        self._silent = True
        self.model.set_rows(rows, found)
        row = self.model.row_of(self._current)
        if row >= 0:
            self.list.setCurrentIndex(self.model.index(row, 0))
        self._silent = False
        self._enable(row >= 0)

    def set_busy(self, busy: bool) -> None:
        """An answer is being written: the chats hold still (switching mid-answer would be
        confusing), and say why; "+ New" stays, and stops the answer first."""
        self.body.setEnabled(not busy)
        self.body.setToolTip("Chats can be opened, renamed or deleted once the answer ends "
                             "(Esc stops it)." if busy else "")
        self.new_button.setToolTip("New chat (Ctrl+N): stops the answer being written, "
                                   "keeping what it wrote" if busy else "New chat (Ctrl+N)")

    def _enable(self, has: bool) -> None:
        self.rename_button.setEnabled(has)
        self.delete_button.setEnabled(has)

    # ---- the filter -------------------------------------------------------------------------
    def _filter_changed(self, text: str) -> None:
        self._apply_filter(text)  # titles at once; messages when the search answers
        self._find_timer.start()

    def _ask_find(self) -> None:
        text = self.filter.text().strip()
        if text and text != self._found[0]:
            self.findRequested.emit(text)

    def set_found(self, text: str, found: dict[int, str]) -> None:
        """The chats whose messages hold the words of `text` ({chat id: the part of the
        newest such message around them}); dropped if the filter has moved on."""
        if text.strip() != self.filter.text().strip():
            return
        self._found = (text.strip(), {int(k): v for k, v in found.items()})
        self._apply_filter(self.filter.text())

    def _apply_filter(self, text: str) -> None:
        """Show the chats whose title holds all of the filter's words (case aside) or
        whose messages were found to hold them; say so when none is left, and how many of
        how many show.  A chat found by its messages shows the message in its tooltip."""
        words = text.casefold().split()
        found = self._found[1] if self._found[0] == text.strip() and words else {}
        rows, by_words = self._chats, 0
        if words:
            rows = []
            for c in self._chats:
                in_title = all(w in c["title"].casefold() for w in words)
                if in_title or c["id"] in found:
                    rows.append(c)
                    by_words += not in_title
        self._show(rows, found)
        shown, n = len(rows), len(self._chats)
        self.none_label.setVisible(bool(words))
        searching = " (searching their messages…)" if words and self._found[0] != text.strip() else ""
        self.none_label.setText(
            "" if not words else f"No chat holds “{text.strip()}”.{searching}" if not shown
            else f"{shown} of {n} chats"
            + (f", {by_words} by what was said in them" if by_words else "") + searching)

    def _to_first_shown(self) -> None:
        """Down in the filter box: to the first chat shown."""
        if self.model.rows:
            self.list.setCurrentIndex(self.model.index(0, 0))
        self.list.setFocus()

    # ---- the current chat -----------------------------------------------------------------
    def _current_row(self) -> dict | None:
        index = self.list.currentIndex()
        return self.model.rows[index.row()] if index.isValid() and index.row() < len(self.model.rows) else None

    def current_id(self) -> int | None:
        c = self._current_row()
        return None if c is None else int(c["id"])

    def _on_current(self, cur, _prev) -> None:
        has = cur.isValid()
        self._enable(has)
        if not self._silent:
            cid = int(cur.data(ID_ROLE)) if has else -1
            self._current = cid if has else None
            self.selected.emit(cid)

    def rename_current(self) -> None:
        c = self._current_row()
        if c is None:
            return
        text, ok = ask_title(self, c["title"])
        if ok and text.strip():
            self.renameRequested.emit(int(c["id"]), text.strip())

    def delete_current(self) -> None:
        c = self._current_row()
        if c is None:
            return
        cid, formed = int(c["id"]), int(c.get("memories") or 0)
        if formed:
            said = ("Its messages are removed. The memory formed in it stays in the memory "
                    "graph, unless you delete it too." if formed == 1 else
                    f"Its messages are removed. The {formed:,} memories formed in it stay "
                    "in the memory graph, unless you delete them too.")
        else:  # nothing to take along: no choice to offer
            said = "Its messages are removed. No memories were formed in it."
        box = message_box(QtWidgets.QMessageBox.Icon.Question, "Delete chat",
                          f"Delete the chat “{c['title']}”?\n\n{said}",
                          QtWidgets.QMessageBox.StandardButton.Yes | QtWidgets.QMessageBox.StandardButton.No,
                          self)
        # its messages go for good: Enter keeps the chat (QA pass 21: Yes was the default);
        # the buttons say what they do (QA pass 35: "Yes" / "No")
        box.setDefaultButton(QtWidgets.QMessageBox.StandardButton.No)
        box.button(QtWidgets.QMessageBox.StandardButton.Yes).setText("Delete")
        box.button(QtWidgets.QMessageBox.StandardButton.No).setText("Cancel")
        also = None
        pinned = min(formed, int(c.get("pinned") or 0))  # a pin says "keep this": they stay
        if formed > pinned:
            kept = (f"; the {count(pinned, 'pinned one stays', 'pinned ones stay')}"
                    if pinned else "")
            also = QtWidgets.QCheckBox(
                f"Also delete the {count(formed - pinned, 'memory', 'memories')} formed in it "
                f"(restorable from Memories ▸ Archive){kept}")
            box.setCheckBox(also)
        if box.exec() == QtWidgets.QMessageBox.StandardButton.Yes:
            (self.deleteWithMemoriesRequested if also is not None and also.isChecked()
             else self.deleteRequested).emit(cid)

    def _menu(self, pos) -> None:
        if not self.list.indexAt(pos).isValid():
            return
        m = QtWidgets.QMenu(self)
        m.addAction("Rename…", self.rename_current)
        m.addAction("Delete…", self.delete_current)
        m.exec(self.list.mapToGlobal(pos))
