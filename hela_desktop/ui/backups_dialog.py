"""File ▸ Backups…: the automatic backups of the memory file (`hela_desktop.backups`), to
make one now, open their folder, or restore one (after a question; the window then reopens
its data folder on the restored file)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PySide6 import QtCore, QtGui, QtWidgets

from ..backups import Backup, backup_dir, delete_backup, list_backups
from ..words import count, size_words
from .archive_tab import ask
from .explain import when
from .plain import message_box
from .theme import hint_with_count

T = TypeVar("T")


def restore_question(b: Backup) -> str:
    return (f"Restore the backup of {when(b.made_at)}?\n\nYour memories, chats and knowledge "
            "go back to how they were then: what you said since is not in it. The memory "
            "file you have now is kept as a backup first, so this can be undone. Memories "
            "you deleted for good since then stay erased.")


def in_background(parent: QtWidgets.QWidget, text: str, job: Callable[[], T]) -> T:
    """Run `job` on a thread of its own while a busy dialog (no Cancel) says `text`, the
    window repainting meanwhile; its result, or the exception it raised."""
    box = QtWidgets.QProgressDialog(text, "", 0, 0, parent)
    box.setCancelButton(None)  # None: no button
    box.setWindowModality(QtCore.Qt.WindowModality.WindowModal)
    box.setMinimumDuration(300)
    out: dict = {}
    loop = QtCore.QEventLoop()

    def run() -> None:
        try:
            out["value"] = job()
        except BaseException as exc:  # noqa: BLE001 - raised again on the GUI thread
            out["error"] = exc
        QtCore.QMetaObject.invokeMethod(loop, "quit", QtCore.Qt.ConnectionType.QueuedConnection)

    worker = threading.Thread(target=run, name="hela-restore", daemon=True)
    worker.start()
    if worker.is_alive():
        loop.exec()
    worker.join()
    box.close()
    box.deleteLater()
    if "error" in out:
        raise out["error"]
    return out["value"]


class BackupsDialog(QtWidgets.QDialog):
    """The list of backups, newest first. `make_now()` asks the window for a backup (it
    comes back through `refresh`); `restore(path)` restores one (the window closes this
    dialog first)."""

    def __init__(self, db_file: Path, keep: int, make_now: Callable[[], None],
                 restore: Callable[[Path], object], parent=None):
        super().__init__(parent)
        self.setWindowTitle("Backups")
        self.resize(620, 380)
        self.db_file, self._make_now, self._restore = Path(db_file), make_now, restore
        lay = QtWidgets.QVBoxLayout(self)
        every = ("a copy of your memories is made while the app sits idle, once a day, and "
                 f"the newest {keep} are kept" if keep else
                 "automatic backups are off (Settings: backup_keep is 0)")
        self.count_label = hint_with_count(
            lay, f"Backups are whole copies of the memory file: {every}. Restoring one "
            "brings back your memories as they were then. Deleting a memory for good erases "
            "it from the backups too.")
        self.table = QtWidgets.QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Made", "Size", "Note"])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setColumnWidth(0, 150)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.itemDoubleClicked.connect(lambda _i: self.restore_selected())
        lay.addWidget(self.table, 1)
        row = QtWidgets.QHBoxLayout()
        self.make_button = QtWidgets.QPushButton("Back up now")
        self.make_button.clicked.connect(self.make_now)
        self.restore_button = QtWidgets.QPushButton("Restore…")
        self.restore_button.clicked.connect(self.restore_selected)
        self.delete_button = QtWidgets.QPushButton("Delete…")
        self.delete_button.setToolTip("Delete the chosen backup file (Delete); your memories "
                                      "are not touched")
        self.delete_button.clicked.connect(self.delete_selected)
        key = QtGui.QShortcut(QtGui.QKeySequence(QtCore.Qt.Key.Key_Delete), self.table)
        key.setContext(QtCore.Qt.ShortcutContext.WidgetShortcut)
        key.activated.connect(self.delete_selected)
        self.folder_button = QtWidgets.QPushButton("Open folder")
        self.folder_button.setToolTip(str(backup_dir(self.db_file)))
        self.folder_button.clicked.connect(self.open_folder)
        close = QtWidgets.QPushButton("Close")
        close.clicked.connect(self.reject)
        for b in (self.make_button, self.restore_button, self.delete_button, self.folder_button):
            b.setAutoDefault(False)  # (QA pass 35: after Back up now, Enter asked to restore)
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(close)
        lay.addLayout(row)
        self.backups: list[Backup] = []
        self.refresh()

    def refresh(self) -> None:
        """Read the backups folder again (a directory listing: cheap)."""
        self.backups = list_backups(self.db_file)
        self.table.setRowCount(len(self.backups))
        for r, b in enumerate(self.backups):
            for c, text in enumerate((when(b.made_at), size_words(b.size), b.note)):
                item = QtWidgets.QTableWidgetItem(text)
                item.setToolTip(str(b.path))
                self.table.setItem(r, c, item)
        self.count_label.setText(
            f"{count(len(self.backups), 'backup')} in {backup_dir(self.db_file)}"
            if self.backups else "No backups yet: Back up now makes the first.")
        self.make_button.setEnabled(True)
        if self.backups and not self.table.selectedItems():
            self.table.selectRow(0)
        self._update_buttons()

    def _update_buttons(self) -> None:
        chosen = bool(self.table.selectionModel().selectedRows())
        self.restore_button.setEnabled(chosen)
        self.delete_button.setEnabled(chosen)
        self.folder_button.setEnabled(backup_dir(self.db_file).is_dir())

    def selected(self) -> Backup | None:
        rows = self.table.selectionModel().selectedRows()
        return self.backups[rows[0].row()] if rows and rows[0].row() < len(self.backups) else None

    def make_now(self) -> None:
        self.make_button.setEnabled(False)  # until the backup is made (`refresh`)
        self.count_label.setText("Backing up…")
        self._make_now()

    def restore_selected(self) -> None:
        b = self.selected()
        if b is None:
            return
        box = message_box(QtWidgets.QMessageBox.Icon.Question, "Restore a backup",
                          restore_question(b), QtWidgets.QMessageBox.StandardButton.Cancel, self)
        go = box.addButton("Restore", QtWidgets.QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QtWidgets.QMessageBox.StandardButton.Cancel)
        if ask(box) is go:
            self.accept()
            self._restore(b.path)

    def delete_selected(self) -> None:
        """Delete the chosen backup file, after a question (Cancel the default)."""
        b = self.selected()
        if b is None:
            return
        box = message_box(QtWidgets.QMessageBox.Icon.Warning, "Delete a backup",
                          f"Delete the backup of {when(b.made_at)}?\n\nThe file is deleted; "
                          "your memories are not touched. This cannot be undone.",
                          QtWidgets.QMessageBox.StandardButton.Cancel, self)
        go = box.addButton("Delete", QtWidgets.QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(QtWidgets.QMessageBox.StandardButton.Cancel)
        if ask(box) is go:
            delete_backup(b.path)
            self.refresh()

    def open_folder(self) -> None:
        QtGui.QDesktopServices.openUrl(QtCore.QUrl.fromLocalFile(str(backup_dir(self.db_file))))
