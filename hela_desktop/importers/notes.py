"""A folder of Markdown notes (an Obsidian vault, or any tree of ``.md`` files).

Every note is cut into sections at its headings (outside fenced code); each section with
text becomes one memory — ``user_text`` is the section, prefixed with the note's title and
the heading — dated from the note's front matter (``date``, ``created``, ``created_at``,
``creation date``; else ``updated`` / ``modified``; else the file's modification time).
Consecutive sections of a note are joined by the temporal prior, and every wiki link
``[[Note]]``, ``[[Note#Heading]]`` or ``[[Note|alias]]`` becomes a prior edge from the
section that holds it to the section it names (the note's first section without a heading).
Folders whose names start with a dot (``.obsidian``, ``.trash``) are left out, and so are
files that are not UTF-8 text.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from ..memfile.format import Limits, _Bad
from .base import HistorySource, Progress, epoch
from .hela_markdown import kind_of

SUFFIXES = (".md", ".markdown")
MAX_FILES = 200_000
_HEADING = re.compile(r" {0,3}(#{1,6})\s+(.*?)\s*#*\s*\Z")
_FENCE = re.compile(r" {0,3}(```|~~~)")
_LINK = re.compile(r"(!?)\[\[([^\[\]\n]{1,300})\]\]")
_DATE_KEYS = ("date", "created", "created_at", "creation date", "date created")
_UPDATED_KEYS = ("updated", "modified", "updated_at", "last modified", "date modified")


def find_notes(folder: Path) -> list[Path]:
    out: list[Path] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in sorted(files):
            if f.lower().endswith(SUFFIXES) and not f.startswith("."):
                out.append(Path(root) / f)
                if len(out) > MAX_FILES:
                    raise _Bad(f"more than {MAX_FILES} notes", "folder")
    return out


def front_matter(lines: list[str]) -> tuple[dict[str, str], int]:
    """Simple ``key: value`` front matter between ``---`` fences (YAML lists of scalars,
    ``- a`` lines or ``[a, b]``, joined with commas); returns (fields in lower case, lines
    it took)."""
    if not lines or lines[0].strip() != "---":
        return {}, 0
    out: dict[str, str] = {}
    key = None
    for i in range(1, min(len(lines), 500)):
        line = lines[i]
        if line.strip() in ("---", "..."):
            return out, i + 1
        m = re.match(r"([A-Za-z][\w -]{0,40}):\s*(.*)\Z", line)
        if m:
            key = m.group(1).strip().lower()
            value = m.group(2).strip()
            if value.startswith("[") and value.endswith("]"):  # tags: [family, lisbon]
                value = ", ".join(v.strip().strip("\"'") for v in value[1:-1].split(","))
            out[key] = value.strip().strip("\"'")
        elif key and re.match(r"\s+-\s+", line):
            item = line.strip()[1:].strip().strip("\"'")
            out[key] = f"{out[key]}, {item}" if out[key] else item
    return {}, 0  # not closed: not front matter


@dataclass
class _Section:
    heading: str
    lines: list[str] = field(default_factory=list)
    start: int = 0
    uid: str | None = None
    level: int = 0  # 1 for "#", 6 for "######"; 0 before the first heading


class NotesSource(HistorySource):
    kind = "notes"

    def __init__(self, path: Path, limits: Limits, files: list[Path]):
        super().__init__(path, limits, path.name)
        self.files = files
        self.edges: dict[tuple[str, str], tuple[float, float]] = {}  # one edge per pair

    def _join(self, a: str, b: str, prior: float, at: float) -> None:
        if a != b and prior > 0:
            pair = (min(a, b), max(a, b))
            self.edges[pair] = (max(prior, self.edges.get(pair, (0.0, 0.0))[0]), at)

    def emit(self, progress: Progress | None) -> None:
        sizes = []
        for f in self.files:
            try:
                sizes.append(f.stat().st_size)
            except OSError:
                sizes.append(0)
        total = sum(sizes)
        if total > self.limits.max_plain_bytes:
            raise _Bad(f"notes too large ({total} bytes, limit {self.limits.max_plain_bytes})",
                       "folder")
        notes: dict[str, list[_Section]] = {}  # note key -> sections with memories
        names: dict[str, str] = {}  # lower-case name, alias or path -> note key
        pending: list[tuple[str, str, str, float]] = []  # (from uid, target, heading, at)
        done = 0
        n_notes = 0
        for f, size in zip(self.files, sizes):
            rel = f.relative_to(self.path).as_posix()
            parsed = self._note(f, rel, size)
            done += size
            if progress is not None:
                progress(done, total)
            if parsed is None:
                continue
            n_notes += 1
            key = rel.lower()
            secs, aliases, links, at = parsed
            notes[key] = secs
            stem = rel.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
            for name in (stem, key.rsplit(".", 1)[0], *aliases):
                names.setdefault(name, key)  # sorted walk: the shallowest path wins ties
            pending.extend(links)
        # links, once every note is known
        n_links = 0
        for a, target, heading, at in pending:
            found = names.get(target.lower().removesuffix(".md"))
            if found is None:
                self.skip("link to a note not in the folder")
                continue
            secs = notes[found]
            # kept sections all have a uid (set when their memory was added)
            b = cast(str, next((s.uid for s in secs if heading and s.heading.lower()
                                == heading.lower()), None) or secs[0].uid)
            if a != b:
                n_links += 1
                self._join(a, b, self.prior, at)
        for (a, b), (prior, at) in self.edges.items():
            self.add_edge(a, b, prior, at)
        self.extra = {"notes": n_notes, "links": n_links}

    def _text(self, f: Path, size: int) -> str | None:
        """A note file's text; None (counted) when it is too large, unreadable, binary or
        not UTF-8."""
        if size > self.limits.max_text_chars * 4:
            self.skip("note too large")
            return None
        try:
            raw = f.read_bytes()
        except OSError:
            self.skip("unreadable file")
            return None
        if b"\x00" in raw:
            self.skip("binary file")
            return None
        try:
            return raw.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            self.skip("file not in UTF-8")
            return None

    def _when(self, fm: dict, f: Path) -> float:
        """A note's time: its front matter's date (or updated date), else the file's."""
        at = next((t for k in _DATE_KEYS if (t := epoch(fm.get(k))) is not None), None) or \
            next((t for k in _UPDATED_KEYS if (t := epoch(fm.get(k))) is not None), None)
        if at is None:
            try:
                at = f.stat().st_mtime
            except OSError:
                at = self.fallback_time
        return at

    def _note(self, f: Path, rel: str, size: int):
        text = self._text(f, size)
        if text is None:
            return None
        if kind_of(text[:4096]) is not None:  # its answers would become the user's words
            self.skip("HeLa Desktop export")
            return None
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        fm, skip_lines = front_matter(lines)
        at = self._when(fm, f)
        title = fm.get("title") or rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        aliases = [a.strip().lower() for a in fm.get("aliases", fm.get("alias", "")).split(",")
                   if a.strip()]
        tags = [t.strip().lstrip("#") for t in fm.get("tags", "").split(",") if t.strip()]
        sections = _sections(lines, skip_lines)
        kept: list[_Section] = []
        links: list[tuple[str, str, str, float]] = []
        prev = None
        for i, s in enumerate(sections):
            body = "\n".join(s.lines).strip()
            if not body:
                # a heading over deeper ones ("# Monday" then "## Log") holds them: nothing
                # is left out; one with nothing under it is counted
                if s.heading and not _parent(s, sections[i + 1:i + 2]):
                    self.skip("empty section")
                continue
            # a note's own title as its first heading (Obsidian's habit) is said once
            same = s.heading.casefold() == title.strip().casefold() if s.heading else True
            head = title if same else f"{title} › {s.heading}"
            content = self.text(f"{head}\n\n{body}")
            uid = self.uid("section", rel, s.heading, body)
            meta: dict[str, Any] = {"source": "notes", "file": rel, "note": title,
                                    "section": s.heading or None, "line": s.start}
            if tags:
                meta["tags"] = tags
            if not self.add_memory(uid, content, "", at, meta):
                continue
            s.uid = uid
            kept.append(s)
            if prev is not None:
                self._join(prev, uid, self.prior, at)
            prev = uid
            for m in _LINK.finditer(body):
                if m.group(1):  # ![[embed]]: a picture or a transcluded note, not a link
                    continue
                target = m.group(2).split("|", 1)[0]
                target, _, heading = target.partition("#")
                if target.strip():
                    links.append((uid, target.strip(), heading.strip(), at))
        if not kept:
            self.skip("note without text")
            return None
        return kept, aliases, links, at


def _sections(lines: list[str], skip_lines: int) -> list[_Section]:
    """A note's lines (after `skip_lines` of front matter) cut at its headings; a heading
    inside a fenced code block does not count."""
    sections = [_Section(heading="", start=skip_lines + 1)]
    fence = None
    for i in range(skip_lines, len(lines)):
        line = lines[i]
        fm_match = _FENCE.match(line)
        if fm_match:
            fence = None if fence == fm_match.group(1) else (fence or fm_match.group(1))
        h = None if fence else _HEADING.match(line)
        if h:
            sections.append(_Section(heading=h.group(2).strip(), start=i + 1,
                                     level=len(h.group(1))))
        else:
            sections[-1].lines.append(line)
    return sections


def _parent(s: _Section, after: list[_Section]) -> bool:
    """`s` is the heading of the section after it (a deeper heading follows)."""
    return bool(after) and after[0].level > s.level
