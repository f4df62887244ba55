"""What an export or an import did (`ExportReport`, `ImportReport`), and import progress
in words for the command line and the app (`ProgressText`)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import formulas as F
from ..words import count, listed


@dataclass
class ExportReport:
    """What `export_store` wrote."""

    path: Path
    fmt: str
    counts: dict[str, int]
    bytes: int
    seconds: float
    deleted_left_out: int = 0  # deleted memories, not written
    replaced_left_out: int = 0  # of them, answers replaced by Regenerate or Edit and resend
    # the chats still there that those were said in (None: not counted, taken as some);
    # 0: the warning that chats are exported whole has nothing to warn of (QA pass 24: it
    # was given for a memory whose chat had been deleted)
    said_in_chats: int | None = None

    def summary(self) -> str:
        """The export for the terminal: "exported to FILE (native, 8 KB): 2 memories, 1 link,
        0 distilled facts, 1 chat, 4 messages, 2 answer timelines" (every kind, zeros too, in
        `_NOUNS`' order), and the deleted
        memories left out."""
        nouns = {**_NOUNS, **_MORE_NOUNS}
        # (in one order whatever the format wrote first: the Markdown summary put links
        # before chats, the native one after answer timelines)
        order = [k for k in nouns if k in self.counts] + [k for k in self.counts if k not in nouns]
        parts = ", ".join(count(int(self.counts[k] or 0), *nouns.get(k, (k, k))) for k in order)
        return (f"exported to {self.path} ({self.fmt}, {_size(self.bytes)}): {parts}"
                + self._left_out("; ", " (--include-deleted keeps them)")
                + self._chats_whole("; ", " (--no-conversations leaves them out)"))

    def _left_out(self, sep: str, how: str = "") -> str:
        """"3 deleted memories left out", and how many of them were not deleted by hand but
        replaced by a new answer (QA pass 20: four "deleted" memories were all answers
        Regenerate had replaced)."""
        n, r = self.deleted_left_out, self.replaced_left_out
        if not n:
            return ""
        which = "" if not r else " (an answer replaced by a new one)" if n == r == 1 else \
            " (all answers replaced by new ones)" if n == r else \
            f" ({r} of them {'an answer' if r == 1 else 'answers'} replaced by " \
            f"{'a new one' if r == 1 else 'new ones'})"
        return f"{sep}{count(n, 'deleted memory', 'deleted memories')}{which} left out{how}"

    def _chats_whole(self, sep: str, how: str = "") -> str:
        """With deleted memories left out, that the chats exported still hold what was
        said in them (docs/privacy.md): the words of a deleted memory can be in a chat."""
        if not (self.deleted_left_out and int(self.counts.get("messages", 0) or 0)
                and self.said_in_chats != 0):
            return ""
        return f"{sep}chats are exported whole, with what was said in them{how}"

    def sentence(self) -> str:
        """The export in words for the app: "Exported 18 memories, 60 links and 2 chats
        (41 KB) to" and FILE on a line of its own (zero counts left out), so that a message
        box breaks it only where it must (it broke after its first "/"); then what was left
        out."""
        what = _counted(self.counts) or "nothing"
        form = " as a readable Markdown document" if self.fmt == "markdown" else ""
        rest = self._left_out("") + self._chats_whole(", but ")
        return (f"Exported {what}{form} ({_size(self.bytes)}){_GLUE}to\n{self.path}"
                + (f"\n\n{rest[0].upper()}{rest[1:]}." if rest else ""))


# "to" and "from" kept with the word before them: a message box that wraps the counts left
# "to" alone on a line above the path (QA pass 35)
_GLUE = "\u00a0"
# record kinds in words (singular, plural), in the order people read them
_NOUNS = {"episodes": ("memory", "memories"), "edges": ("link", "links"),
          "knowledge": ("distilled fact", "distilled facts"),
          "conversations": ("chat", "chats"), "messages": ("message", "messages")}
# kinds a person rarely thinks of, named in the terminal's summaries only
_MORE_NOUNS = {"timelines": ("answer timeline", "answer timelines")}
# a small import's rate is mostly the embedder's loading: shown from this many texts on
RATE_FROM = 20


def _counted(counts: dict[str, int]) -> str:
    """"18 memories, 60 links and 2 chats": the kinds people know, zero counts left out."""
    parts = [f"{n} {_NOUNS[k][n != 1]}" for k in _NOUNS if (n := int(counts.get(k, 0) or 0))]
    return listed(parts)


def _size(n: int) -> str:
    for unit, step in (("bytes", 1), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        if n < step * 1000 or unit == "GB":
            return f"{n} bytes" if unit == "bytes" else f"{n / step:.0f} {unit}"
    return f"{n} bytes"  # pragma: no cover


@dataclass
class ImportReport:
    """What `import_file` did (or, with ``dry_run``, would do), per record kind."""

    path: Path
    kind: str  # "native", "json", "text", or a history source ("chatgpt", "notes", ...)
    added: dict[str, int] = field(default_factory=dict)
    merged: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    embedded: int = 0  # memories (and knowledge items) embedded on import
    bad_vectors: int = 0  # of those, how many brought a vector of the wrong size or length
    dry_run: bool = False
    seconds: float = 0.0
    embed_seconds: float = 0.0  # time spent embedding
    # a conversation export or notes folder: what was read from it (`importers`)
    details: dict = field(default_factory=dict)
    erased: int = 0  # memories in the file the user had deleted for good here: left out
    added_deleted: int = 0  # of the memories added, those the file holds as deleted
    backup: str | None = None  # the backup made just before writing (`backups`), its name
    # a newer export of imported chats: answers regenerated there, memories of user
    # messages it shows on another branch (archived) or on the shown one again (restored)
    answers_updated: int = 0
    off_branch: int = 0
    back_on_branch: int = 0

    @property
    def embed_rate(self) -> float | None:
        """Texts embedded per second (None when nothing was embedded)."""
        if not self.embedded or self.embed_seconds <= 0:
            return None
        return self.embedded / self.embed_seconds

    def summary(self) -> str:
        """The import for the terminal, per kind of record: "imported FILE (native; 2
        embedded): memories: 2 added, 0 merged, 0 already here; links: …"."""
        nouns = {**_NOUNS, **_MORE_NOUNS}
        parts = [
            f"{nouns[k][1]}: {self.added.get(k, 0)} added, {self.merged.get(k, 0)} merged, "
            f"{self.skipped.get(k, 0)} already here"
            for k in nouns if k in self.added
        ]
        head = "would import" if self.dry_run else "imported"
        rate = self.embed_rate if self.embedded >= RATE_FROM else None
        emb = f"{self.embedded} {'to embed' if self.dry_run else 'embedded'}" + (
            f", {rate:.0f} per s" if rate and rate >= 10 else f", {rate:.1f} per s" if rate else "")
        if self.bad_vectors:
            emb += f"; {self.bad_vectors} vectors of the wrong size or length not used"
        out = f"{head} {self.path} ({self.kind}; {emb}): " + "; ".join(parts)
        if self.added_deleted:
            n = self.added_deleted
            out += (f"; {n} of the memories added {'is' if n == 1 else 'are'} deleted, as in "
                    "the file (restorable)")
        if self.erased:
            out += "; " + self._erased()
        if self.branches():
            out += "; " + self.branches().rstrip(".").replace(". ", "; ")
        if self.details:
            from ..importers.base import describe

            out += "; " + describe(self.details)
        return out

    def branches(self) -> str:
        """What a newer export of chats imported before changed, in sentences: "3 answers
        updated (regenerated since the last import)." and the memories archived or
        restored because their chat shows another branch now; "" when nothing."""
        out = []
        if self.answers_updated:
            out.append(f"{count(self.answers_updated, 'answer', 'answers')} updated "
                       "(regenerated since the last import).")
        if self.off_branch:
            n = self.off_branch
            out.append(f"{count(n, 'memory', 'memories')} of messages now on another "
                       f"branch of their chat (edited there) {'was' if n == 1 else 'were'} "
                       "archived (Memories ▸ Archive restores them).")
        if self.back_on_branch:
            n = self.back_on_branch
            out.append(f"{count(n, 'memory', 'memories')} back on the branch its chat shows "
                       f"{'was' if n == 1 else 'were'} restored from the archive.")
        return " ".join(out)

    def _erased(self) -> str:
        n = self.erased
        return f"{count(n, 'memory', 'memories')} you had deleted for good left out"

    def sentence(self) -> str:
        """The import in words for the app: "Imported 12 memories, 11 links and 1 chat from"
        and FILE on a line of its own (as the export's `sentence`), then "3 memories were
        here already." (zero counts left out)."""
        head = "Would import" if self.dry_run else "Imported"
        new = _counted(self.added)
        updated = _counted(self.merged)  # e.g. a chat renamed in a newer export
        # (not "Nothing new in …; it brought 1 link … up to date": QA pass 21 read that as
        # saying two things at once)
        top = f"{head} {new}{_GLUE}from\n{self.path}\n\n" if new else \
            f"Nothing added from\n{self.path}\n\n" if updated else f"Nothing new in\n{self.path}\n\n"
        out = "" if new else f"It brought {updated} already here up to date." if updated \
            else "Everything in it is here already."
        merged = int(self.merged.get("episodes", 0) or 0)
        same = int(self.skipped.get("episodes", 0) or 0)
        if new and merged:
            out += f" {merged} {_NOUNS['episodes'][merged != 1]} already here gained from it."
        if new and same:
            out += f" {same} {_NOUNS['episodes'][same != 1]} {'were' if same != 1 else 'was'} " \
                "here already."
        if self.added_deleted:
            n = self.added_deleted
            out += (f" {count(n, 'memory', 'memories')} of them {'is' if n == 1 else 'are'} "
                    "deleted, as in the file (Memories ▸ Archive restores them).")
        if self.erased:
            was = "was" if self.erased == 1 else "were"
            out += f" {self._erased().replace(' left out', f' {was} left out')}."
        if self.branches():
            out += " " + self.branches()
        if self.details:  # a conversation export or notes: what it held, what was left out
            from ..importers.base import describe

            out += f" {describe(self.details)}."
        if self.backup:
            # (the file on a line of its own: a message box broke it at a hyphen)
            out += (f"\n\nYour memories as they were before it are kept in\nbackups/{self.backup}"
                    "\n\nRestoring that undoes the import (File ▸ Backups…).")
        return (top + out.lstrip()).rstrip()

    def as_dict(self) -> dict:
        """The report as JSON-ready data (`import --json`): the source's own figures first
        (``source``, ``conversations``, ``exchanges``, ``skipped``, ...), then the store's."""
        out: dict[str, Any] = dict(self.details) if self.details else {"source": self.kind}
        out.update(
            file=str(self.path), dry_run=self.dry_run, added=self.added, merged=self.merged,
            already_present=self.skipped, embedded=self.embedded,
            bad_vectors=self.bad_vectors, embed_seconds=round(self.embed_seconds, 3),
            embed_per_s=None if self.embed_rate is None else round(self.embed_rate, 1),
            seconds=round(self.seconds, 3), backup=self.backup,
            answers_updated=self.answers_updated, archived_off_branch=self.off_branch,
            restored_on_branch=self.back_on_branch)
        return out



def _left(seconds: float) -> str:
    """", about 12 min left" (an import of years of history embeds for minutes)."""
    if seconds < 1:
        return ""
    if seconds < 90:
        return f", about {max(5, round(seconds / 5) * 5):.0f} s left"
    if seconds < 5400:
        return f", about {round(seconds / 60):.0f} min left"
    return f", about {seconds / 3600:.1f} h left"


# What each stage of an import costs, in seconds per unit of its progress (reading: a byte
# of the export; checking and writing: a record; embedding: a text; the backup before
# writing: a byte of the memory file), and how much work an export's bytes hold (records
# per byte, texts to embed per record), to foresee the stages after reading.  Measured on
# generated ChatGPT exports (docs/benchmarks.md, "Import progress"); only their
# proportions matter.
STAGE_COST = {"reading": 5e-8, "checking": 1.2e-5, "embedding": 0.025, "backup": 2.5e-9,
              "writing": 5e-5}
RECORDS_PER_BYTE = 2.1e-3
TEXTS_PER_RECORD = 0.25
STAGES = ("reading", "checking", "embedding", "backup", "writing")


class ProgressText:
    """Import progress in words, for the command line and the app: feed it `stage` and
    `progress` (as `import_file` calls them) and read `text`, e.g. ``"embedding: 1200 of
    10000 texts (85 per s, about 2 min left)"``, and `bar` for one bar over the whole
    import.  `backup_bytes`: what the backup made before writing will copy
    (`backups.before_import_bytes`), so that the stages before it leave it its part."""

    def __init__(self, backup_bytes: int = 0) -> None:
        self.name, self.start, self.end, self.t0 = "", 0, 0, time.perf_counter()
        self.text = ""
        self.position = 0.0  # of the whole import's bar, 0..1; never goes back
        self._at = 0.0  # where the stage began on the bar
        self._share: float | None = None  # the stage's part of the bar, once foreseen
        self._units: dict[str, float] = {}  # each stage's work, known or foreseen
        if backup_bytes > 0:
            self._units["backup"] = backup_bytes

    def stage(self, name: str, start: int, end: int) -> None:
        self.name, self.start, self.end, self.t0 = name, start, end, time.perf_counter()
        self._at, self._share = self.position, None
        if name in STAGES and end > start:
            self._units[name] = end - start
            if name == "checking":  # each record is checked, then written
                self._units["writing"] = end - start

    def _foresee(self, name: str, of: int) -> float:
        """The bar's part for stage `name` of `of` units, from the expected cost of it
        and of the stages after it."""
        units = dict(self._units)
        units[name] = of
        if "checking" not in units and name == "reading":
            units["checking"] = units["writing"] = of * RECORDS_PER_BYTE
        if "embedding" not in units and STAGES.index(name) < STAGES.index("embedding"):
            units["embedding"] = units.get("checking", 0) * TEXTS_PER_RECORD
        later = STAGES[STAGES.index(name) + 1:]
        return F.bar_share(self.position, STAGE_COST[name] * of,
                           sum(STAGE_COST[s] * units.get(s, 0) for s in later))

    def span(self, done: int, total: int) -> tuple[int, int]:
        """(done, of) within the current stage, as its words count it ("checking: 40 %")."""
        if self.name != "reading" and self.end > self.start:
            of = self.end - self.start
            return max(0, min(done - self.start, of)), of
        return done, total

    def bar(self) -> tuple[int, int]:
        """(value, maximum) of one bar that goes once from empty to full over the whole
        import, each stage taking the part of it its expected time takes (embedding the
        most): a bar per stage ran to full while reading, then started over, three times.
        It never goes back, however the foreseen work changes."""
        return round(1000 * self.position), 1000

    def _advance(self, done: int, total: int) -> None:
        d, of = self.span(done, total)
        if of <= 0 or self.name not in STAGES:
            return
        if self._share is None:
            self._share = self._foresee(self.name, of)
        self.position = min(1.0, max(self.position, self._at + self._share * min(d / of, 1.0)))

    def progress(self, done: int, total: int) -> str:
        self._advance(done, total)
        if self.name == "reading":
            self.text = f"reading: {done / 2**20:.1f} of {total / 2**20:.1f} MB"
        elif self.name == "embedding":
            n, of = done - self.start, self.end - self.start
            dt = time.perf_counter() - self.t0
            rate = f" ({n / dt:.0f} per s{_left((of - n) * dt / n)})" if dt > 0 and n > 0 \
                else ""
            self.text = f"embedding: {n} of {of} texts{rate}"
        else:
            d, of = self.span(done, total)  # of this stage, as the window's bar shows it
            what = "backing up your memories" if self.name == "backup" else self.name or "working"
            self.text = f"{what}: {100 * d / of if of else 0:.0f} %"
        return self.text
