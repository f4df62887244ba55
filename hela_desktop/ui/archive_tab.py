"""The memory browser's Archive tab: the memories out of recall, those forgetting archived
and those you deleted, to bring back (Restore) or to erase from the memory file (Delete for
good, after a question; it cannot be undone).

Several rows can be chosen at once (Shift/Ctrl+click, Ctrl+A); both buttons act on all of
them, and the Delete key asks to delete the chosen ones for good.  The tab only asks: the
browser sends ``restore`` and ``purge`` to the assistant thread.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from ..store import REPLACED
from ..words import count
from .plain import message_box
from .theme import hint_with_count


def removed_counts(episodes: list, reasons: dict | None = None) -> str:
    """"2 archived by forgetting · 1 deleted by you · 1 replaced by a new answer" (or
    "Nothing archived or deleted"); `reasons`: the rows' ``archive_reason``."""
    reasons = reasons or {}
    replaced = sum(1 for e in episodes
                   if e.deleted_at is not None and reasons.get(e.id) == REPLACED)
    deleted = sum(1 for e in episodes if e.deleted_at is not None) - replaced
    archived = len(episodes) - deleted - replaced
    parts = []
    if archived:
        parts.append(f"{count(archived, 'memory', 'memories')} archived by forgetting")
    if deleted:
        parts.append(f"{count(deleted, 'memory', 'memories')} deleted by you")
    if replaced:
        parts.append(f"{count(replaced, 'answer')} replaced by a new one")
    return " · ".join(parts) or "Nothing archived or deleted"


def purge_question(ids: list[int]) -> str:
    what = f"memory #{ids[0]}" if len(ids) == 1 else count(len(ids), "memory", "memories")
    return (f"Delete {what} for good?\n\nThe words are erased from the memory file, with "
            "their links and any knowledge drawn only from them. This cannot be undone; "
            "an export made earlier still holds them, and so does a chat they were said "
            "in until you delete that chat.")


ANSWER_COLUMN_FROM = 640  # table width (px) from which a memory table shows the answer
LAST_USED_FROM = 520  # and its last-used column (narrower, your words keep their room)


def fit_memory_columns(table: QtWidgets.QTableView) -> None:
    """A memory table narrower than the answer and last-used columns need leaves them out,
    so your words stay readable (the Memories tab; the Archive too since QA pass 24, where
    every "You" entry was cut at the default size)."""
    width = table.viewport().width()
    table.setColumnHidden(3, width < ANSWER_COLUMN_FROM)
    table.setColumnHidden(5, width < LAST_USED_FROM)


class _FitsColumns(QtCore.QObject):
    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QtCore.QEvent.Type.Resize and isinstance(obj.parent(), QtWidgets.QTableView):
            fit_memory_columns(obj.parent())
        return False


class ArchiveTab(QtWidgets.QWidget):
    """The Archive tab's table (`model`: the browser's `EpisodeTableModel`), its count and
    its two buttons."""

    restoreRequested = QtCore.Signal(list)  # memory ids
    purgeRequested = QtCore.Signal(list)  # memory ids, confirmed

    def __init__(self, model: QtCore.QAbstractTableModel, parent=None):
        super().__init__(parent)
        self.model = model
        lay = QtWidgets.QVBoxLayout(self)
        self.count_label = hint_with_count(
            lay, "Memories that forgetting archived (weak, isolated, stale) and memories you "
            "deleted (marked ✕, in italics). None of them is recalled; hover a row for when "
            "and why. Restore brings a memory back with its links; Delete for good erases it.")
        self.table = QtWidgets.QTableView()
        self.table.setModel(model)
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.verticalHeader().setVisible(False)
        for col, w in enumerate((28, 118, 200, 240, 66, 118)):
            self.table.setColumnWidth(col, w)
        # your words and the answer share what is left, as in the Memories tab (QA pass
        # 23: at 1.5× scaling the archive scrolled sideways, its words 200 px wide)
        for col in (2, 3):
            self.table.horizontalHeader().setSectionResizeMode(
                col, QtWidgets.QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(False)
        self.table.viewport().installEventFilter(_FitsColumns(self))
        # the buttons act on the chosen rows: enabled as soon as one is chosen
        self.table.selectionModel().selectionChanged.connect(lambda *_: self.update_buttons())
        lay.addWidget(self.table, 1)
        row = QtWidgets.QHBoxLayout()
        self.restore_button = QtWidgets.QPushButton("Restore")
        self.restore_button.clicked.connect(self.restore_selected)
        self.purge_button = QtWidgets.QPushButton("Delete for good…")
        self.purge_button.setToolTip("Erase the chosen memories from the memory file (Delete); "
                                     "this cannot be undone")
        self.purge_button.clicked.connect(self.purge_selected)
        for b in (self.restore_button, self.purge_button):
            row.addWidget(b)
        row.addStretch(1)
        lay.addLayout(row)
        key = QtGui.QShortcut(QtGui.QKeySequence(QtCore.Qt.Key.Key_Delete), self.table)
        # PySide6 ignores context= in the constructor: set it, or Delete is window-wide
        key.setContext(QtCore.Qt.ShortcutContext.WidgetShortcut)
        key.activated.connect(self.purge_selected)
        self.update_buttons()

    def show_rows(self, episodes: list, reasons: dict | None) -> None:
        chosen = set(self.selected_ids())
        self.model.set_episodes(episodes, reasons)  # type: ignore[attr-defined]
        self.count_label.setText(removed_counts(episodes, reasons))
        sel = self.table.selectionModel()
        for row, e in enumerate(episodes):  # the same memories stay chosen
            if e.id in chosen:
                sel.select(self.model.index(row, 0),
                           QtCore.QItemSelectionModel.SelectionFlag.Select
                           | QtCore.QItemSelectionModel.SelectionFlag.Rows)
        self.update_buttons()

    def select_id(self, eid: int) -> None:
        """Choose memory `eid` alone and scroll to it (nothing, if it is not listed)."""
        for row, e in enumerate(self.model.episodes):  # type: ignore[attr-defined]
            if e.id == eid:
                self.table.selectRow(row)
                self.table.scrollTo(self.model.index(row, 0))
                break
        self.update_buttons()

    def selected_ids(self) -> list[int]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        eps = [self.model.episode_at(r) for r in rows]  # type: ignore[attr-defined]
        return [e.id for e in eps if e is not None]

    def update_buttons(self) -> None:
        some = bool(self.table.selectionModel().selectedRows())
        if not some and (self.restore_button.hasFocus() or self.purge_button.hasFocus()):
            # the rows restored went, and the button with them: the keyboard stays in the
            # table (QA pass 24: it went to the window's first control, "+ New")
            self.table.setFocus()
        self.restore_button.setEnabled(some)
        self.purge_button.setEnabled(some)

    def restore_selected(self) -> None:
        ids = self.selected_ids()
        if ids:
            self.restoreRequested.emit(ids)

    def purge_selected(self) -> None:
        ids = self.selected_ids()
        if not ids:
            return
        box, erase = purge_box(ids, self)
        if ask(box) is erase:
            self.purgeRequested.emit(ids)


def purge_box(ids: list[int], parent: QtWidgets.QWidget | None = None
              ) -> tuple[QtWidgets.QMessageBox, QtWidgets.QAbstractButton]:
    """The question before deleting for good: (the box, its "Delete for good" button).
    Cancel is the default, so Enter does not erase."""
    box = message_box(QtWidgets.QMessageBox.Icon.Warning, "Delete for good",
                      purge_question(ids), QtWidgets.QMessageBox.StandardButton.Cancel, parent)
    erase = box.addButton("Delete for good", QtWidgets.QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(QtWidgets.QMessageBox.StandardButton.Cancel)
    return box, erase


def ask(box: QtWidgets.QMessageBox) -> QtWidgets.QAbstractButton | None:
    """Show `box` until it is answered; the button clicked (None: closed)."""
    box.exec()
    return box.clickedButton()
