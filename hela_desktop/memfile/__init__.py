"""Memory files: export a store to a portable file and import it back, losing nothing.

The native format (``.hela``, specified in ``docs/memory-file-format.md``) is a zip archive
with a ``manifest.json`` and one JSON-lines member per table; records reference each other
by stable ``uid`` strings, never by the store's numeric ids, so importing the same file twice
adds nothing the second time.  The importer also reads a plain JSON list of memories (the
streaming-memory layout) and plain text / Markdown (one memory per paragraph).

Import is all-or-nothing: the whole file is validated first (format version, schema, types,
sizes, references, archive safety); memories that need embeddings are embedded in a batch;
then everything is written in one transaction.  Any problem with the file raises one
`MemoryFileError` and leaves the store exactly as it was.

Public API: `export_store`, `import_file`, `Selection`, `ExportReport`, `ImportReport`,
`MemoryFileError`, `Limits`, `add_cli`.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import contextlib
import datetime as _dt
import hashlib
import json
import math
import os
import queue
import re
import sqlite3
import sys
import threading
import time
import zipfile
import zlib
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from . import __version__
from .paths import DEFAULT_EMBEDDER_NAME, create_private_file
from .store import Store, StoreError, episode_text, key_text

FORMAT_NAME = "hela-memory"
# 2: an episode's embedding is of the user's words alone (1: of the whole exchange; such
# vectors are re-made on import)
FORMAT_VERSION = 2
MANIFEST = "manifest.json"
# Members in the order they are validated and applied (references only point backwards,
# except knowledge.superseded_by, which may point anywhere inside knowledge.jsonl).
MEMBER_ORDER = (
    "conversations.jsonl",
    "episodes.jsonl",
    "messages.jsonl",
    "timelines.jsonl",
    "edges.jsonl",
    "knowledge.jsonl",
)
REQUIRED_MEMBERS = ("episodes.jsonl", "edges.jsonl", "knowledge.jsonl")
CONVERSATION_MEMBERS = ("conversations.jsonl", "messages.jsonl", "timelines.jsonl")
PLAIN_SOURCE = "import"  # `source` of memories imported from plain JSON / text
_CHUNK = 4 * 2**20  # read size for archive members and plain JSON

Progress = Callable[[int, int], None]


class MemoryFileError(ValueError):
    """A memory file was refused: ``str(err)`` is ``"<path>: <where>: <what>"``.

    ``path`` is the file, ``where`` the place inside it (``"archive"``, ``"manifest.json"``,
    ``"episodes.jsonl line 12, field 'created_at'"``, ...), ``what`` the problem.  Nothing
    was written to the store when this is raised by `import_file`.
    """

    def __init__(self, path: str | os.PathLike, where: str, what: str):
        self.path = str(path)
        self.where = where
        self.what = what
        super().__init__(f"{self.path}: {where}: {what}")

    def __reduce__(self):  # keep it picklable despite the 3-argument constructor
        return (MemoryFileError, (self.path, self.where, self.what))


@dataclass(frozen=True)
class Limits:
    """Size limits the reader enforces (defaults fit a store of a few million memories)."""

    max_total_bytes: int = 16 * 2**30  # total uncompressed size of an archive
    max_ratio: float = 200.0  # uncompressed/compressed, per member ...
    ratio_floor: int = 2**20  # ... checked only for members larger than this
    max_line_bytes: int = 16 * 2**20  # one JSON line
    max_manifest_bytes: int = 2**20
    max_text_chars: int = 2_000_000  # one text field
    max_vector_dim: int = 16384
    max_list_len: int = 100_000  # uid lists (knowledge sources, timeline spans)
    max_plain_bytes: int = 2**30  # plain JSON / text files
    max_members: int = 16


DEFAULT_LIMITS = Limits()
DEFAULT_EMBEDDER_DIM = 384  # all-MiniLM-L6-v2


@dataclass
class Selection:
    """What to export; the empty selection means everything (criteria combine with AND).

    ``conversation``: a conversation id (its memories; the conversation itself is exported
    even without any).  ``since``/``until``: a half-open range ``[since, until)`` on the
    memories' ``created_at`` (Unix seconds or aware/naive datetimes, naive = local time).
    ``search``: an FTS search as the memory browser runs it (``store.list_episodes(search=)``:
    archived and deleted memories are not matched).  ``episode_ids``: explicit ids.
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


@dataclass
class ExportReport:
    """What `export_store` wrote."""

    path: Path
    fmt: str
    counts: dict[str, int]
    bytes: int
    seconds: float

    def summary(self) -> str:
        parts = ", ".join(f"{v} {k}" for k, v in self.counts.items())
        return f"exported to {self.path} ({self.fmt}, {self.bytes} bytes): {parts}"


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

    @property
    def embed_rate(self) -> float | None:
        """Texts embedded per second (None when nothing was embedded)."""
        if not self.embedded or self.embed_seconds <= 0:
            return None
        return self.embedded / self.embed_seconds

    def summary(self) -> str:
        kinds = [k for k in ("episodes", "edges", "knowledge", "conversations", "messages",
                             "timelines") if k in self.added]
        parts = [
            f"{k}: {self.added.get(k, 0)} added, {self.merged.get(k, 0)} merged, "
            f"{self.skipped.get(k, 0)} skipped"
            for k in kinds
        ]
        head = "would import" if self.dry_run else "imported"
        rate = self.embed_rate
        emb = f"{self.embedded} embedded" + (f", {rate:.0f} per s" if rate else "")
        if self.bad_vectors:
            emb += f"; {self.bad_vectors} vectors of the wrong size or length not used"
        out = f"{head} {self.path} ({self.kind}; {emb}): " + "; ".join(parts)
        if self.details:
            from .importers import describe

            out += "; " + describe(self.details)
        return out

    def as_dict(self) -> dict:
        """The report as JSON-ready data (`import --json`): the source's own figures first
        (``source``, ``conversations``, ``exchanges``, ``skipped``, ...), then the store's."""
        out: dict[str, Any] = dict(self.details) if self.details else {"source": self.kind}
        out.update(
            file=str(self.path), dry_run=self.dry_run, added=self.added, merged=self.merged,
            already_present=self.skipped, embedded=self.embedded,
            bad_vectors=self.bad_vectors, embed_seconds=round(self.embed_seconds, 3),
            embed_per_s=None if self.embed_rate is None else round(self.embed_rate, 1),
            seconds=round(self.seconds, 3))
        return out


# ======================================================================= helpers ======
class _Bad(Exception):
    """Internal: a problem with the file; converted to MemoryFileError(path, where, what)."""

    def __init__(self, what: str, where: str = ""):
        super().__init__(what)
        self.what = what
        self.where = where


def _as_ts(v: float | _dt.datetime | None) -> float | None:
    if v is None:
        return None
    if isinstance(v, _dt.datetime):
        return v.timestamp()
    return float(v)


def _tn(v: Any) -> str:
    if v is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(v), type(v).__name__)


_UID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}\Z")
_INT_MAX = 2**63 - 1


def _reject_constant(name: str):
    raise ValueError(f"{name} is not allowed")


def _loads(raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Bad(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        return _DECODER.decode(text)
    except RecursionError:
        raise _Bad("JSON nested too deeply") from None
    except ValueError as exc:
        raise _Bad(f"not valid JSON ({exc})") from None


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _b64(blob: bytes | None) -> str | None:
    return None if blob is None else base64.b64encode(blob).decode("ascii")


def _jdump(obj: Any) -> str:
    return _ENCODER.encode(obj)


def _json_col(text: str | None) -> Any:
    """A JSON column of the store, as a JSON value for the file (unparsable text as is)."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


# ------------------------------------------------------------- field checkers -----------
def _c_uid(v: Any) -> str:
    if type(v) is not str:
        raise _Bad(f"expected a uid string, got {_tn(v)}")
    if not _UID_RE.match(v):
        raise _Bad(f"not a valid uid: {v[:40]!r}")
    return v


def _c_ref(v: Any) -> str:
    """A reference to a uid: a short string (resolving it is the real check)."""
    if type(v) is not str:
        raise _Bad(f"expected a uid string, got {_tn(v)}")
    if len(v) > 128:
        raise _Bad(f"not a valid uid: {v[:40]!r}")
    return v


def _c_float(v: Any) -> float:
    t = type(v)
    if t is float:
        if math.isfinite(v):
            return v
        raise _Bad("not a finite number")
    if t is int:
        if abs(v) > 1e300:
            raise _Bad("number out of range")
        return float(v)
    raise _Bad(f"expected a number, got {_tn(v)}")


# times are Unix seconds that every date function can show: years 1 to 9999 (a day inside
# each end, so local-time conversion never overflows)
TIME_MIN = -62135596800.0 + 2 * 86400
TIME_MAX = 253402300799.0 - 2 * 86400


def _c_time(v: Any) -> float:
    v = _c_float(v)
    if not TIME_MIN <= v <= TIME_MAX:
        raise _Bad("time out of range (Unix seconds within the years 1 to 9999)")
    return v


def _c_int(v: Any) -> int:
    if type(v) is not int:
        raise _Bad(f"expected an integer, got {_tn(v)}")
    if not -_INT_MAX <= v <= _INT_MAX:
        raise _Bad("integer out of range")
    return v


_STEP_MAX = 2**53


def _c_step(v: Any) -> int:
    """A Hebbian step: an integer within ±2**53 (so rebasing never overflows)."""
    v = _c_int(v)
    if not -_STEP_MAX <= v <= _STEP_MAX:
        raise _Bad("step out of range (±2**53)")
    return v


def _c_count(v: Any) -> int:
    v = _c_int(v)
    if v < 0:
        raise _Bad("must not be negative")
    return v


def _c_bool(v: Any) -> int:
    if type(v) is not bool:
        raise _Bad(f"expected true or false, got {_tn(v)}")
    return int(v)


def _make_str(limits: Limits) -> Callable[[Any], str]:
    cap = limits.max_text_chars

    def check(v: Any) -> str:
        if type(v) is not str:
            raise _Bad(f"expected a string, got {_tn(v)}")
        if len(v) > cap:
            raise _Bad(f"text too long ({len(v)} characters, limit {cap})")
        if not v.isascii():
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                raise _Bad("invalid Unicode (lone surrogate)") from None
        return v

    return check


def _make_vec(limits: Limits) -> Callable[[Any], bytes]:
    cap = limits.max_vector_dim

    def check(v: Any) -> bytes:
        if type(v) is not str:
            raise _Bad(f"expected base64 float32 data, got {_tn(v)}")
        if len(v) > (cap * 4 * 4) // 3 + 4:
            raise _Bad(f"vector too long (limit {cap} dimensions)")
        try:
            blob = binascii.a2b_base64(v)
        except (binascii.Error, ValueError):
            raise _Bad("not valid base64") from None
        # the lenient decoder skips stray characters: the length tells if there were any
        if len(v) % 4 or len(blob) != len(v) // 4 * 3 - v[-2:].count("="):
            raise _Bad("not valid base64")
        if len(blob) % 4:
            raise _Bad("vector byte length is not a multiple of 4 (float32)")
        if blob and not np.isfinite(np.frombuffer(blob, dtype=np.float32)).all():
            raise _Bad("vector contains NaN or infinity")
        return blob

    return check


def _obj_text(v: Any) -> str:
    """How a JSON column (meta, last_recall, stats) is stored."""
    return json.dumps(v, ensure_ascii=False, allow_nan=False)


def _make_obj() -> Callable[[Any], str]:
    """A JSON column's value: normally an object, but any JSON value is carried as is."""

    def check(v: Any) -> str:
        try:
            return _obj_text(v)
        except (ValueError, RecursionError, TypeError):
            raise _Bad("JSON value cannot be stored (nested too deeply)") from None

    return check


def _make_uids(limits: Limits) -> Callable[[Any], list[str]]:
    def check(v: Any) -> list[str]:
        if type(v) is not list:
            raise _Bad(f"expected a list of uids, got {_tn(v)}")
        if len(v) > limits.max_list_len:
            raise _Bad(f"list too long ({len(v)} items)")
        return [_c_ref(x) for x in v]

    return check


def _enum(*allowed: str) -> Callable[[Any], str]:
    def check(v: Any) -> str:
        if v not in allowed or type(v) is not str:
            raise _Bad(f"must be one of {', '.join(allowed)}, got {str(v)[:40]!r}")
        return v

    return check


def _opt(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def opt(v: Any) -> Any:
        return None if v is None else check(v)

    return opt


REQ, OPT = True, False


def _schemas(limits: Limits) -> dict[str, list[tuple[str, Callable[[Any], Any], bool]]]:
    s = _make_str(limits)
    vec = _make_vec(limits)
    obj = _make_obj()
    uids = _make_uids(limits)
    f, n, b, u, r, t = _c_float, _c_count, _c_bool, _c_uid, _c_ref, _c_time
    return {
        "conversations.jsonl": [
            ("uid", u, REQ), ("title", s, REQ), ("created_at", t, REQ), ("updated_at", t, REQ),
        ],
        "episodes.jsonl": [
            ("uid", u, REQ), ("conversation", _opt(r), REQ), ("user_text", s, REQ),
            ("assistant_text", s, REQ), ("created_at", t, REQ), ("embedder", _opt(s), REQ),
            ("embedding", _opt(vec), OPT), ("access_count", n, REQ),
            ("last_access", _opt(t), REQ), ("importance", f, REQ), ("pinned", b, REQ),
            ("archived_at", _opt(t), REQ), ("archive_reason", _opt(s), REQ),
            ("deleted_at", _opt(t), REQ), ("query_centroid", _opt(vec), OPT),
            ("query_count", n, REQ), ("last_recall", _opt(obj), REQ), ("source", s, REQ),
            ("meta", _opt(obj), REQ),
        ],
        "messages.jsonl": [
            ("uid", u, REQ), ("conversation", r, REQ),
            ("role", _enum("user", "assistant"), REQ), ("content", s, REQ),
            ("created_at", t, REQ), ("interrupted", b, REQ), ("episode", _opt(r), REQ),
            ("stats", _opt(obj), REQ),
        ],
        "timelines.jsonl": [
            ("message", r, REQ), ("start", _c_int, REQ), ("end", _c_int, REQ),
            ("episodes", uids, REQ),
        ],
        "edges.jsonl": [
            ("a", r, REQ), ("b", r, REQ), ("weight", f, REQ), ("prior", f, REQ),
            ("count", n, REQ), ("step", _c_step, REQ), ("updated_at", t, REQ),
        ],
        "knowledge.jsonl": [
            ("uid", u, REQ), ("kind", _enum("user_model", "fact", "persona"), REQ),
            ("text", s, REQ), ("embedder", _opt(s), REQ), ("embedding", _opt(vec), OPT),
            ("created_at", t, REQ), ("updated_at", t, REQ), ("strength", f, REQ),
            ("superseded_by", _opt(r), REQ), ("archived_at", _opt(t), REQ),
            ("access_count", n, REQ), ("last_access", _opt(t), REQ), ("sources", uids, REQ),
        ],
    }


def _parse_record(schema, obj: Any, where: str) -> dict[str, Any]:
    if type(obj) is not dict:
        raise _Bad(f"expected a JSON object, got {_tn(obj)}", where)
    out: dict[str, Any] = {}
    for key, check, required in schema:
        if key in obj:
            try:
                out[key] = check(obj[key])
            except _Bad as bad:
                raise _Bad(bad.what, f"{where}, field '{key}'") from None
        elif required:
            raise _Bad(f"missing field '{key}'", where)
    if len(out) != len(obj):
        extra = sorted(k for k in obj if k not in out)
        raise _Bad(f"unknown field {extra[0][:40]!r}", where)
    return out


# ===================================================================== export ==========
_EP_SELECT = (
    "SELECT e.id, e.uid, c.uid, e.user_text, e.assistant_text, e.created_at, e.embedder, "
    "e.embedding, e.access_count, e.last_access, e.importance, e.pinned, e.archived_at, "
    "e.archive_reason, e.deleted_at, e.query_centroid, e.query_count, e.last_recall, "
    "e.source, e.meta FROM episodes e LEFT JOIN conversations c ON c.id = e.conversation_id"
)


def _selected_ids(store: Store, sel: Selection) -> list[int]:
    where, args = [], []
    if sel.conversation is not None:
        where.append("conversation_id = ?")
        args.append(int(sel.conversation))
    if sel.since is not None:
        where.append("created_at >= ?")
        args.append(_as_ts(sel.since))
    if sel.until is not None:
        where.append("created_at < ?")
        args.append(_as_ts(sel.until))
    sql = "SELECT id FROM episodes" + (f" WHERE {' AND '.join(where)}" if where else "")
    ids = {r[0] for r in store.conn.execute(sql, args)}
    if sel.search and sel.search.strip():
        ids &= {e.id for e in store.list_episodes(search=sel.search, limit=-1)}
    if sel.episode_ids is not None:
        ids &= {int(i) for i in sel.episode_ids}
    return sorted(ids)


class _BackgroundWriter:
    """Writes to a file object from a helper thread (zlib's deflate releases the GIL, so
    compressing overlaps with encoding the next records)."""

    def __init__(self, fh, depth: int = 4):
        self.fh = fh
        self.q: queue.Queue = queue.Queue(maxsize=depth)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="memfile-writer", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            data = self.q.get()
            if data is None:
                return
            if self.error is None:
                try:
                    self.fh.write(data)
                except BaseException as exc:  # noqa: BLE001 - re-raised by write/close
                    self.error = exc

    def write(self, data: bytes) -> None:
        if self.error is not None:
            raise self.error
        self.q.put(data)

    def close(self) -> None:
        self.q.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error


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


class _Lines:
    """Buffered JSON-lines writer into an open zip member."""

    def __init__(self, fh):
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


def _edge_line(r: tuple) -> str:
    """One edges.jsonl line; a fast path for the common all-plain row."""
    a, b, w, p, c, st, u = r
    if (type(w) is float and type(p) is float and type(u) is float and type(c) is int
            and type(st) is int and math.isfinite(w) and math.isfinite(p) and math.isfinite(u)
            and _UID_RE.match(a) and _UID_RE.match(b)):
        return (f'{{"a":"{a}","b":"{b}","weight":{w!r},"prior":{p!r},"count":{c},'
                f'"step":{st},"updated_at":{u!r}}}')
    return _jdump({"a": a, "b": b, "weight": w, "prior": p, "count": c, "step": st,
                   "updated_at": u})


def _store_embedder(store: Store) -> str | None:
    name = store.get_meta("embedder")
    if name:
        return name
    row = store.conn.execute(
        "SELECT embedder FROM episodes WHERE embedder IS NOT NULL GROUP BY embedder "
        "ORDER BY COUNT(*) DESC LIMIT 1"
    ).fetchone()
    return row[0] if row else None


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
) -> ExportReport:
    """Write the store (or a selection of it) to `path`; the file appears atomically.

    ``fmt="native"``: the ``.hela`` archive of ``docs/memory-file-format.md``.
    ``fmt="markdown"``: a human-readable Markdown document (not meant for re-import).
    Edges are exported only between exported memories; conversations are those the
    exported memories belong to (all of them for a full export).  ``progress(done, total)``
    is called as records are written.
    """
    t0 = time.perf_counter()
    if fmt not in ("native", "markdown"):
        raise ValueError(f"unknown export format {fmt!r} (native or markdown)")
    sel = selection or Selection()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    conn = store.conn
    own_tx = not conn.in_transaction
    if own_tx:
        conn.execute("BEGIN")  # one consistent snapshot for every member
    try:
        create_private_file(tmp)  # an export holds conversations: owner-only (0600)
        _prepare_selection(store, sel, include_conversations)
        try:
            if fmt == "native":
                counts = _export_native(store, tmp, sel, include_embeddings,
                                        include_conversations, progress, compresslevel)
            else:
                counts = _export_markdown(store, tmp, sel, include_conversations, progress)
        finally:
            conn.execute("DROP TABLE IF EXISTS temp._mf_sel")
            conn.execute("DROP TABLE IF EXISTS temp._mf_conv")
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    finally:
        if own_tx:
            conn.execute("COMMIT")
    os.replace(tmp, path)
    return ExportReport(path, fmt, counts, path.stat().st_size, time.perf_counter() - t0)


def _prepare_selection(store: Store, sel: Selection, include_conversations: bool) -> None:
    """Fill temp tables _mf_sel (episode ids) and _mf_conv (conversation ids) for a selection."""
    conn = store.conn
    conn.execute("DROP TABLE IF EXISTS temp._mf_sel")
    conn.execute("DROP TABLE IF EXISTS temp._mf_conv")
    if sel.is_all():
        return
    conn.execute("CREATE TEMP TABLE _mf_sel (id INTEGER PRIMARY KEY)")
    conn.execute("CREATE TEMP TABLE _mf_conv (id INTEGER PRIMARY KEY)")
    conn.executemany("INSERT INTO _mf_sel(id) VALUES (?)",
                     ((i,) for i in _selected_ids(store, sel)))
    if include_conversations:
        conn.execute(
            "INSERT OR IGNORE INTO _mf_conv(id) SELECT DISTINCT e.conversation_id FROM episodes e "
            "JOIN _mf_sel s ON s.id = e.id WHERE e.conversation_id IS NOT NULL"
        )
        if sel.conversation is not None:
            conn.execute("INSERT OR IGNORE INTO _mf_conv(id) SELECT id FROM conversations "
                         "WHERE id = ?", (int(sel.conversation),))


def _counts_for(store: Store, full: bool, include_conversations: bool) -> int:
    """Roughly how many records an export writes (for progress reports)."""
    q = store.conn.execute
    if not full:
        return q("SELECT COUNT(*) FROM _mf_sel").fetchone()[0]
    n = q("SELECT (SELECT COUNT(*) FROM episodes) + (SELECT COUNT(*) FROM edges) + "
          "(SELECT COUNT(*) FROM knowledge)").fetchone()[0]
    if include_conversations:
        n += q("SELECT (SELECT COUNT(*) FROM conversations) + (SELECT COUNT(*) FROM messages)"
               " + (SELECT COUNT(*) FROM timelines)").fetchone()[0]
    return n


def _export_native(store, tmp, sel, include_embeddings, include_conversations, progress,
                   compresslevel) -> dict[str, int]:
    conn = store.conn
    full = sel.is_all()
    total = _counts_for(store, full, include_conversations)
    done = 0
    file_embedder = _store_embedder(store) if include_embeddings else None
    dim: int | None = None
    counts: dict[str, int] = {}

    def tick(n: int = 1) -> None:
        nonlocal done
        done += n
        if progress is not None and (done % 1000 == 0):
            progress(done, max(total, done))

    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED,
                         compresslevel=compresslevel) as zf:
        # ---- episodes -----------------------------------------------------------------
        id2uid: dict[int, str] = {}
        sql = _EP_SELECT + ("" if full else " JOIN _mf_sel s ON s.id = e.id") + " ORDER BY e.id"
        with _member(zf, "episodes.jsonl") as out:
            for r in conn.execute(sql):
                id2uid[r[0]] = r[1]
                rec = {
                    "uid": r[1],
                    "conversation": r[2] if include_conversations else None,
                    "user_text": r[3], "assistant_text": r[4], "created_at": r[5],
                    "embedder": r[6],
                }
                if include_embeddings:
                    rec["embedding"] = _b64(r[7])
                    if dim is None and r[7] is not None:
                        dim = len(r[7]) // 4
                rec.update(
                    access_count=r[8], last_access=r[9], importance=r[10], pinned=bool(r[11]),
                    archived_at=r[12], archive_reason=r[13], deleted_at=r[14],
                )
                if include_embeddings:
                    rec["query_centroid"] = _b64(r[15])
                rec.update(query_count=r[16], last_recall=_json_col(r[17]), source=r[18],
                           meta=_json_col(r[19]))
                out.write(rec)
                tick()
            out.flush()
            counts["episodes.jsonl"] = out.count

        # ---- conversations, messages, timelines ----------------------------------------
        if include_conversations:
            cjoin = "" if full else " JOIN _mf_conv s ON s.id = c.id"
            with _member(zf, "conversations.jsonl") as out:
                for r in conn.execute("SELECT c.uid, c.title, c.created_at, c.updated_at FROM "
                                      f"conversations c{cjoin} ORDER BY c.id"):
                    out.write({"uid": r[0], "title": r[1], "created_at": r[2],
                               "updated_at": r[3]})
                    tick()
                out.flush()
                counts["conversations.jsonl"] = out.count
            mjoin = "" if full else " JOIN _mf_conv s ON s.id = m.conversation_id"
            with _member(zf, "messages.jsonl") as out:
                for r in conn.execute(
                    "SELECT m.uid, c.uid, m.role, m.content, m.created_at, m.interrupted, "
                    "m.episode_id, m.stats FROM messages m JOIN conversations c "
                    f"ON c.id = m.conversation_id{mjoin} ORDER BY m.id"
                ):
                    out.write({
                        "uid": r[0], "conversation": r[1], "role": r[2], "content": r[3],
                        "created_at": r[4], "interrupted": bool(r[5]),
                        "episode": id2uid.get(r[6]) if r[6] is not None else None,
                        "stats": _json_col(r[7]),
                    })
                    tick()
                out.flush()
                counts["messages.jsonl"] = out.count
            with _member(zf, "timelines.jsonl") as out:
                for r in conn.execute(
                    'SELECT m.uid, t.start, t."end", t.episode_ids FROM timelines t '
                    f"JOIN messages m ON m.id = t.message_id{mjoin} ORDER BY t.message_id, t.start"
                ):
                    ids = _json_col(r[3])
                    eps = [id2uid[i] for i in ids if type(i) is int and i in id2uid] \
                        if isinstance(ids, list) else []
                    out.write({"message": r[0], "start": r[1], "end": r[2], "episodes": eps})
                    tick()
                out.flush()
                counts["timelines.jsonl"] = out.count

        # ---- edges ----------------------------------------------------------------------
        ejoin = "" if full else (" JOIN _mf_sel s1 ON s1.id = g.src"
                                 " JOIN _mf_sel s2 ON s2.id = g.dst")
        with _member(zf, "edges.jsonl") as out:
            for r in conn.execute(
                "SELECT a.uid, b.uid, g.weight, g.prior, g.count, g.step, g.updated_at "
                f"FROM edges g{ejoin} JOIN episodes a ON a.id = g.src "
                "JOIN episodes b ON b.id = g.dst ORDER BY g.src, g.dst"
            ):
                out.write_raw(_edge_line(r))
                tick()
            out.flush()
            counts["edges.jsonl"] = out.count

        # ---- knowledge ------------------------------------------------------------------
        with _member(zf, "knowledge.jsonl") as out:
            if full:
                ksql = "SELECT k.id FROM knowledge k ORDER BY k.id"
            else:
                ksql = ("SELECT DISTINCT ks.knowledge_id FROM knowledge_sources ks "
                        "JOIN _mf_sel s ON s.id = ks.episode_id ORDER BY ks.knowledge_id")
            kids = [r[0] for r in conn.execute(ksql)]
            kset = set(kids)
            for chunk_start in range(0, len(kids), 500):
                chunk = kids[chunk_start:chunk_start + 500]
                q = ",".join("?" * len(chunk))
                sources: dict[int, list[str]] = {}
                for kid, eid in conn.execute(
                    f"SELECT knowledge_id, episode_id FROM knowledge_sources WHERE knowledge_id "
                    f"IN ({q}) ORDER BY knowledge_id, episode_id", chunk
                ):
                    if eid in id2uid:
                        sources.setdefault(kid, []).append(id2uid[eid])
                for r in conn.execute(
                    "SELECT k.id, k.uid, k.kind, k.text, k.embedder, k.embedding, k.created_at, "
                    "k.updated_at, k.strength, k.superseded_by, s.uid, k.archived_at, "
                    "k.access_count, k.last_access FROM knowledge k LEFT JOIN knowledge s ON "
                    f"s.id = k.superseded_by WHERE k.id IN ({q}) ORDER BY k.id", chunk
                ):
                    rec = {"uid": r[1], "kind": r[2], "text": r[3], "embedder": r[4]}
                    if include_embeddings:
                        rec["embedding"] = _b64(r[5])
                        if dim is None and r[5] is not None:
                            dim = len(r[5]) // 4
                    rec.update(
                        created_at=r[6], updated_at=r[7], strength=r[8],
                        superseded_by=r[10] if (r[9] in kset) else None,
                        archived_at=r[11], access_count=r[12], last_access=r[13],
                        sources=sources.get(r[0], []),
                    )
                    out.write(rec)
                    tick()
            out.flush()
            counts["knowledge.jsonl"] = out.count

        manifest = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "app_version": __version__,
            "created_at": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "embedder": file_embedder,
            "dim": dim,
            "hebbian_step": store.hebbian_step(),
            "selection": sel.describe(),
            "counts": counts,
        }
        zf.writestr(MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False))
    if progress is not None:
        progress(done, max(total, done))
    return {k.removesuffix(".jsonl"): v for k, v in counts.items()}


def _fmt_time(ts: float | None) -> str:
    if ts is None:
        return "never"
    try:
        return _dt.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")
    except (OverflowError, OSError, ValueError):
        return str(ts)


def _md_quote(text: str) -> str:
    return "\n".join(("> " + line) if line else ">" for line in text.splitlines()) or ">"


def _export_markdown(store, tmp, sel, include_conversations, progress) -> dict[str, int]:
    conn = store.conn
    full = sel.is_all()
    total = _counts_for(store, full, include_conversations)
    counts = {"episodes": 0, "edges": 0, "knowledge": 0, "conversations": 0, "messages": 0}
    done = 0
    ejoin = "" if full else " JOIN _mf_sel s ON s.id = e.id"
    with open(tmp, "w", encoding="utf-8", newline="\n") as out:
        now = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
        out.write(f"# HeLa Desktop memories\n\nExported {now} by HeLa Desktop {__version__}.\n")
        if not full:
            out.write(f"Selection: {json.dumps(sel.describe(), ensure_ascii=False)}\n")
        out.write("\n## Memories\n")
        id2text: dict[int, str] = {}
        for r in conn.execute(
            "SELECT e.id, e.user_text, e.assistant_text, e.created_at, e.importance, e.pinned, "
            "e.access_count, e.last_access, e.archived_at, e.archive_reason, e.deleted_at, "
            f"e.source FROM episodes e{ejoin} ORDER BY e.created_at, e.id"
        ):
            flags = [f"importance {r[4]:.2f}", f"recalled {r[6]}×"]
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
            out.write(f"\n### {_fmt_time(r[3])} · {' · '.join(flags)}\n\n")
            out.write(f"**User:**\n\n{_md_quote(r[1])}\n\n")
            if r[2]:
                out.write(f"**Assistant:**\n\n{_md_quote(r[2])}\n")
            id2text[r[0]] = episode_text(r[1], r[2]).replace("\n", " ")[:80]
            counts["episodes"] += 1
            done += 1
            if progress is not None and done % 1000 == 0:
                progress(done, max(total, done))
        ej = "" if full else " JOIN _mf_sel s1 ON s1.id = g.src JOIN _mf_sel s2 ON s2.id = g.dst"
        rows = conn.execute(
            f"SELECT g.src, g.dst, g.weight, g.prior, g.count FROM edges g{ej} "
            "ORDER BY g.weight + g.prior DESC LIMIT 200").fetchall()
        counts["edges"] = conn.execute(f"SELECT COUNT(*) FROM edges g{ej}").fetchone()[0]
        if rows:
            out.write(f"\n## Strongest associations (top {len(rows)} of {counts['edges']})\n\n")
            for a, b, w, p, c in rows:
                out.write(f"- “{id2text.get(a, a)}” ↔ “{id2text.get(b, b)}” "
                          f"(learned {w:.3f}, prior {p:.3f}, {c} co-activations)\n")
        kq = ("SELECT kind, text, strength, archived_at, superseded_by FROM knowledge "
              "ORDER BY kind, id" if full
              else "SELECT k.kind, k.text, k.strength, k.archived_at, k.superseded_by "
                   "FROM knowledge k "
                   "WHERE k.id IN (SELECT ks.knowledge_id FROM knowledge_sources ks JOIN _mf_sel s "
                   "ON s.id = ks.episode_id) ORDER BY k.kind, k.id")
        krows = conn.execute(kq).fetchall()
        if krows:
            out.write("\n## Knowledge\n\n")
            for kind, text, strength, archived, superseded in krows:
                extra = (", archived" if archived is not None else "") + (
                    ", superseded: no longer current" if superseded is not None else "")
                out.write(f"- **{kind}** (strength {strength:.2f}{extra}): "
                          f"{text.replace(chr(10), ' ')}\n")
                counts["knowledge"] += 1
        if include_conversations:
            cj = "" if full else " JOIN _mf_conv s ON s.id = c.id"
            convs = conn.execute(f"SELECT c.id, c.title, c.created_at FROM conversations c{cj} "
                                 "ORDER BY c.created_at, c.id").fetchall()
            if convs:
                out.write("\n## Conversations\n")
            for cid, title, created in convs:
                out.write(f"\n### {title} ({_fmt_time(created)})\n\n")
                counts["conversations"] += 1
                for role, content, at, interrupted in conn.execute(
                    "SELECT role, content, created_at, interrupted FROM messages "
                    "WHERE conversation_id = ? ORDER BY id", (cid,)
                ):
                    mark = " *(interrupted)*" if interrupted else ""
                    out.write(f"**{role.capitalize()}** ({_fmt_time(at)}){mark}:\n\n"
                              f"{_md_quote(content)}\n\n")
                    counts["messages"] += 1
    if progress is not None:
        progress(max(total, done), max(total, done))
    return counts


# ===================================================================== readers =========
class _Source:
    """A validated-on-read view of a memory file: records per member."""

    kind = "native"
    manifest: dict
    members: tuple[str, ...]

    def records(self, member: str, trusted: bool = False) -> Iterator[tuple[int | str, dict]]:
        """(location, record) pairs; the location is a line number or a description,
        turned into text by `_where` only when something is wrong."""
        raise NotImplementedError  # pragma: no cover

    def prepare(self, progress: Progress | None, work_dir: Path) -> None:
        """Called once before the records are read (a conversation export is parsed here,
        into `work_dir`); `progress(done, total)` in the source's own units."""

    @property
    def details(self) -> dict:
        """What the source says about itself for the import report (history exports)."""
        return {}

    def close(self) -> None:
        pass


class _NativeSource(_Source):
    kind = "native"

    def __init__(self, path: Path, limits: Limits):
        self.path = path
        self.limits = limits
        self.schemas = _schemas(limits)
        self.read_total = 0
        self.checksums: dict[str, int] = {}
        try:
            self.zf = zipfile.ZipFile(path)
        except Exception as exc:  # noqa: BLE001 - zipfile raises many types on bad input
            raise _Bad(f"not a readable HeLa memory file (bad zip archive: {exc})",
                       "archive") from None
        try:
            self._check_archive()
            self.manifest = self._read_manifest()
        except BaseException:
            self.zf.close()
            raise

    def close(self) -> None:
        self.zf.close()

    def _check_archive(self) -> None:
        infos = self.zf.infolist()
        lim = self.limits
        if len(infos) > lim.max_members:
            raise _Bad(f"too many archive members ({len(infos)})", "archive")
        self.infos: dict[str, zipfile.ZipInfo] = {}
        total = 0
        for info in infos:
            name = info.filename
            where = f"archive member {name[:80]!r}"
            if (not name or name.startswith(("/", "\\")) or "\\" in name or ":" in name
                    or any(part in ("..", ".", "") for part in name.split("/"))):
                raise _Bad("unsafe member path (absolute or with '..')", where)
            if name in self.infos:
                raise _Bad("duplicate archive member", where)
            if name != MANIFEST and name not in MEMBER_ORDER:
                raise _Bad("unexpected archive member (not part of the format)", where)
            check_zip_member(info, lim, where)
            total += info.file_size
            self.infos[name] = info
        if total > lim.max_total_bytes:
            raise _Bad(f"uncompressed size {total} bytes exceeds the limit of "
                       f"{lim.max_total_bytes}", "archive")
        if MANIFEST not in self.infos:
            raise _Bad("no manifest.json: not a HeLa memory file", "archive")

    def _read_member_bytes(self, name: str, cap: int) -> bytes:
        info = self.infos[name]
        if info.file_size > cap:
            raise _Bad(f"too large ({info.file_size} bytes, limit {cap})", name)
        try:
            with self.zf.open(info) as fh:
                data = fh.read(cap + 1)
        except Exception as exc:  # noqa: BLE001 - corrupt data: zlib.error, BadZipFile, ...
            raise _Bad(f"corrupt archive data ({exc})", name) from None
        if len(data) > cap:
            raise _Bad(f"too large (limit {cap} bytes)", name)
        return data

    def _read_manifest(self) -> dict:
        m = _loads(self._read_member_bytes(MANIFEST, self.limits.max_manifest_bytes))
        w = MANIFEST
        if type(m) is not dict:
            raise _Bad(f"expected a JSON object, got {_tn(m)}", w)
        if m.get("format") != FORMAT_NAME:
            raise _Bad(f"not a HeLa memory file (format {str(m.get('format'))[:40]!r})", w)
        ver = m.get("version")
        if type(ver) is not int:
            raise _Bad(f"field 'version': expected an integer, got {_tn(ver)}", w)
        if ver > FORMAT_VERSION:
            raise _Bad(f"written by a newer HeLa Desktop (format version {ver}; this version "
                       f"reads up to {FORMAT_VERSION}): upgrade the app", w)
        if ver < 1:
            raise _Bad(f"invalid format version {ver}", w)
        checks = {
            "app_version": _opt(_make_str(self.limits)), "created_at": _opt(_make_str(self.limits)),
            "embedder": _opt(_make_str(self.limits)), "dim": _opt(_c_count),
            "hebbian_step": _c_step,
        }
        for key, check in checks.items():
            try:
                m[key] = check(m.get(key, None if key != "hebbian_step" else 0))
            except _Bad as bad:
                raise _Bad(bad.what, f"{w}, field '{key}'") from None
        counts = m.get("counts")
        if type(counts) is not dict:
            raise _Bad(f"field 'counts': expected an object, got {_tn(counts)}", w)
        for name, n in counts.items():
            if name not in MEMBER_ORDER:
                raise _Bad(f"field 'counts': unknown member {name[:40]!r}", w)
            if type(n) is not int or n < 0:
                raise _Bad(f"field 'counts': bad count for {name}", w)
        present = set(self.infos) - {MANIFEST}
        if present != set(counts):
            diff = sorted(present ^ set(counts))
            raise _Bad(f"members and counts disagree ({diff[0]} missing or extra; "
                       "truncated or edited file?)", w)
        for name in REQUIRED_MEMBERS:
            if name not in present:
                raise _Bad(f"required member {name} is missing", "archive")
        conv = [n for n in CONVERSATION_MEMBERS if n in present]
        if conv and len(conv) != len(CONVERSATION_MEMBERS):
            raise _Bad("conversations.jsonl, messages.jsonl and timelines.jsonl come together",
                       "archive")
        self.members = tuple(n for n in MEMBER_ORDER if n in present)
        return m

    def _lines(self, member: str) -> Iterator[tuple[int, bytes]]:
        """(line number, raw line) of a member, read in blocks, with the size limits."""
        lim = self.limits
        try:
            fh = self.zf.open(self.infos[member])
        except Exception as exc:  # noqa: BLE001 - zipfile raises many types on bad input
            raise _Bad(f"corrupt archive data ({exc})", member) from None
        n = 0
        rest = b""
        crc = 0

        def blocks() -> Iterator[bytes]:
            with fh:
                while True:
                    try:
                        block = fh.read(_CHUNK)
                    except Exception as exc:  # noqa: BLE001 - zlib.error, BadZipFile (CRC), EOF
                        raise _Bad(f"corrupt archive data ({exc})", member) from None
                    if not block:
                        return
                    yield block

        # inflating (which releases the GIL) runs ahead in a helper thread
        with contextlib.closing(_prefetch(blocks(), depth=2)) as stream:
            for block in stream:
                crc = zlib.crc32(block, crc)
                self.read_total += len(block)
                if self.read_total > lim.max_total_bytes:
                    raise _Bad("uncompressed data exceeds the size limit", member)
                parts = (rest + block).split(b"\n")
                rest = parts.pop()
                for line in parts:
                    n += 1
                    if len(line) > lim.max_line_bytes:
                        raise _Bad(f"line longer than {lim.max_line_bytes} bytes",
                                   f"{member} line {n}")
                    yield n, line
                if len(rest) > lim.max_line_bytes:
                    raise _Bad(f"line longer than {lim.max_line_bytes} bytes",
                               f"{member} line {n + 1}")
        if rest:
            yield n + 1, rest
        self.last_crc = crc

    def records(self, member: str, trusted: bool = False) -> Iterator[tuple[str, dict]]:
        """Parsed records of a member.  The first (validating) read checks every field and
        remembers a checksum; a `trusted` re-read only decodes, and fails if the bytes are
        not the ones that were validated (the file changed in between)."""
        schema = self.schemas[member]
        fast = _FAST_PARSERS.get(member)
        count = 0
        normalise = member in _NEEDS_NORMALISING
        decode = _DECODER.decode
        for n, line in self._lines(member):
            if not line.strip():
                continue
            count += 1
            if trusted:
                try:
                    obj = decode(line.decode("utf-8"))
                    yield n, _trusted_record(member, obj) if normalise else obj
                except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
                    raise _Bad("the file changed while it was being imported",
                               f"{member} line {n}") from None
                continue
            try:
                obj = _loads(line)
            except _Bad as bad:
                raise _Bad(bad.what, f"{member} line {n}") from None
            rec = fast(obj) if fast is not None else None
            yield n, rec if rec is not None else _parse_record(schema, obj, f"{member} line {n}")
        crc = self.last_crc
        if trusted:
            if self.checksums.get(member) != crc:
                raise _Bad("the file changed while it was being imported", member)
            return
        expected = self.manifest["counts"][member]
        if count != expected:
            raise _Bad(f"{count} records but the manifest says {expected} (truncated file?)",
                       member)
        self.checksums[member] = crc


def _parse_edge_fast(obj: Any) -> dict | None:
    """The common edges.jsonl record, checked inline; None: use the generic parser."""
    if type(obj) is not dict or len(obj) != 7:
        return None
    try:
        a, b, w, p = obj["a"], obj["b"], obj["weight"], obj["prior"]
        c, st, u = obj["count"], obj["step"], obj["updated_at"]
    except KeyError:
        return None
    if (type(a) is str and type(b) is str and len(a) <= 128 and len(b) <= 128
            and type(w) is float and type(p) is float and type(u) is float
            and type(c) is int and type(st) is int and 0 <= c <= _INT_MAX
            and -_STEP_MAX <= st <= _STEP_MAX
            and math.isfinite(w) and math.isfinite(p) and TIME_MIN <= u <= TIME_MAX):
        return obj
    return None


_FAST_PARSERS: dict[str, Callable[[Any], dict | None]] = {"edges.jsonl": _parse_edge_fast}
_VEC_FIELDS = {"episodes.jsonl": ("embedding", "query_centroid"), "knowledge.jsonl": ("embedding",)}
_OBJ_FIELDS = {"episodes.jsonl": ("last_recall", "meta"), "messages.jsonl": ("stats",)}
_BOOL_FIELDS = {"episodes.jsonl": ("pinned",), "messages.jsonl": ("interrupted",)}
# number fields: an integer there (valid JSON, even ≥ 2**63) is stored as a float
_FLOAT_FIELDS = {
    "conversations.jsonl": ("created_at", "updated_at"),
    "episodes.jsonl": ("created_at", "last_access", "importance", "archived_at", "deleted_at"),
    "messages.jsonl": ("created_at",),
    "knowledge.jsonl": ("created_at", "updated_at", "strength", "archived_at", "last_access"),
}
_NEEDS_NORMALISING = {*_VEC_FIELDS, *_OBJ_FIELDS, *_BOOL_FIELDS, *_FLOAT_FIELDS}


def _trusted_record(member: str, obj: dict) -> dict:
    """Normalise a record that already passed validation (same bytes, checked by CRC)."""
    for k in _VEC_FIELDS.get(member, ()):
        v = obj.get(k)
        if v is not None:
            obj[k] = base64.b64decode(v)
    for k in _OBJ_FIELDS.get(member, ()):
        v = obj[k]
        if v is not None:
            obj[k] = _obj_text(v)
    for k in _BOOL_FIELDS.get(member, ()):
        obj[k] = int(obj[k])
    for k in _FLOAT_FIELDS.get(member, ()):
        if type(obj[k]) is int:
            obj[k] = float(obj[k])
    return obj


def _where(member: str, loc: int | str) -> str:
    return loc if isinstance(loc, str) else f"{member} line {loc}"


def _plain_uid(prefix: str, *parts: str) -> str:
    h = hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{prefix}-{h[:40]}"


def _plain_episode(uid: str, content: str, created_at: float, importance: float,
                   meta: str | None) -> dict:
    return {
        "uid": uid, "conversation": None, "user_text": content, "assistant_text": "",
        "created_at": created_at, "embedder": None, "access_count": 0, "last_access": None,
        "importance": importance, "pinned": 0, "archived_at": None, "archive_reason": None,
        "deleted_at": None, "query_count": 0, "last_recall": None, "source": PLAIN_SOURCE,
        "meta": meta,
    }


def _parse_iso(v: Any) -> float:
    if type(v) is not str:
        if type(v) in (int, float):
            return _c_time(v)
        raise _Bad(f"expected an ISO date string, got {_tn(v)}")
    try:
        d = _dt.datetime.fromisoformat(v.strip().replace("Z", "+00:00"))
        ts = d.timestamp()
    except (ValueError, OverflowError, OSError):
        raise _Bad(f"not an ISO date: {v[:40]!r}") from None
    return _c_time(ts)


def json_list_items(fh, limits: Limits, *, noun: str = "memories", where: str = "file",
                    max_item: int | None = None,
                    on_read: Callable[[bytes], None] | None = None) -> Iterator[tuple[int, Any]]:
    """Yield (1-based index, item) of a top-level JSON list read from the binary file `fh`
    in blocks, without loading the whole file; no item may be larger than `max_item` bytes
    (default: the line limit).  `on_read(block)` sees every block read (progress, checksums).
    Problems raise `_Bad` naming `where` or the item."""
    dec = json.JSONDecoder(parse_constant=_reject_constant)
    udec = codecs.getincrementaldecoder("utf-8")()
    lim = limits.max_line_bytes if max_item is None else max_item
    buf = ""
    pos = 0
    eof = False

    def more() -> bool:
        nonlocal buf, pos, eof
        if eof:
            return False
        chunk = fh.read(_CHUNK)
        if on_read is not None and chunk:
            on_read(chunk)
        try:
            text = udec.decode(chunk, final=not chunk)
        except UnicodeDecodeError as exc:
            raise _Bad(f"not UTF-8 text ({exc.reason})", where) from None
        if not chunk:
            eof = True
        if not buf and not pos and text.startswith("\ufeff"):
            text = text[1:]
        buf = buf[pos:] + text
        pos = 0
        return bool(chunk)

    def skip_ws() -> None:
        nonlocal pos
        while True:
            while pos < len(buf) and buf[pos] in " \t\r\n":
                pos += 1
            if pos < len(buf) or not more():
                return

    skip_ws()
    if pos >= len(buf) or buf[pos] != "[":
        raise _Bad(f"expected a JSON list of {noun}", where)
    pos += 1
    index = 0
    while True:
        skip_ws()
        if pos >= len(buf):
            raise _Bad("truncated JSON (the list is not closed)", where)
        if buf[pos] == "]":
            pos += 1
            skip_ws()
            if pos < len(buf):
                raise _Bad("extra data after the JSON list", where)
            return
        if index:
            if buf[pos] != ",":
                raise _Bad(f"expected ',' or ']' after item {index}", where)
            pos += 1
            skip_ws()
        while True:
            try:
                obj, end = dec.raw_decode(buf, pos)
            except RecursionError:
                raise _Bad("JSON nested too deeply", f"item {index + 1}") from None
            except ValueError as exc:
                if len(buf) - pos > lim:
                    raise _Bad(f"item larger than {lim} bytes", f"item {index + 1}") from None
                if more():
                    continue
                raise _Bad(f"not valid JSON ({exc})", f"item {index + 1}") from None
            # a number at the end of the buffer may continue in the next chunk
            if end >= len(buf) and more():
                continue
            break
        index += 1
        pos = end
        yield index, obj


class _PlainSource(_Source):
    """Plain JSON list (streaming-memory) or text/Markdown: episodes only."""

    def __init__(self, path: Path, limits: Limits, kind: str, now: float):
        self.path = path
        self.limits = limits
        self.kind = kind
        self.now = now
        self.members = ("episodes.jsonl",)
        self.manifest = {"embedder": None, "dim": None, "hebbian_step": 0, "counts": {}}
        size = path.stat().st_size
        if size > limits.max_plain_bytes:
            raise _Bad(f"file too large ({size} bytes, limit {limits.max_plain_bytes})", "file")
        self._str = _make_str(limits)

    def records(self, member: str, trusted: bool = False) -> Iterator[tuple[str, dict]]:
        if member != "episodes.jsonl":
            return
        it = self._json_records() if self.kind == "json" else self._text_records()
        seen: set[str] = set()
        count = 0
        for where, rec in it:
            count += 1
            if rec["uid"] in seen:  # the same memory twice in one plain file: keep one
                continue
            seen.add(rec["uid"])
            yield where, rec
        if count == 0:
            raise _Bad("no memories found", "file")

    # ---- JSON list, read incrementally ----------------------------------------------
    def _json_items(self) -> Iterator[tuple[int, Any]]:
        with open(self.path, "rb") as fh:
            yield from json_list_items(fh, self.limits)

    def _json_records(self) -> Iterator[tuple[str, dict]]:
        s = self._str
        for index, item in self._json_items():
            where = f"item {index}"
            if type(item) is not dict:
                raise _Bad(f"expected a memory object, got {_tn(item)}", where)
            try:
                content = s(item.get("content"))
            except _Bad as bad:
                raise _Bad(bad.what, f"{where}, field 'content'") from None
            if not content.strip():
                raise _Bad("empty content", f"{where}, field 'content'")
            raw_created = item.get("created_at")
            try:
                created = self.now if raw_created is None else _parse_iso(raw_created)
                if not math.isfinite(created):
                    raise _Bad("not a finite time")
            except _Bad as bad:
                raise _Bad(bad.what, f"{where}, field 'created_at'") from None
            try:
                importance = _c_float(item.get("emotional_intensity") or 0.0)
            except _Bad as bad:
                raise _Bad(bad.what, f"{where}, field 'emotional_intensity'") from None
            mtype = item.get("type")
            if mtype is not None:
                try:
                    mtype = s(mtype)
                except _Bad as bad:
                    raise _Bad(bad.what, f"{where}, field 'type'") from None
            meta = json.dumps({"type": mtype}, ensure_ascii=False) if mtype else None
            created_key = raw_created if isinstance(raw_created, str) else repr(raw_created)
            uid = _plain_uid("j", content, created_key)
            yield where, _plain_episode(uid, content, created, importance, meta)

    # ---- text / Markdown -----------------------------------------------------------------
    def _text_records(self) -> Iterator[tuple[str, dict]]:
        s = self._str
        para: list[str] = []
        start = 0
        lineno = 0
        size = 0

        def flush() -> Iterator[tuple[str, dict]]:
            lines = [ln for ln in para if not _MD_SKIP.match(ln)]
            text = "\n".join(lines).strip()
            para.clear()
            if not text:
                return
            where = f"paragraph at line {start}"
            try:
                s(text)
            except _Bad as bad:
                raise _Bad(bad.what, where) from None
            yield where, _plain_episode(_plain_uid("t", text), text, self.now, 0.0, None)

        # a line is read at most `cap` bytes at a time: one endless line never fills memory
        cap = 4 * self.limits.max_text_chars + 4
        with open(self.path, "rb") as fh:
            for raw in iter(lambda: fh.readline(cap), b""):
                lineno += 1
                if len(raw) >= cap:
                    raise _Bad(f"line longer than {self.limits.max_text_chars} characters",
                               f"line {lineno}")
                if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                if b"\x00" in raw:
                    raise _Bad("binary data (NUL byte): not a text or memory file",
                               f"line {lineno}")
                try:
                    line = raw.decode("utf-8").rstrip("\r\n")
                except UnicodeDecodeError:
                    raise _Bad("not UTF-8 text: not a memory file", f"line {lineno}") from None
                if line.strip():
                    if not para:
                        start = lineno
                        size = 0
                    para.append(line.rstrip())
                    size += len(line)
                    if size > self.limits.max_text_chars:
                        raise _Bad(f"paragraph longer than {self.limits.max_text_chars} "
                                   "characters", f"paragraph at line {start}")
                else:
                    yield from flush()
            yield from flush()


# headings, horizontal rules and front-matter fences are not memories
_MD_SKIP = re.compile(r"\s{0,3}(#{1,6}(\s.*)?|([-*_]\s*){3,}|---)\s*\Z")


def _open_source(path: Path, limits: Limits, now: float) -> _Source:
    from . import importers  # conversation exports and notes folders (they use this module)

    if path.is_dir():
        return importers.open_folder(path, limits)
    try:
        if path.exists() and not path.is_dir() and not path.is_file():
            # a device (/dev/zero: one endless line) or a pipe (blocks until written)
            raise _Bad("not a regular file (a device, pipe or socket): save the memories to "
                       "a file first", "file")
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except FileNotFoundError:
        raise _Bad("no such file", "file") from None
    except IsADirectoryError:
        raise _Bad("is a folder, not a file", "file") from None
    except OSError as exc:
        raise _Bad(f"cannot read ({exc.strerror or exc})", "file") from None
    if not head:
        raise _Bad("empty file: not a memory file", "file")
    history = importers.detect_file(path, head, limits)
    if history is not None:
        return history
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")) or \
            path.suffix.lower() in (".hela", ".zip"):
        if not head.startswith(b"PK"):
            raise _Bad("not a HeLa memory file (not a zip archive)", "file")
        return _NativeSource(path, limits)
    body = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    first = body.lstrip(b" \t\r\n")[:1]
    if first == b"[":
        return _PlainSource(path, limits, "json", now)
    if first == b"{":
        raise _Bad("a JSON object: expected a .hela memory file, a JSON list of memories, "
                   "a conversation export, or text", "file")
    return _PlainSource(path, limits, "text", now)


# ===================================================================== import ==========
Embed = Callable[[list[str]], Any]


def _embed_fn(embedder: Any) -> Callable[[list[str]], np.ndarray]:
    if hasattr(embedder, "embed"):
        return embedder.embed
    if callable(embedder):
        return embedder
    raise TypeError("embedder must be an Embedder, a callable(list[str]) -> array, or None")


def _target_embedder_name(store: Store, embedder: Any) -> str:
    """The embedder whose vectors the store should hold after the import.

    An `Embedder` (or anything with a ``name``) names itself; otherwise (None, or a bare
    callable) it is the store's ``embedder`` meta key, or the bundled default model.
    """
    name = getattr(embedder, "name", None) if embedder is not None else None
    return name or store.get_meta("embedder") or DEFAULT_EMBEDDER_NAME


class _Plan:
    """What validation learned: uid maps, texts to embed, counts."""

    def __init__(self) -> None:
        self.conv_uids: set[str] = set()
        self.ep_index: dict[str, int] = {}
        self.msg_uids: set[str] = set()
        self.know_uids: set[str] = set()
        self.superseded: list[tuple[str, str, str]] = []  # (where, uid, target uid)
        self.to_embed: list[tuple[str, str, str]] = []  # (table, uid, text)
        self.bad_vectors = 0  # vectors of the wrong size or length: embedded again
        self.records = 0
        # the validated edges, compactly (file episode indices, values): written from here,
        # so edges.jsonl is read only once
        self.e_a, self.e_b, self.e_line = array("q"), array("q"), array("q")
        self.e_count, self.e_step = array("q"), array("q")
        self.e_weight, self.e_prior, self.e_updated = array("d"), array("d"), array("d")


def _chunks(seq: list, n: int) -> Iterator[list]:
    for i in range(0, len(seq), n):
        yield seq[i:i + n]


def check_zip_member(info, lim: Limits, where: str) -> None:
    """Refuse an encrypted member, an unknown compression method or a ratio that marks a
    decompression bomb (shared by memory files and zipped history exports)."""
    import zipfile

    if info.flag_bits & 0x1:
        raise _Bad("encrypted members are not supported", where)
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise _Bad(f"unsupported compression method {info.compress_type}", where)
    if info.file_size > lim.ratio_floor and \
            info.file_size > lim.max_ratio * max(info.compress_size, 1):
        raise _Bad(f"compression ratio {info.file_size / max(info.compress_size, 1):.0f}:1 "
                   f"exceeds {lim.max_ratio:.0f}:1 (possible decompression bomb)", where)


def _keep_vector(rec: dict, file_embedder: str | None, target: str, dim: int | None) -> bool:
    """True when the record's own embedding is kept as it is.

    A record without the ``embedding`` key (exported with ``include_embeddings=False``, or
    from a plain file) needs embedding; ``"embedding": null`` is kept (the source store had
    no embedding either); a vector is kept when its embedder is the target's (or unknown)
    and it is usable: `dim` dimensions (when known) and unit length.
    """
    if "embedding" not in rec:
        return False
    if rec["embedding"] is None:
        return True
    name = rec.get("embedder") or file_embedder
    return (name is None or name == target) and _usable_vector(rec["embedding"], dim)


def _usable_vector(blob: bytes, dim: int | None, *, unit: bool = True) -> bool:
    """A float32 vector the memory index can use: `dim` dimensions (when known, else any
    but 0) and unit length (`unit`), or at most unit length (a query centroid)."""
    n = len(blob) // 4
    if n == 0 or (dim is not None and n != dim):
        return False
    norm = float(np.linalg.norm(np.frombuffer(blob, dtype=np.float32).astype(np.float64)))
    return abs(norm - 1.0) <= 0.01 if unit else norm <= 1.01


def _target_dim(store: Store, embedder: Any, target_name: str) -> int | None:
    """The dimension the store's vectors have (None when nothing tells)."""
    dim = getattr(embedder, "dim", None) if embedder is not None else None
    if dim:
        return int(dim)
    dim = store.embedding_dim()
    if dim:
        return dim
    return DEFAULT_EMBEDDER_DIM if target_name == DEFAULT_EMBEDDER_NAME else None


def _wrong_vector(rec: dict, file_embedder: str | None, target: str) -> bool:
    """The record brings a vector from the target's embedder that cannot be used."""
    v = rec.get("embedding")
    name = rec.get("embedder") or file_embedder
    return v is not None and (name is None or name == target)


def _validate(src: _Source, store: Store, target_name: str, dim: int | None, progress,
              total: int) -> _Plan:
    """Read the whole file once, checking every record and reference; nothing is written.

    Returns the plan for writing: uid maps, what needs embedding, the edges (compactly).
    """
    plan = _Plan()
    file_emb = src.manifest.get("embedder")
    exchange_keyed = int(src.manifest.get("version") or FORMAT_VERSION) < 2
    done = 0
    pending: list[tuple[str, str]] = []  # (uid, text) episodes that may need embedding
    kpending: list[tuple[str, str]] = []

    def flush_pending(table: str, items: list[tuple[str, str]]) -> None:
        if not items:
            return
        for chunk in _chunks(items, 500):
            q = ",".join("?" * len(chunk))
            have = {r[0] for r in store.conn.execute(
                f"SELECT uid FROM {table} WHERE embedding IS NOT NULL AND uid IN ({q})",
                [u for u, _ in chunk])}
            plan.to_embed.extend((table, u, t) for u, t in chunk if u not in have)
        items.clear()

    for member in src.members:
        seen: set = set()
        for loc, rec in src.records(member):
            done += 1
            if progress is not None and done % 2000 == 0:
                progress(done, total)
            if member == "conversations.jsonl":
                if rec["uid"] in plan.conv_uids:
                    raise _Bad(f"duplicate uid {rec['uid']!r}", _where(member, loc))
                plan.conv_uids.add(rec["uid"])
            elif member == "episodes.jsonl":
                uid = rec["uid"]
                if uid in plan.ep_index:
                    raise _Bad(f"duplicate uid {uid!r}", _where(member, loc))
                c = rec["conversation"]
                if c is not None and c not in plan.conv_uids:
                    raise _Bad(f"field 'conversation': unknown conversation {c!r}",
                               _where(member, loc))
                plan.ep_index[uid] = len(plan.ep_index)
                keep = _keep_vector(rec, file_emb, target_name, dim)
                if not keep:
                    plan.bad_vectors += _wrong_vector(rec, file_emb, target_name)
                # a version-1 file's vectors were made from the whole exchange: re-made
                if not keep or (exchange_keyed and rec["assistant_text"] and rec.get("embedding")):
                    pending.append((uid, key_text(rec["user_text"], rec["assistant_text"])))
                    if len(pending) >= 500:
                        flush_pending("episodes", pending)
            elif member == "messages.jsonl":
                if rec["uid"] in plan.msg_uids:
                    raise _Bad(f"duplicate uid {rec['uid']!r}", _where(member, loc))
                if rec["conversation"] not in plan.conv_uids:
                    raise _Bad(f"field 'conversation': unknown conversation "
                               f"{rec['conversation']!r}", _where(member, loc))
                e = rec["episode"]
                if e is not None and e not in plan.ep_index:
                    raise _Bad(f"field 'episode': unknown memory {e!r}", _where(member, loc))
                plan.msg_uids.add(rec["uid"])
            elif member == "timelines.jsonl":
                if rec["message"] not in plan.msg_uids:
                    raise _Bad(f"field 'message': unknown message {rec['message']!r}",
                               _where(member, loc))
                key = (rec["message"], rec["start"])
                if key in seen:
                    raise _Bad("duplicate timeline span (same message and start)",
                               _where(member, loc))
                seen.add(key)
                for e in rec["episodes"]:
                    if e not in plan.ep_index:
                        raise _Bad(f"field 'episodes': unknown memory {e!r}",
                                   _where(member, loc))
            elif member == "edges.jsonl":
                ia = plan.ep_index.get(rec["a"])
                ib = plan.ep_index.get(rec["b"])
                if ia is None:
                    raise _Bad(f"field 'a': unknown memory {rec['a']!r}", _where(member, loc))
                if ib is None:
                    raise _Bad(f"field 'b': unknown memory {rec['b']!r}", _where(member, loc))
                if ia == ib:
                    raise _Bad("an edge must join two different memories", _where(member, loc))
                plan.e_line.append(loc)
                plan.e_a.append(ia)
                plan.e_b.append(ib)
                plan.e_weight.append(rec["weight"])
                plan.e_prior.append(rec["prior"])
                plan.e_count.append(rec["count"])
                plan.e_step.append(rec["step"])
                plan.e_updated.append(rec["updated_at"])
            elif member == "knowledge.jsonl":
                uid = rec["uid"]
                if uid in plan.know_uids:
                    raise _Bad(f"duplicate uid {uid!r}", _where(member, loc))
                plan.know_uids.add(uid)
                for e in rec["sources"]:
                    if e not in plan.ep_index:
                        raise _Bad(f"field 'sources': unknown memory {e!r}", _where(member, loc))
                if rec["superseded_by"] is not None:
                    plan.superseded.append((_where(member, loc), uid, rec["superseded_by"]))
                if not _keep_vector(rec, file_emb, target_name, dim):
                    plan.bad_vectors += _wrong_vector(rec, file_emb, target_name)
                    kpending.append((uid, rec["text"]))
                    if len(kpending) >= 500:
                        flush_pending("knowledge", kpending)
        flush_pending("episodes", pending)
        flush_pending("knowledge", kpending)
        if member == "edges.jsonl":
            _check_duplicate_edges(plan)
    for where, _uid, target in plan.superseded:
        if target not in plan.know_uids:
            raise _Bad(f"field 'superseded_by': unknown knowledge item {target!r}", where)
    plan.records = done
    return plan


def _check_duplicate_edges(plan: _Plan) -> None:
    """Each unordered pair of memories may have one edge (checked with numpy, not a set)."""
    if len(plan.e_a) < 2:
        return
    a = np.frombuffer(plan.e_a, dtype=np.int64)
    b = np.frombuffer(plan.e_b, dtype=np.int64)
    keys = np.minimum(a, b) * max(len(plan.ep_index), 1) + np.maximum(a, b)
    order = np.argsort(keys, kind="stable")
    same = np.nonzero(keys[order][1:] == keys[order][:-1])[0]
    if same.size:
        j = int(order[same + 1].min())
        raise _Bad("duplicate edge (the same two memories again)",
                   f"edges.jsonl line {plan.e_line[j]}")


class _DryRun(Exception):
    pass


class ImportCancelled(Exception):
    """The import was cancelled (its `cancel` event was set); nothing was written."""


_T = TypeVar("_T")


def _prefetch(it: Iterator[_T], depth: int = 3) -> Iterator[_T]:
    """Iterate `it` in a helper thread, up to `depth` items ahead of the consumer.

    Exceptions raised by `it` are re-raised in the consumer; if the consumer stops early,
    the helper stops too (and `it` is closed) before this generator finishes.
    """
    q: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()
    end = object()

    def put(item: Any) -> bool:
        while not stop.is_set():
            try:
                q.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def run() -> None:
        try:
            for item in it:
                if not put((True, item)):
                    return
            put((True, end))
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer
            put((False, exc))

    worker = threading.Thread(target=run, name="memfile-reader", daemon=True)
    worker.start()
    try:
        while True:
            ok, item = q.get()
            if not ok:
                raise item
            if item is end:
                return
            yield item
    finally:
        stop.set()
        worker.join()
        close = getattr(it, "close", None)
        if close is not None:
            close()


def import_file(
    store: Store,
    path: str | os.PathLike,
    *,
    embedder: Any = None,
    dry_run: bool = False,
    progress: Progress | None = None,
    lam: float | None = None,
    limits: Limits = DEFAULT_LIMITS,
    stage: Callable[[str, int, int], None] | None = None,
    cancel: threading.Event | None = None,
) -> ImportReport:
    """Import a memory file into `store`, all or nothing.

    `path` may be a ``.hela`` archive, a JSON list of memories (streaming-memory layout:
    ``content``, ``created_at`` ISO string, ``emotional_intensity``, ``type``) or a text /
    Markdown file (one memory per paragraph).  `embedder` (an `Embedder` or a callable
    ``list[str] -> (n, dim) array``) embeds memories that arrive without a usable embedding;
    when None, the default `Embedder()` is loaded only if something needs embedding.
    ``dry_run`` validates and counts without writing (and without embedding).  `lam` is the
    Hebbian decay λ used to compare edge weights when merging (default: `HelaParams.lam`).
    ``progress(done, total)`` reports records processed (``total`` 0 while unknown).
    `path` may also be a conversation export or a notes folder (see `hela_desktop.importers`).
    ``stage(name, start, end)`` announces each phase and the progress values it spans
    (``end`` 0 while unknown): ``"reading"`` (a conversation export is parsed; progress in
    bytes), ``"checking"``, ``"embedding"`` (progress advances one per text), ``"writing"``.  Setting `cancel` (a `threading.Event`) stops the import at the next
    progress step with `ImportCancelled`, the store unchanged.

    Raises `MemoryFileError` (store unchanged) for any problem with the file.
    """
    t0 = time.perf_counter()
    path = Path(path)
    user_progress = progress
    if cancel is not None:
        def progress(done: int, total: int) -> None:
            if cancel.is_set():
                raise ImportCancelled(f"{path}: import cancelled; nothing was changed")
            if user_progress is not None:
                user_progress(done, total)

    def enter(name: str, start: int = 0, end: int = 0) -> None:
        if cancel is not None and cancel.is_set():
            raise ImportCancelled(f"{path}: import cancelled; nothing was changed")
        if stage is not None:
            stage(name, start, end)
    if lam is None:
        from .config import HelaParams

        lam = HelaParams().lam
    target_name = _target_embedder_name(store, embedder)
    dim = _target_dim(store, embedder, target_name)
    try:
        src = _open_source(path, limits, time.time())
        try:
            enter("reading")
            src.prepare(progress, store.path.parent)
            # progress units: records validated + records written (+ texts embedded)
            total0 = 2 * sum(src.manifest.get("counts", {}).values())
            enter("checking", 0, total0)
            plan = _validate(src, store, target_name, dim, progress, total0)
            report = ImportReport(path=path, kind=src.kind, dry_run=dry_run,
                                  bad_vectors=plan.bad_vectors)
            total = plan.records * 2 + len(plan.to_embed)
            vectors: dict[tuple[str, str], bytes] = {}
            if plan.to_embed and not dry_run:
                enter("embedding", plan.records, plan.records + len(plan.to_embed))
                t_emb = time.perf_counter()
                vectors = _embed_all(plan.to_embed, embedder, progress, plan.records, total)
                report.embed_seconds = time.perf_counter() - t_emb
            report.embedded = len(plan.to_embed)
            done0 = plan.records + (0 if dry_run else len(plan.to_embed))
            enter("writing", done0, total)
            cache = store.conn.execute("PRAGMA cache_size").fetchone()[0]
            store.conn.execute("PRAGMA cache_size = -65536")  # 64 MiB while importing
            # a dry run writes into an in-memory copy of the store: it needs no write lock,
            # so it works while another process writes (unless the caller holds one anyway)
            copy = (store.memory_copy() if dry_run and not store.conn.in_transaction
                    else contextlib.nullcontext(store))
            try:
                with copy as into, into.transaction() as conn:
                    # a savepoint makes the import all-or-nothing even when the caller
                    # already holds a transaction (store.transaction() nests by joining)
                    conn.execute("SAVEPOINT hela_memfile_import")
                    try:
                        _apply(src, into, plan, vectors, target_name, dim, lam, report,
                               progress, done0, total)
                        if dry_run:
                            raise _DryRun
                    except BaseException:
                        conn.execute("ROLLBACK TO hela_memfile_import")
                        conn.execute("RELEASE hela_memfile_import")
                        raise
                    conn.execute("RELEASE hela_memfile_import")
            except _DryRun:
                pass
            except sqlite3.IntegrityError as exc:
                raise _Bad(f"conflicts with the store ({exc})", "import") from None
            finally:
                store.conn.execute(f"PRAGMA cache_size = {int(cache)}")
            report.details = src.details
        finally:
            src.close()
    except _Bad as bad:
        raise MemoryFileError(path, bad.where or "file", bad.what) from None
    if progress is not None:
        progress(total, total)
    report.seconds = time.perf_counter() - t0
    return report


def _embed_all(items: list[tuple[str, str, str]], embedder: Any, progress, done: int,
               total: int) -> dict[tuple[str, str], bytes]:
    if embedder is None:
        from .embedder import Embedder

        embedder = Embedder()
    fn = _embed_fn(embedder)
    out: dict[tuple[str, str], bytes] = {}
    for chunk in _chunks(items, 256):
        vecs = np.asarray(fn([t for _, _, t in chunk]), dtype=np.float32)
        if vecs.ndim != 2 or vecs.shape[0] != len(chunk):
            raise ValueError(f"embedder returned shape {vecs.shape} for {len(chunk)} texts")
        for (table, uid, _), v in zip(chunk, vecs, strict=True):
            out[(table, uid)] = v.tobytes()
        done += len(chunk)
        if progress is not None:
            progress(done, total)
    return out


def _maxn(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a if a >= b else b


def _apply(src: _Source, store: Store, plan: _Plan, vectors, target_name: str,
           dim: int | None, lam: float, report: ImportReport, progress, done: int,
           total: int) -> None:
    conn = store.conn
    file_emb = src.manifest.get("embedder")
    kinds = [m.removesuffix(".jsonl") for m in src.members]
    for k in kinds:
        report.added[k] = report.merged[k] = report.skipped[k] = 0

    def bump(kind: str, status: str) -> None:
        getattr(report, status)[kind] += 1

    def vec_for(table: str, rec: dict) -> tuple[bytes | None, str | None, bool]:
        """(embedding, embedder, own?) for a record: its own vector or the computed one."""
        if _keep_vector(rec, file_emb, target_name, dim):
            return rec["embedding"], rec["embedder"], True
        blob = vectors.get((table, rec["uid"]))
        return blob, (target_name if blob is not None else rec["embedder"]), False

    # ---- Hebbian step: rebase edges so w·(1-λ)^(step_now - step_edge) is preserved -----
    file_step = int(src.manifest.get("hebbian_step") or 0)
    target_step = store.hebbian_step()
    has_edges = conn.execute("SELECT 1 FROM edges LIMIT 1").fetchone() is not None
    if not has_edges and file_step > target_step and "edges.jsonl" in src.members:
        store.set_meta("hebbian_step", str(file_step))
        target_step = file_step
    shift = target_step - file_step
    if abs(target_step) > 2**62:
        raise _Bad(f"the store's Hebbian step counter ({target_step}) is out of range",
                   "import")

    # vectors whose embedder the file names only in its manifest: the store keeps the name
    # (set now, undone if the unit of work is; dropped again below when nothing needs it)
    name_meta = bool(file_emb and file_emb == target_name and not store.get_meta("embedder"))
    if name_meta:
        store.set_meta("embedder", file_emb)

    conv_id: dict[str, int] = {}
    ep_id: dict[str, int] = {}
    new_eps: set[int] = set()
    msg_id: dict[str, int] = {}
    count = done

    def tick(n: int) -> None:
        nonlocal count
        count += n
        if progress is not None:
            progress(min(count, total), total)

    def batched(member: str, size: int) -> Iterator[list[tuple[int | str, dict]]]:
        def read() -> Iterator[list[tuple[int | str, dict]]]:
            batch: list[tuple[int | str, dict]] = []
            for item in src.records(member, trusted=True):
                batch.append(item)
                if len(batch) >= size:
                    yield batch
                    batch = []
            if batch:
                yield batch

        # reading (inflate, JSON) runs one step ahead in a helper thread while SQLite,
        # which releases the GIL, writes the previous batch
        for batch in _prefetch(read()):
            tick(len(batch))
            yield batch

    def ref(m: dict[str, int], uid: str, loc: int | str) -> int:
        try:
            return m[uid]
        except KeyError:
            raise _Bad(f"unknown reference {uid!r} (file changed while importing?)",
                       _where(current, loc)) from None

    for member in src.members:
        kind = member.removesuffix(".jsonl")
        current = member
        if member == "conversations.jsonl":
            for batch in batched(member, 500):
                uids = [r["uid"] for _, r in batch]
                q = ",".join("?" * len(uids))
                old = {r[0]: r for r in conn.execute(
                    f"SELECT uid, id, title, created_at, updated_at FROM conversations "
                    f"WHERE uid IN ({q})", uids)}
                for _, r in batch:
                    e = old.get(r["uid"])
                    if e is None:
                        cur = conn.execute(
                            "INSERT INTO conversations(uid, title, created_at, updated_at) "
                            "VALUES (?,?,?,?)", (r["uid"], r["title"], r["created_at"],
                                                 r["updated_at"]))
                        conv_id[r["uid"]] = cur.lastrowid
                        bump(kind, "added")
                        continue
                    conv_id[r["uid"]] = e[1]
                    title, upd = (r["title"], r["updated_at"]) if r["updated_at"] > e[4] \
                        else (e[2], e[4])
                    created = min(e[3], r["created_at"])
                    if (title, created, upd) != (e[2], e[3], e[4]):
                        conn.execute("UPDATE conversations SET title=?, created_at=?, "
                                     "updated_at=? WHERE id=?", (title, created, upd, e[1]))
                        bump(kind, "merged")
                    else:
                        bump(kind, "skipped")

        elif member == "episodes.jsonl":
            for batch in batched(member, 1000):
                uids = [r["uid"] for _, r in batch]
                q = ",".join("?" * len(uids))
                old = {r[1]: r for r in conn.execute(
                    "SELECT id, uid, conversation_id, embedding, embedder, access_count, "
                    "last_access, importance, pinned, query_centroid, query_count, last_recall, "
                    f"meta FROM episodes WHERE uid IN ({q})", uids)}
                inserts = []
                for where, r in batch:
                    cid = None if r["conversation"] is None else ref(conv_id, r["conversation"],
                                                                     where)
                    emb, embn, own = vec_for("episodes", r)
                    cent = r.get("query_centroid") if own else None
                    if cent is not None and not _usable_vector(cent, dim, unit=False):
                        cent = None  # a centroid that cannot be compared with queries
                    e = old.get(r["uid"])
                    if e is None:
                        inserts.append((
                            r["uid"], cid, r["user_text"], r["assistant_text"], r["created_at"],
                            emb, embn, r["access_count"], r["last_access"], r["importance"],
                            r["pinned"], r["archived_at"], r["archive_reason"], r["deleted_at"],
                            cent, r["query_count"], r["last_recall"], r["source"], r["meta"],
                        ))
                        continue
                    ep_id[r["uid"]] = e[0]
                    new = {
                        "conversation_id": e[2] if e[2] is not None else cid,
                        "access_count": max(e[5], r["access_count"]),
                        "last_access": _maxn(e[6], r["last_access"]),
                        "importance": max(e[7], r["importance"]),
                        "pinned": int(bool(e[8]) or bool(r["pinned"])),
                        "meta": e[12] if e[12] is not None else r["meta"],
                    }
                    if e[3] is None and emb is not None:
                        new["embedding"], new["embedder"] = emb, embn
                    if r["query_count"] > e[10] and cent is not None:
                        new["query_centroid"], new["query_count"] = cent, r["query_count"]
                    if r["last_recall"] is not None and (
                            e[11] is None or (r["last_access"] or 0) > (e[6] or 0)):
                        new["last_recall"] = r["last_recall"]
                    cur_vals = {"conversation_id": e[2], "access_count": e[5],
                                "last_access": e[6], "importance": e[7], "pinned": e[8],
                                "meta": e[12], "embedding": e[3], "embedder": e[4],
                                "query_centroid": e[9], "query_count": e[10],
                                "last_recall": e[11]}
                    changed = {k: v for k, v in new.items() if cur_vals[k] != v}
                    if changed:
                        sets = ", ".join(f"{k} = ?" for k in changed)
                        conn.execute(f"UPDATE episodes SET {sets} WHERE id = ?",
                                     [*changed.values(), e[0]])
                        bump(kind, "merged")
                    else:
                        bump(kind, "skipped")
                if inserts:
                    first = store.next_episode_id()  # purged ids are not given out again
                    rows = [(None if first is None else first + k, *row)
                            for k, row in enumerate(inserts)]
                    conn.executemany(
                        "INSERT INTO episodes(id, uid, conversation_id, user_text, "
                        "assistant_text, created_at, embedding, embedder, access_count, "
                        "last_access, importance, pinned, archived_at, archive_reason, "
                        "deleted_at, query_centroid, query_count, last_recall, source, meta) "
                        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
                    nu = [t[0] for t in inserts]
                    q2 = ",".join("?" * len(nu))
                    for uid, i in conn.execute(
                            f"SELECT uid, id FROM episodes WHERE uid IN ({q2})", nu):
                        ep_id[uid] = i
                        new_eps.add(i)
                    report.added[kind] += len(inserts)

        elif member == "messages.jsonl":
            for batch in batched(member, 500):
                uids = [r["uid"] for _, r in batch]
                q = ",".join("?" * len(uids))
                old = {r[0]: r for r in conn.execute(
                    f"SELECT uid, id, episode_id FROM messages WHERE uid IN ({q})", uids)}
                for where, r in batch:
                    eid = None if r["episode"] is None else ref(ep_id, r["episode"], where)
                    e = old.get(r["uid"])
                    if e is None:
                        cur = conn.execute(
                            "INSERT INTO messages(uid, conversation_id, role, content, "
                            "created_at, interrupted, episode_id, stats) VALUES (?,?,?,?,?,?,?,?)",
                            (r["uid"], ref(conv_id, r["conversation"], where), r["role"],
                             r["content"], r["created_at"], r["interrupted"], eid, r["stats"]))
                        msg_id[r["uid"]] = cur.lastrowid
                        bump(kind, "added")
                        continue
                    msg_id[r["uid"]] = e[1]
                    if e[2] is None and eid is not None:
                        conn.execute("UPDATE messages SET episode_id = ? WHERE id = ?",
                                     (eid, e[1]))
                        bump(kind, "merged")
                    else:
                        bump(kind, "skipped")

        elif member == "timelines.jsonl":
            for batch in batched(member, 1000):
                for where, r in batch:
                    ids = [ref(ep_id, u, where) for u in r["episodes"]]
                    cur = conn.execute(
                        'INSERT OR IGNORE INTO timelines(message_id, start, "end", episode_ids) '
                        "VALUES (?,?,?,?)",
                        (ref(msg_id, r["message"], where), r["start"], r["end"],
                         json.dumps(ids)))
                    bump(kind, "added" if cur.rowcount == 1 else "skipped")

        elif member == "edges.jsonl":
            _apply_edges(conn, plan, ep_id, new_eps, target_step, shift, lam, report, tick)

        elif member == "knowledge.jsonl":
            know_id: dict[str, int] = {}
            fix_superseded: list[tuple[int, str, str]] = []
            for batch in batched(member, 500):
                uids = [r["uid"] for _, r in batch]
                q = ",".join("?" * len(uids))
                old = {r[1]: r for r in conn.execute(
                    "SELECT id, uid, kind, text, embedding, embedder, updated_at, strength, "
                    f"superseded_by, access_count, last_access FROM knowledge WHERE uid IN ({q})",
                    uids)}
                for where, r in batch:
                    emb, embn, _own = vec_for("knowledge", r)
                    srcs = [ref(ep_id, u, where) for u in r["sources"]]
                    e = old.get(r["uid"])
                    if e is None:
                        cur = conn.execute(
                            "INSERT INTO knowledge(uid, kind, text, embedding, embedder, "
                            "created_at, updated_at, strength, archived_at, access_count, "
                            "last_access) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                            (r["uid"], r["kind"], r["text"], emb, embn, r["created_at"],
                             r["updated_at"], r["strength"], r["archived_at"],
                             r["access_count"], r["last_access"]))
                        kid = cur.lastrowid
                        know_id[r["uid"]] = kid
                        conn.executemany("INSERT OR IGNORE INTO knowledge_sources(knowledge_id, "
                                         "episode_id) VALUES (?, ?)", [(kid, s) for s in srcs])
                        if r["superseded_by"] is not None:
                            fix_superseded.append((kid, r["superseded_by"], where))
                        bump(kind, "added")
                        continue
                    kid = e[0]
                    know_id[r["uid"]] = kid
                    changed: dict[str, Any] = {}
                    if r["updated_at"] > e[6]:
                        changed.update(kind=r["kind"], text=r["text"], updated_at=r["updated_at"])
                        if emb is not None:
                            changed.update(embedding=emb, embedder=embn)
                    elif e[4] is None and emb is not None:
                        changed.update(embedding=emb, embedder=embn)
                    if r["strength"] > e[7]:
                        changed["strength"] = r["strength"]
                    if r["access_count"] > e[9]:
                        changed["access_count"] = r["access_count"]
                    la = _maxn(e[10], r["last_access"])
                    if la != e[10]:
                        changed["last_access"] = la
                    cur_vals = {"kind": e[2], "text": e[3], "embedding": e[4], "embedder": e[5],
                                "updated_at": e[6]}
                    changed = {k: v for k, v in changed.items()
                               if k not in cur_vals or cur_vals[k] != v}
                    if changed:
                        sets = ", ".join(f"{k} = ?" for k in changed)
                        conn.execute(f"UPDATE knowledge SET {sets} WHERE id = ?",
                                     [*changed.values(), kid])
                    added_src = 0
                    for s in srcs:
                        added_src += conn.execute(
                            "INSERT OR IGNORE INTO knowledge_sources(knowledge_id, episode_id) "
                            "VALUES (?, ?)", (kid, s)).rowcount
                    if e[8] is None and r["superseded_by"] is not None:
                        fix_superseded.append((kid, r["superseded_by"], where))
                        changed["superseded_by"] = True
                    bump(kind, "merged" if (changed or added_src) else "skipped")
            for kid, target_uid, where in fix_superseded:
                conn.execute("UPDATE knowledge SET superseded_by = ? WHERE id = ?",
                             (ref(know_id, target_uid, where), kid))
    if name_meta and not store.has_unnamed_vectors():
        store.delete_meta("embedder")


def _apply_edges(conn: sqlite3.Connection, plan: _Plan, ep_id: dict[str, int],
                 new_eps: set[int], target_step: int, shift: int, lam: float,
                 report: ImportReport, tick: Callable[[int], None]) -> None:
    """Write the validated edges (kept in `plan`): plain inserts for edges that touch a new
    memory, the merge rule for edges between two memories the store already had."""
    n_eps = len(plan.ep_index)
    ids = np.zeros(n_eps, dtype=np.int64)
    fresh_ep = np.zeros(n_eps, dtype=bool)
    for uid, i in plan.ep_index.items():
        eid = ep_id.get(uid)
        if eid is None:
            raise _Bad(f"memory {uid!r} vanished (file changed while importing?)",
                       "edges.jsonl")
        ids[i] = eid
        fresh_ep[i] = eid in new_eps
    e_a = np.frombuffer(plan.e_a, dtype=np.int64) if len(plan.e_a) else np.zeros(0, np.int64)
    e_b = np.frombuffer(plan.e_b, dtype=np.int64) if len(plan.e_b) else np.zeros(0, np.int64)
    decay = 1.0 - lam
    chunk = 20_000
    for lo in range(0, len(e_a), chunk):
        hi = min(lo + chunk, len(e_a))
        a, b = ids[e_a[lo:hi]], ids[e_b[lo:hi]]
        src, dst = np.minimum(a, b).tolist(), np.maximum(a, b).tolist()
        fresh = (fresh_ep[e_a[lo:hi]] | fresh_ep[e_b[lo:hi]]).tolist()
        w, p = plan.e_weight[lo:hi], plan.e_prior[lo:hi]
        c, u = plan.e_count[lo:hi], plan.e_updated[lo:hi]
        steps = [st + shift for st in plan.e_step[lo:hi]]
        inserts = []
        for j in range(hi - lo):
            row = (src[j], dst[j], w[j], p[j], c[j], steps[j], u[j])
            if fresh[j]:
                inserts.append(row)
                continue
            e = conn.execute("SELECT weight, prior, count, step, updated_at FROM edges "
                             "WHERE src = ? AND dst = ?", (src[j], dst[j])).fetchone()
            if e is None:
                inserts.append(row)
                continue
            # keep the weight whose decayed value is larger now, with its step
            eff_old = e[0] * decay ** max(target_step - e[3], 0)
            eff_new = w[j] * decay ** max(target_step - steps[j], 0)
            ww, ss = (w[j], steps[j]) if eff_new > eff_old else (e[0], e[3])
            merged = (ww, max(e[1], p[j]), max(e[2], c[j]), ss, max(e[4], u[j]))
            if merged != tuple(e):
                conn.execute("UPDATE edges SET weight=?, prior=?, count=?, step=?, updated_at=? "
                             "WHERE src=? AND dst=?", (*merged, src[j], dst[j]))
                report.merged["edges"] += 1
            else:
                report.skipped["edges"] += 1
        if inserts:
            conn.executemany("INSERT INTO edges(src, dst, weight, prior, count, step, updated_at)"
                             " VALUES (?,?,?,?,?,?,?)", inserts)
            report.added["edges"] += len(inserts)
        tick(hi - lo)


# ======================================================================= CLI ===========
def _parse_date(text: str, *, end: bool = False) -> float:
    """A CLI date: ``YYYY-MM-DD`` (local midnight; with ``end``, the following midnight,
    so ``--until`` includes that day) or a full ISO date-time."""
    t = text.strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", t):
            d = _dt.datetime.fromisoformat(t)
            if end:
                d += _dt.timedelta(days=1)
            return d.timestamp()
        return _dt.datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp()
    except ValueError:
        import argparse

        raise argparse.ArgumentTypeError(f"not a date: {text!r} (use YYYY-MM-DD)") from None


def add_cli(subparsers) -> None:
    """Register ``export`` and ``import`` subcommands on an argparse subparsers object.

    Each sets ``func(args) -> int`` and expects ``args.data_dir`` (a resolved Path).
    """
    p = subparsers.add_parser(
        "export", help="export memories to a .hela file (or Markdown)",
        description="Export the memory store, or a selection of it, to a memory file.")
    p.add_argument("file", type=Path, help="output file (.hela, or .md for Markdown)")
    p.add_argument("--format", choices=["native", "markdown"], default=None,
                   help="native .hela archive (default) or Markdown (default for *.md)")
    p.add_argument("--conversation", type=int, default=None, metavar="ID",
                   help="only the memories of this conversation")
    p.add_argument("--since", type=_parse_date, default=None, metavar="DATE",
                   help="only memories created on or after DATE (YYYY-MM-DD or ISO)")
    p.add_argument("--until", type=lambda s: _parse_date(s, end=True), default=None,
                   metavar="DATE", help="only memories created on or before DATE")
    p.add_argument("--search", default=None, metavar="TEXT",
                   help="only memories matching this full-text search")
    p.add_argument("--no-embeddings", action="store_true",
                   help="leave embeddings out (smaller; recomputed on import)")
    p.add_argument("--no-conversations", action="store_true",
                   help="leave chat transcripts out")
    p.set_defaults(func=_cli_export)

    q = subparsers.add_parser(
        "import", help="import a .hela file, a JSON list of memories, a text file, a "
                       "ChatGPT / Claude / Open WebUI / Jan export or a notes folder",
        description="Import memories; the file is checked completely before anything is "
                    "written, and a refused file changes nothing.  Conversation exports "
                    "(ChatGPT, Claude, Open WebUI, Jan) and Markdown notes folders are "
                    "recognised from their content; importing one twice adds nothing.")
    q.add_argument("file", type=Path, help="file or folder to import")
    q.add_argument("--dry-run", action="store_true",
                   help="check the file and show what would change, without writing")
    q.add_argument("--json", action="store_true", help="print the report as one JSON object")
    q.add_argument("--progress", action="store_true",
                   help="print progress on stderr even when it is not a terminal")
    q.set_defaults(func=_cli_import)


EXIT_REFUSED, EXIT_ENVIRONMENT = 2, 3  # the exit codes of the CLI (README)


def _open_store(args) -> Store | None:
    try:
        return Store(args.data_dir)
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None


def _cli_export(args) -> int:
    fmt = args.format or ("markdown" if args.file.suffix.lower() in (".md", ".markdown")
                          else "native")
    sel = Selection(conversation=args.conversation, since=args.since, until=args.until,
                    search=args.search)
    store = _open_store(args)
    if store is None:
        return EXIT_ENVIRONMENT
    try:
        with store:
            if args.conversation is not None and not store.conversation_exists(args.conversation):
                print(f"error: no conversation with id {args.conversation}", file=sys.stderr)
                return 2
            rep = export_store(store, args.file, fmt=fmt, selection=sel,
                               include_embeddings=not args.no_embeddings,
                               include_conversations=not args.no_conversations)
    except OSError as exc:
        print(f"error: {args.file}: cannot write ({exc.strerror or exc})", file=sys.stderr)
        return EXIT_ENVIRONMENT
    print(rep.summary())
    return 0


def _cli_import(args) -> int:
    from .config import Settings

    try:
        lam = Settings.load(args.data_dir).hela.lam
    except ValueError:
        lam = None
    store = _open_store(args)
    if store is None:
        return EXIT_ENVIRONMENT
    show = _ProgressPrinter(sys.stderr) if (args.progress or sys.stderr.isatty()) else None
    try:
        with store:
            rep = import_file(store, args.file, dry_run=args.dry_run, lam=lam,
                              progress=show and show.progress, stage=show and show.stage)
    except MemoryFileError as exc:
        if show is not None:
            show.finish()
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    if show is not None:
        show.finish()
    print(json.dumps(rep.as_dict(), ensure_ascii=False) if args.json else rep.summary())
    return 0


class ProgressText:
    """Import progress in words, for the command line and the app: feed it `stage` and
    `progress` (as `import_file` calls them) and read `text`, e.g. ``"embedding: 1200 of
    10000 texts (85 per s)"``."""

    def __init__(self) -> None:
        self.name, self.start, self.end, self.t0 = "", 0, 0, time.perf_counter()
        self.text = ""

    def stage(self, name: str, start: int, end: int) -> None:
        self.name, self.start, self.end, self.t0 = name, start, end, time.perf_counter()

    def progress(self, done: int, total: int) -> str:
        if self.name == "reading":
            self.text = f"reading: {done / 2**20:.1f} of {total / 2**20:.1f} MB"
        elif self.name == "embedding":
            n = done - self.start
            dt = time.perf_counter() - self.t0
            rate = f" ({n / dt:.0f} per s)" if dt > 0 and n > 0 else ""
            self.text = f"embedding: {n} of {self.end - self.start} texts{rate}"
        else:
            pct = 100 * done / total if total else 0
            self.text = f"{self.name or 'working'}: {pct:.0f} %"
        return self.text


class _ProgressPrinter(ProgressText):
    """Import progress on a terminal (one line rewritten) or a log (a line every 2 s)."""

    def __init__(self, out):
        super().__init__()
        self.out = out
        self.tty = out.isatty()
        self.last = 0.0
        self.shown = False

    def stage(self, name: str, start: int, end: int) -> None:
        super().stage(name, start, end)
        self.last = 0.0

    def progress(self, done: int, total: int) -> str:
        now = time.perf_counter()
        if now - self.last < (0.25 if self.tty else 2.0) and done < total:
            return self.text
        self.last = now
        text = super().progress(done, total)
        self.out.write("\r\x1b[K" + text if self.tty else text + "\n")
        self.out.flush()
        self.shown = True
        return text

    def finish(self) -> None:
        if self.tty and self.shown:
            self.out.write("\r\x1b[K")
            self.out.flush()


__all__ = [
    "FORMAT_NAME", "FORMAT_VERSION", "ExportReport", "ImportCancelled", "ImportReport", "Limits",
    "MemoryFileError", "ProgressText", "json_list_items",
    "Selection", "add_cli", "export_store", "import_file",
]


