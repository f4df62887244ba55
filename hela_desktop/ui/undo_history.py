"""The window's one undo history: deletions that can be taken back, in the order they
happened (Qt-free, so it is tested alone).

A memory deleted in the Memories tab, knowledge deleted in the Knowledge tab and the
memories a request in the chat forgot ("Forget that my cat is called Miso", done by the
app, `forget_request`) are each one step.  Edit ▸ Undo and Ctrl+Z take back the latest
step, whichever it was, and the menu names it; the strips under the Memories and
Knowledge tables take back the latest step of their own kind, and say which.  A memory
restored or deleted for good in the Archive tab leaves the steps that held it (a step left
with nothing to bring back goes).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..prompt import shorten

MEMORY, KNOWLEDGE = "memory", "knowledge"


@dataclass(frozen=True)
class Step:
    """One deletion that Undo can take back: `ids` of one `kind` (memories or knowledge)."""

    kind: str
    ids: tuple[int, ...]
    request: str = ""  # the chat's "Forget …" message, when the chat did it
    chat: int | None = None  # the chat it was said in
    what: str = ""  # the forgotten memory's words, when it was one (QA pass 30: the strip
    # quoted the request, "Forgot #3 (“Forget that I have a cat.”)", as if it were forgotten)
    # memories the step made, which Undo deletes: what a forgotten memory said of other
    # things, kept as a memory of its own (`forget_request.keep_rest`)
    added: tuple[int, ...] = ()

    def _named(self, chars: int) -> str:
        """The memories forgotten, by number and, for one, in its words."""
        one = len(self.ids) == 1 and self.what.strip()
        return _ids(self.ids) + (f" “{shorten(' '.join(self.what.split()), chars)}”" if one else "")

    def done(self) -> str:
        """What happened, for the strip: "Memory #3 deleted." / "Forgot #1 “I have a cat…”,
        as asked in the chat."."""
        if self.request:
            return f"Forgot {self._named(60)}, as asked in the chat."
        return f"{'Knowledge' if self.kind == KNOWLEDGE else 'Memory'} {_ids(self.ids)} deleted."

    def undone(self) -> str:
        """What Undo did, for the chat (its answer to "Forget …" still says the memories
        were deleted: this says they are back)."""
        what = f"{'Knowledge' if self.kind == KNOWLEDGE else 'Memory'} {_ids(self.ids)}"
        if self.request:
            kept = (f" {_ids(self.added)}, which kept the rest, "
                    f"{'is' if len(self.added) == 1 else 'are'} deleted." if self.added else "")
            return forget_undone(self.request, self.ids) + kept
        return f"{what} brought back."

    def undo_text(self) -> str:
        """What Undo will do, for the menu: "Undo delete memory #3" / "Undo forget #3 “…”"."""
        if self.request:
            return f"Undo forget {self._named(40)}"
        return f"Undo delete {self.kind} {_ids(self.ids)}"


def forget_undone(request: str, ids) -> str:
    """The line under the answer to a request to forget whose memories `ids` are back:
    "Undone: “Forget that my gym is PureFit.” #2, #25 are back and recalled again."."""
    said = shorten(request, 60)
    end = "" if said.endswith((".", "!", "?", "…")) else "."  # not "PureFit.”."
    return (f"Undone: “{said}”{end} {_ids(tuple(ids))} "
            f"{'is' if len(ids) == 1 else 'are'} back and recalled again.")


def _ids(ids: tuple[int, ...]) -> str:
    return ", ".join(f"#{i}" for i in ids)


class UndoHistory:
    """The steps, oldest first."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def push(self, kind: str, ids, request: str = "", chat: int | None = None,
             what: str = "", added=()) -> Step | None:
        ids = tuple(int(i) for i in ids)
        if not ids:
            return None
        step = Step(kind, ids, request, chat, what, tuple(int(i) for i in added))
        self.steps.append(step)
        return step

    def last(self, kind: str | None = None) -> Step | None:
        """The latest step (of `kind`, if given)."""
        for step in reversed(self.steps):
            if kind is None or step.kind == kind:
                return step
        return None

    def pop(self, kind: str | None = None) -> Step | None:
        """Take the latest step (of `kind`) off the history and return it."""
        step = self.last(kind)
        if step is not None:
            self.steps.remove(step)
        return step

    def drop(self, kind: str, ids) -> None:
        """These were brought back or erased some other way: Undo no longer offers them."""
        gone = {int(i) for i in ids}
        kept = []
        for s in self.steps:
            if s.kind == kind:
                s = Step(s.kind, tuple(i for i in s.ids if i not in gone), s.request, s.chat,
                         s.what, s.added)
            if s.ids:
                kept.append(s)
        self.steps = kept

    def ids(self, kind: str) -> list[int]:
        """Every id of `kind` Undo could bring back, most recent last."""
        return [i for s in self.steps if s.kind == kind for i in s.ids]

    def clear(self) -> None:
        self.steps.clear()
