"""The Memories tab's Edit dialog: the two sides of a memory, saved and re-embedded."""

from __future__ import annotations

from PySide6 import QtWidgets

from ..store import answered_by
from . import text_dialog
from .theme import muted, warning_color

# HeLa's own answer beside a memory is kept for the user, never shown to a model again (an
# invented reply to "I'm allergic to shellfish." looked like part of the memory, QA pass 31)
OWN_ANSWER = (" Only your words are recalled: HeLa's answer is kept here for you to read, "
              "and a recalled memory never shows it to the model.")


class EditMemoryDialog(QtWidgets.QDialog):
    """Edit the two sides of a memory; saving re-embeds it."""

    def __init__(self, episode, parent=None):
        super().__init__(parent)
        self.setWindowTitle(f"Edit memory #{episode.id}")
        self.resize(560, 380)
        lay = QtWidgets.QFormLayout(self)
        self.user = QtWidgets.QPlainTextEdit(episode.user_text)
        self.assistant = QtWidgets.QPlainTextEdit(episode.assistant_text)
        lay.addRow("You said:", self.user)
        lay.addRow(f"{answered_by(episode.source)} answered:", self.assistant)
        note = QtWidgets.QLabel("Saving (Ctrl+Enter) re-embeds the memory, so recall follows "
                                "your edit." + OWN_ANSWER * (getattr(episode, "author", None) is None))
        note.setWordWrap(True)
        muted(note)
        lay.addRow(note)
        self.problem = QtWidgets.QLabel("")  # why Save did nothing (shown only then)
        self.problem.setStyleSheet(f"color: {warning_color().name()}")
        self.problem.setWordWrap(True)
        self.problem.hide()
        lay.addRow(self.problem)
        bb = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Save
                                        | QtWidgets.QDialogButtonBox.StandardButton.Cancel)
        bb.accepted.connect(self.accept)
        bb.rejected.connect(self.reject)
        lay.addRow(bb)
        text_dialog.keyboard_finishes(self)  # (Ctrl+Enter saves; Tab goes on)

    def values(self) -> tuple[str, str]:
        return self.user.toPlainText().strip(), self.assistant.toPlainText().strip()

    def accept(self) -> None:
        """Save, unless "You said" is empty: a memory is recalled by what you said, so one
        without it could never come back (delete it instead)."""
        if not self.user.toPlainText().strip():
            self.problem.setText("“You said” cannot be empty: a memory is recalled by what "
                                 "you said. Delete the memory instead.")
            self.problem.show()
            self.user.setFocus()
            return
        super().accept()
