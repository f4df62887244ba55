"""Export: a store, or a selection of it, to a ``.hela`` archive (`docs/memory-file-format.md`)
or a human-readable Markdown document.  The rows come from `hela_desktop.store.transfer`
inside one read snapshot; the file appears atomically.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import math
import os
import time
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from .. import __version__
from .. import edges as G
from ..config import HelaParams
from ..paths import create_private_file
from ..prompt import shorten
from ..store import REPLACED, Store, episode_text
from ..store import transfer as tx
from .format import (
    _UID_RE,
    FORMAT_NAME,
    FORMAT_VERSION,
    MANIFEST,
    Progress,
    _b64,
    _jdump,
    _json_col,
    stats_to_file,
)
from .report import ExportReport
from .streams import _BackgroundWriter


def _as_ts(v: float | _dt.datetime | None) -> float | None:
    if v is None:
        return None
    if isinstance(v, _dt.datetime):
        return v.timestamp()
    return float(v)


@dataclass
class Selection:
    """What to export; the empty selection means everything (criteria combine with AND).

    ``conversation``: a conversation id (its memories; the conversation itself is exported
    even without any).  ``since``/``until``: a half-open range ``[since, until)`` on the
    memories' ``created_at`` (Unix seconds or aware/naive datetimes, naive = local time).
    ``search``: an FTS search as the memory browser runs it (``store.list_episodes(search=)``:
    archived memories are not matched, deleted ones only for an export that includes
    them).  ``episode_ids``: explicit ids.
    """

    conversation: int | None = None
    since: float | _dt.datetime | None = None
    until: float | _dt.datetime | None = None
    search: str | None = None
    episode_ids: Sequence[int] | None = None

    def is_all(self) -> bool:
        return (
            self.conversation is None
            and self.since is None
            and self.until is None
            and not (self.search and self.search.strip())
            and self.episode_ids is None
        )

    def describe(self) -> dict | None:
        if self.is_all():
            return None
        out: dict[str, Any] = {}
        if self.conversation is not None:
            out["conversation_id"] = int(self.conversation)
        if self.since is not None:
            out["since"] = _as_ts(self.since)
        if self.until is not None:
            out["until"] = _as_ts(self.until)
        if self.search and self.search.strip():
            out["search"] = self.search
        if self.episode_ids is not None:
            out["episode_ids"] = len(self.episode_ids)
        return out



def _selected_ids(store: Store, sel: Selection, include_deleted: bool) -> list[int]:
    ids = tx.episode_ids_where(store.conn, conversation=sel.conversation,
                               since=_as_ts(sel.since), until=_as_ts(sel.until),
                               deleted=include_deleted)
    if sel.search and sel.search.strip():
        ids &= {e.id for e in store.list_episodes(search=sel.search, limit=-1,
                                                  include_deleted=include_deleted)}
    if sel.episode_ids is not None:
        ids &= {int(i) for i in sel.episode_ids}
    return sorted(ids)


def _prepare_selection(store: Store, sel: Selection, include_conversations: bool,
                       include_deleted: bool) -> tuple[bool, list[int]]:
    """Fill the selection's temp tables (`tx.fill_selection`) unless every row goes.

    Returns (full, left_out): whether every row goes (no temp tables), and the deleted
    memories the selection would have held but leaves out."""
    tx.drop_selection(store.conn)
    if sel.is_all():
        left_out = [] if include_deleted else store.deleted_ids()
        if not left_out:
            return True, []
        tx.fill_selection(store.conn, _selected_ids(store, sel, False),
                          include_conversations=include_conversations, conversation=None,
                          everything=True)
        return False, left_out
    ids = _selected_ids(store, sel, True)  # one search; the deleted ones then left out
    gone = [] if include_deleted else store.deleted_ids(ids)
    tx.fill_selection(store.conn, sorted(set(ids) - set(gone)),
                      include_conversations=include_conversations,
                      conversation=sel.conversation)
    return False, gone


def _store_embedder(store: Store) -> str | None:
    return store.get_meta("embedder") or tx.most_used_embedder(store.conn)


def export_store(
    store: Store,
    path: str | os.PathLike,
    *,
    fmt: str = "native",
    selection: Selection | None = None,
    include_embeddings: bool = True,
    include_conversations: bool = True,
    progress: Progress | None = None,
    compresslevel: int = 1,
    hela: HelaParams | None = None,
    include_deleted: bool = False,
) -> ExportReport:
    """Write the store (or a selection of it) to `path`; the file appears atomically.

    ``fmt="native"``: the ``.hela`` archive of ``docs/memory-file-format.md``.
    ``fmt="markdown"``: a human-readable Markdown document (not meant for re-import).
    Edges are exported only between exported memories; conversations are those the
    exported memories belong to (all of them for a full export).  ``progress(done, total)``
    is called as records are written.  `hela` (default: `HelaParams()`): the Hebbian decay
    and cap the Markdown export reads link weights with, as the app does.
    `include_deleted`: also the memories the user deleted (left out by default, with the
    links to them and the knowledge drawn only from them; the report counts them).
    """
    t0 = time.perf_counter()
    if fmt not in ("native", "markdown"):
        raise ValueError(f"unknown export format {fmt!r} (native or markdown)")
    sel = selection or Selection()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tx.read_snapshot(store.conn):  # one consistent snapshot for every member
        try:
            create_private_file(tmp)  # an export holds conversations: owner-only (0600)
            full, left_out = _prepare_selection(store, sel, include_conversations,
                                                include_deleted)
            try:
                if fmt == "native":
                    counts = _NativeExport(store, sel, full, include_embeddings,
                                           include_conversations, progress).write(
                                               tmp, compresslevel)
                else:
                    counts = _export_markdown(store, tmp, sel, full, include_conversations,
                                              progress, hela or HelaParams())
            finally:
                tx.drop_selection(store.conn)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
    os.replace(tmp, path)
    replaced = sum(why == REPLACED for why in store.archive_reasons(left_out).values())
    # those whose words a chat exported may still hold: said in a chat that still exists
    chats = {e.conversation_id for e in store.episodes(left_out).values()
             if e.conversation_id is not None}
    said = sum(store.conversation_uid(c) is not None for c in chats) if include_conversations else 0
    return ExportReport(path, fmt, counts, path.stat().st_size, time.perf_counter() - t0,
                        deleted_left_out=len(left_out), replaced_left_out=replaced,
                        said_in_chats=said)


# ====================================================================== .hela =========
class _Lines:
    """Buffered JSON-lines writer into an open zip member."""

    def __init__(self, fh: _BackgroundWriter):
        self.fh = fh
        self.buf: list[str] = []
        self.count = 0

    def write(self, obj: dict) -> None:
        self.buf.append(_jdump(obj))
        self.count += 1
        if len(self.buf) >= 512:
            self.flush()

    def write_raw(self, line: str) -> None:
        self.buf.append(line)
        self.count += 1
        if len(self.buf) >= 512:
            self.flush()

    def flush(self) -> None:
        if self.buf:
            self.fh.write(("\n".join(self.buf) + "\n").encode("utf-8"))
            self.buf.clear()


@contextlib.contextmanager
def _member(zf: zipfile.ZipFile, name: str) -> Iterator[_Lines]:
    """A JSON-lines member being written (streamed, compressed in a helper thread)."""
    with zf.open(name, "w", force_zip64=True) as fh:
        writer = _BackgroundWriter(fh)
        out = _Lines(writer)
        try:
            yield out
            out.flush()
        finally:
            writer.close()


def _unit(v: float) -> float:
    """A weight, prior or importance as a memory file holds it: from 0 to 1 (an import
    refuses any other; a store written before that check may hold one)."""
    return v if 0.0 <= v <= 1.0 else min(1.0, max(0.0, v))


def _edge_line(r: tuple) -> str:
    """One edges.jsonl line; a fast path for the common all-plain row."""
    a, b, w, p, c, st, u = r
    w, p = _unit(w), _unit(p)
    if (type(w) is float and type(p) is float and type(u) is float and type(c) is int
            and type(st) is int and math.isfinite(w) and math.isfinite(p) and math.isfinite(u)
            and _UID_RE.match(a) and _UID_RE.match(b)):
        return (f'{{"a":"{a}","b":"{b}","weight":{w!r},"prior":{p!r},"count":{c},'
                f'"step":{st},"updated_at":{u!r}}}')
    return _jdump({"a": a, "b": b, "weight": w, "prior": p, "count": c, "step": st,
                   "updated_at": u})


class _NativeExport:
    """One ``.hela`` archive being written: one method per member, in `MEMBER_ORDER`'s
    spirit (episodes first, so later members can name them by uid)."""

    def __init__(self, store: Store, sel: Selection, full: bool, include_embeddings: bool,
                 include_conversations: bool, progress: Progress | None) -> None:
        self.store = store
        self.conn = store.conn
        self.sel = sel
        self.full = full
        self.embeddings = include_embeddings
        self.conversations_too = include_conversations
        self.progress = progress
        self.total = tx.export_total(self.conn, self.full, include_conversations)
        self.done = 0
        self.dim: int | None = None  # of the first vector written
        self.counts: dict[str, int] = {}
        self.id2uid: dict[int, str] = {}

    def tick(self) -> None:
        self.done += 1
        if self.progress is not None and (self.done % 1000 == 0):
            self.progress(self.done, max(self.total, self.done))

    def _vector(self, blob: bytes | None) -> str | None:
        if self.dim is None and blob is not None:
            self.dim = len(blob) // 4
        return _b64(blob)

    def write(self, tmp: Path, compresslevel: int) -> dict[str, int]:
        file_embedder = _store_embedder(self.store) if self.embeddings else None
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED,
                             compresslevel=compresslevel) as zf:
            members = [("episodes.jsonl", self.episodes)]
            if self.conversations_too:
                members += [("conversations.jsonl", self.conversations),
                            ("messages.jsonl", self.messages),
                            ("timelines.jsonl", self.timelines)]
            members += [("edges.jsonl", self.edges), ("knowledge.jsonl", self.knowledge)]
            for name, write in members:
                with _member(zf, name) as out:
                    write(out)
                    out.flush()
                    self.counts[name] = out.count
            zf.writestr(MANIFEST, json.dumps(self.manifest(file_embedder), indent=2,
                                             ensure_ascii=False))
        if self.progress is not None:
            self.progress(self.done, max(self.total, self.done))
        return {k.removesuffix(".jsonl"): v for k, v in self.counts.items()}

    def manifest(self, file_embedder: str | None) -> dict:
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "app_version": __version__,
            "created_at": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "embedder": file_embedder,
            "dim": self.dim,
            "hebbian_step": self.store.hebbian_step(),
            "selection": self.sel.describe(),
            "counts": self.counts,
        }

    def episodes(self, out: _Lines) -> None:
        emb, convs = self.embeddings, self.conversations_too
        for r in tx.episode_rows(self.conn, self.full):
            self.id2uid[r[0]] = r[1]
            rec = {
                "uid": r[1],
                "number": r[0],
                "conversation": r[2] if convs else None,
                "user_text": r[3], "assistant_text": r[4], "created_at": r[5],
                "embedder": r[6],
            }
            if emb:
                rec["embedding"] = self._vector(r[7])
            rec.update(
                access_count=r[8], last_access=r[9], importance=_unit(r[10]), pinned=bool(r[11]),
                archived_at=r[12], archive_reason=r[13], deleted_at=r[14],
            )
            if emb:
                rec["query_centroid"] = _b64(r[15])
            rec.update(query_count=r[16], last_recall=_json_col(r[17]), source=r[18],
                       meta=_json_col(r[19]))
            out.write(rec)
            self.tick()

    def conversations(self, out: _Lines) -> None:
        for r in tx.conversation_rows(self.conn, self.full):
            out.write({"uid": r[0], "title": r[1], "created_at": r[2], "updated_at": r[3]})
            self.tick()

    def messages(self, out: _Lines) -> None:
        id2uid = self.id2uid
        for r in tx.message_rows(self.conn, self.full):
            out.write({
                "uid": r[0], "conversation": r[1], "role": r[2], "content": r[3],
                "created_at": r[4], "interrupted": bool(r[5]),
                "episode": id2uid.get(r[6]) if r[6] is not None else None,
                "stats": stats_to_file(_json_col(r[7]), id2uid),
            })
            self.tick()

    def timelines(self, out: _Lines) -> None:
        id2uid = self.id2uid
        for r in tx.timeline_rows(self.conn, self.full):
            ids = _json_col(r[3])
            eps = [id2uid[i] for i in ids if type(i) is int and i in id2uid] \
                if isinstance(ids, list) else []
            out.write({"message": r[0], "start": r[1], "end": r[2], "episodes": eps})
            self.tick()

    def edges(self, out: _Lines) -> None:
        for r in tx.edge_rows(self.conn, self.full):
            out.write_raw(_edge_line(r))
            self.tick()

    def knowledge(self, out: _Lines) -> None:
        kids = tx.knowledge_ids(self.conn, self.full)
        kset = set(kids)
        for chunk_start in range(0, len(kids), 500):
            chunk = kids[chunk_start:chunk_start + 500]
            sources: dict[int, list[str]] = {}
            for kid, eid in tx.knowledge_source_pairs(self.conn, chunk):
                if eid in self.id2uid:
                    sources.setdefault(kid, []).append(self.id2uid[eid])
            for r in tx.knowledge_rows(self.conn, chunk):
                rec = {"uid": r[1], "kind": r[2], "text": r[3], "embedder": r[4]}
                if self.embeddings:
                    rec["embedding"] = self._vector(r[5])
                rec.update(
                    created_at=r[6], updated_at=r[7], strength=max(0.0, r[8]),
                    superseded_by=r[10] if (r[9] in kset) else None,
                    archived_at=r[11], access_count=r[12], last_access=r[13],
                    sources=sources.get(r[0], []),
                )
                out.write(rec)
                self.tick()


# =================================================================== Markdown =========
def _fmt_time(ts: float | None) -> str:
    if ts is None:
        return "never"
    try:
        return _dt.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")
    except (OverflowError, OSError, ValueError):
        return str(ts)


def _md_quote(text: str) -> str:
    return "\n".join(("> " + line) if line else ">" for line in text.splitlines()) or ">"


def _md_flags(r: tuple) -> list[str]:
    """The words after a memory's date: importance, recalls, pinned, archived, ..."""
    flags = [f"recalled {r[6]}×"]
    if r[4]:  # set by an import (emotional intensity); a chat's memories have none
        flags.insert(0, f"importance {r[4]:.2f}")
    if r[6]:
        flags.append(f"last {_fmt_time(r[7])}")
    if r[5]:
        flags.append("pinned")
    if r[8] is not None:
        flags.append(f"archived ({r[9] or 'no reason'})")
    if r[10] is not None:
        flags.append("deleted")
    if r[11] != "chat":
        flags.append(f"from {r[11]}")
    return flags


def _md_memories(out: TextIO, conn: Any, full: bool, tick: Any) -> dict[int, str]:
    """The memories section; returns each memory's label by id: its number and the user's
    words on one line, cut at a word near 80 characters (the answer is context, not the
    memory)."""
    out.write("\n## Memories\n")
    id2text: dict[int, str] = {}
    for r in tx.episode_summaries(conn, full):
        out.write(f"\n### #{r[0]} · {_fmt_time(r[3])} · {' · '.join(_md_flags(r))}\n\n")
        out.write(f"**User:**\n\n{_md_quote(r[1])}\n\n")
        if r[2]:
            out.write(f"**Assistant:**\n\n{_md_quote(r[2])}\n")
        id2text[r[0]] = f"#{r[0]} “{shorten(r[1] or episode_text(r[1], r[2]), 80)}”"
        tick()
    return id2text


def _md_edges(out: TextIO, store: Store, full: bool, id2text: dict[int, str],
              hela: HelaParams) -> int:
    """The strongest links as they are now: by effective weight, each split into its prior
    and its learned part decayed to the store's Hebbian step (as spreading reads them)."""
    step, lam, cap = store.hebbian_step(), hela.lam, hela.weight_cap
    rows = tx.strongest_edges(store.conn, full, 200,
                              lambda w, p, at: G.effective_weight(w, p, at, step, lam, cap))
    n = tx.count_selected_edges(store.conn, full)
    if rows:
        out.write(f"\n## Strongest associations (top {len(rows)} of {n})\n\n")
        weights, learned_parts = G.edge_parts([(0, 0, w, p, 0, at) for _, _, w, p, _, at in rows],
                                              step, lam, cap)
        for (a, b, _, p, c, _), weight, learned in zip(rows, weights, learned_parts, strict=True):
            times = "co-activation" if c == 1 else "co-activations"
            out.write(f"- {id2text.get(a, f'#{a}')} ↔ {id2text.get(b, f'#{b}')} (weight "
                      f"{weight:.3f}: learned {learned:.3f}, prior {p:.3f}, {c} {times})\n")
    return n


def _md_knowledge(out: TextIO, conn: Any, full: bool) -> int:
    krows = tx.knowledge_summaries(conn, full)
    if krows:
        out.write("\n## Knowledge\n\n")
    for kind, text, strength, archived, superseded in krows:
        extra = (", archived" if archived is not None else "") + (
            ", superseded: no longer current" if superseded is not None else "")
        out.write(f"- **{kind}** (strength {strength:.2f}{extra}): "
                  f"{text.replace(chr(10), ' ')}\n")
    return len(krows)


def _md_conversations(out: TextIO, conn: Any, full: bool) -> tuple[int, int]:
    """The conversations section; returns (conversations, messages) written."""
    convs = tx.conversation_summaries(conn, full)
    if convs:
        out.write("\n## Conversations\n")
    n_msg = 0
    for cid, title, created in convs:
        out.write(f"\n### {title} ({_fmt_time(created)})\n\n")
        for role, content, at, interrupted in tx.conversation_messages(conn, cid):
            mark = " *(interrupted)*" if interrupted else ""
            out.write(f"**{role.capitalize()}** ({_fmt_time(at)}){mark}:\n\n"
                      f"{_md_quote(content)}\n\n")
            n_msg += 1
    return len(convs), n_msg


def _export_markdown(store: Store, tmp: Path, sel: Selection, full: bool,
                     include_conversations: bool, progress: Progress | None,
                     hela: HelaParams) -> dict[str, int]:
    conn = store.conn
    total = tx.export_total(conn, full, include_conversations)
    counts = {"episodes": 0, "edges": 0, "knowledge": 0, "conversations": 0, "messages": 0}

    def tick() -> None:
        counts["episodes"] += 1
        if progress is not None and counts["episodes"] % 1000 == 0:
            progress(counts["episodes"], max(total, counts["episodes"]))

    with open(tmp, "w", encoding="utf-8", newline="\n") as out:
        now = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
        out.write(f"# HeLa Desktop memories\n\nExported {now} by HeLa Desktop {__version__}.\n")
        if not sel.is_all():
            out.write(f"Selection: {json.dumps(sel.describe(), ensure_ascii=False)}\n")
        id2text = _md_memories(out, conn, full, tick)
        counts["edges"] = _md_edges(out, store, full, id2text, hela)
        counts["knowledge"] = _md_knowledge(out, conn, full)
        if include_conversations:
            counts["conversations"], counts["messages"] = _md_conversations(out, conn, full)
    done = counts["episodes"]
    if progress is not None:
        progress(max(total, done), max(total, done))
    return counts
