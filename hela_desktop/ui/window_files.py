"""File jobs of the main window: export and import memories (with a progress dialog and
Cancel), export the open chat as Markdown."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtWidgets

from ..words import sentence
from . import plain
from .window_base import WindowBase


def _has_memfile() -> bool:
    try:
        from .. import memfile  # noqa: F401
    except ImportError:
        return False
    return True


LAST_FOLDER_KEY = "files/last_folder"  # the folder of the last file exported or imported


def start_in(name: str = "") -> str:
    """Where a file dialog opens: the folder of the last file exported or imported (a
    memory file exported a moment ago is where its import looks), else the home folder;
    `name`: a file name to suggest there."""
    kept = str(QtCore.QSettings().value(LAST_FOLDER_KEY, "") or "")
    folder = Path(kept) if kept and Path(kept).is_dir() else Path.home()
    return str(folder / name) if name else str(folder)


def remember_folder(path: str) -> None:
    """Keep the folder of `path` (a folder itself, or a file's) for the next dialog."""
    p = Path(path)
    QtCore.QSettings().setValue(LAST_FOLDER_KEY, str(p if p.is_dir() else p.parent))


class FileJobs(QtCore.QObject):
    """File ▸ Export / Import memories, Import folder, Export chat, for one window.

    A QObject living on the GUI thread, so the worker's progress signals reach its slots
    queued (never on the worker thread)."""

    def __init__(self, window: WindowBase):
        super().__init__(window)
        self.w = window
        self.progress: QtWidgets.QProgressDialog | None = None
        self.cancelling = False  # Cancel pressed; the job has not ended yet

    def export_memories(self) -> None:
        if not _has_memfile():
            self.w.message("information", "Export", "Export is not available in this version.")
            return
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self.w, "Export memories", start_in("memories.hela"),
            "HeLa memory file (*.hela);;Markdown (*.md)")
        if path and not self.busy():
            remember_folder(path)
            self.start_progress("Exporting memories…")
            self.w.run_op("export", path)

    def import_memories(self) -> None:
        if not _has_memfile():
            self.w.message("information", "Import", "Import is not available in this version.")
            return
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self.w, "Import memories", start_in(),
            "Memories and conversation exports (*.hela *.json *.jsonl *.zip *.txt *.md);;"
            "All files (*)")
        if path:
            remember_folder(path)
            self.start_import(path)

    def import_folder(self) -> None:
        path = QtWidgets.QFileDialog.getExistingDirectory(
            self.w, "Import a notes folder or Jan threads", start_in())
        if path:
            remember_folder(path)
            self.start_import(path)

    def start_import(self, path: str) -> None:
        """Import a file or folder on the assistant's thread, with progress and Cancel."""
        client = self.w.client
        if client is None or self.busy():
            return
        client.worker.import_cancel.clear()
        self.start_progress("Importing memories…\nIt starts once the answer being written "
                            "ends." if self.w.is_streaming() else "Importing memories…",
                            cancel=client.worker.import_cancel.set)
        self.w.run_op("import", path)

    def busy(self) -> bool:
        """A file job is still running (say so): a second one would share its Cancel."""
        if self.progress is None:
            return False
        self.w.statusBar().showMessage("Wait for the running import or export to end.", 6000)
        return True

    def start_progress(self, label: str, cancel=None) -> None:
        # (no Cancel button without a cancel action: Qt takes None as "none")
        p = QtWidgets.QProgressDialog(label, "Cancel" if cancel else None, 0, 0, self.w)  # type: ignore[arg-type]
        plain.labels(*p.findChildren(QtWidgets.QLabel))  # its notes name files and chats
        p.setAutoClose(False)
        p.setAutoReset(False)
        if cancel is not None:
            p.canceled.connect(cancel)
            p.canceled.connect(self._cancelling)
        p.setWindowTitle("HeLa Desktop")
        p.setMinimumDuration(0)
        p.setWindowModality(QtCore.Qt.WindowModality.WindowModal)
        p.show()
        self.progress = p
        self.w.statusBar().clearMessage()  # "Import cancelled…" is about the job before

    @QtCore.Slot()
    def _cancelling(self) -> None:
        """Cancel pressed: the job stops at its next step (seconds, mid-batch), so the
        dialog stays, saying so, until it has (it hid at once, as if nothing ran)."""
        p = self.progress
        if p is None:
            return
        self.cancelling = True
        for b in p.findChildren(QtWidgets.QPushButton):
            b.hide()  # nothing more to press
        p.setRange(0, 0)
        p.setLabelText("Cancelling the import…")
        p.show()

    @QtCore.Slot(str, int, int)
    def on_progress(self, _name: str, done: int, total: int) -> None:
        if self.progress is not None and not self.cancelling:
            self.progress.setMaximum(max(total, 0))
            self.progress.setValue(min(done, total) if total else 0)

    @QtCore.Slot(str, str)
    def on_progress_note(self, _name: str, text: str) -> None:
        if self.progress is not None and text and not self.cancelling:
            self.progress.setLabelText(f"Importing memories…\n{text}")

    def failed(self, name: str, msg: str) -> None:
        """An import or export that ended without doing it: say what and that nothing
        changed, naming the file (the message starts with its whole path)."""
        self.finish_progress()
        if name == "import" and msg == "cancelled":
            self.w.statusBar().showMessage("Import cancelled; nothing was changed.")
            self.w.last_message = ("Import cancelled", msg)
            return
        path, sep, why = msg.partition(": ")
        named = bool(sep) and Path(path).is_absolute()  # (the file dialogs give whole paths)
        file, why = (Path(path).name, why) if named else ("", msg)
        for where in ("file: ", "folder: "):  # the reader's word for a whole-file problem
            why = why.removeprefix(where)
        if name == "import":
            self.w.message("warning", "Import failed",
                           f"Could not import{' ' + file if file else ''}: {sentence(why)}\n\n"
                           "Nothing was imported; your memories are as they were.")
        else:
            self.w.message("warning", "Export failed",
                           f"Could not export{' to ' + file if file else ''}: {sentence(why)}")

    def finish_progress(self) -> None:
        self.cancelling = False
        p, self.progress = self.progress, None
        if p is not None:
            # closing a progress dialog emits `canceled`: that set the worker's cancel flag
            # and left this window "cancelling", so the next import showed no stage words
            p.blockSignals(True)
            p.close()

    def export_chat(self) -> None:
        s = self.w.session
        if s.current_conv is None:
            self.w.message("information", "Export chat", "Open a chat first.")
            return
        name = "".join(ch if ch.isalnum() or ch in " -_" else "_"
                       for ch in (s.title or "chat")[:60])  # titles run to 200 characters
        name = name.strip(" _")  # "…a beagle." -> "…a beagle", not "…a beagle_"
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self.w, "Export chat as Markdown", start_in(f"{name.strip() or 'chat'}.md"),
            "Markdown (*.md)")
        if path:
            remember_folder(path)
            self.export_chat_to(path)

    def export_chat_to(self, path: str | Path) -> Path:
        """Write the open chat (as the window holds it) to `path` as Markdown."""
        from ..chat_export import write_markdown

        s = self.w.session
        out = write_markdown(s.title, s.messages, path)
        self.w.statusBar().showMessage(f"Chat exported to {out}", 6000)
        return out
