"""The memory-file format and its limits: names, versions, members, the error a refused
file raises, size limits, JSON encoding, the archive-member check, and the interface every
source of records implements (`_Source`).

Nothing here reads a store or a file; the other stages of `hela_desktop.memfile`
(validation, readers, export, merge) build on it, and so do the history importers.
"""

from __future__ import annotations

import base64
import json
import os
import re
import zipfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT_NAME = "hela-memory"
# 3: an episode may carry its `number` (the id the user knows it by, kept by an import into
# a data folder that never held memories); 2: an episode's embedding is of the user's words
# alone (1: of the whole exchange; such vectors are re-made on import)
FORMAT_VERSION = 3
NUMBER_MAX = 2**53  # an episode's number, at most
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

Progress = Callable[[int, int], object]  # progress(done, total); what it returns is ignored


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


# ======================================================================= helpers ======
class _Bad(Exception):
    """Internal: a problem with the file; converted to MemoryFileError(path, where, what)."""

    def __init__(self, what: str, where: str = ""):
        super().__init__(what)
        self.what = what
        self.where = where


class _TooLarge(_Bad):
    """An item of a JSON list larger than the reader takes: said as such, never taken for a
    sign that the file is of another kind (a ChatGPT export whose first conversation is
    too large was read again as a list of memories, and refused under their smaller
    limit: "item larger than 16777216 bytes")."""

    def __init__(self, limit: int, where: str):
        super().__init__(f"larger than {limit / 2**20:g} MiB: more than HeLa reads as one "
                         "item (a conversation of an export, a memory)", where)


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


def _obj_text(v: Any) -> str:
    """How a JSON column (meta, last_recall, stats) is stored."""
    return json.dumps(v, ensure_ascii=False, allow_nan=False)


def stats_to_file(stats: Any, id2uid: Mapping[int, str]) -> Any:
    """A message's statistics as a memory file carries them: the memories they name by the
    store's ids (`memories[].episode_id`, `corrects[].episode_id`, `repeat_of`, `drew_on`) also by uid (`episode_uid`,
    `repeat_of_uid`, `drew_on_uids`), so the store that imports the file can name them by its own ids."""
    if not isinstance(stats, dict):
        return stats
    out = dict(stats)
    for key in ("memories", "corrects"):  # (what a correction corrected: the store reads
        mems = stats.get(key)  # those it recorded, `Store.recorded_corrections`)
        if isinstance(mems, list):
            out[key] = [
                {**r, "episode_uid": id2uid[r["episode_id"]]}
                if isinstance(r, dict) and r.get("episode_id") in id2uid else r for r in mems]
    if stats.get("repeat_of") in id2uid:
        out["repeat_of_uid"] = id2uid[stats["repeat_of"]]
    drew_on = stats.get("drew_on")
    if isinstance(drew_on, list):
        out["drew_on_uids"] = [id2uid[i] for i in drew_on
                               if isinstance(i, int) and i in id2uid]
    return out


def stats_from_file(text: str | None, uid2id: Mapping[str, int]) -> str | None:
    """Statistics read from a file (JSON text, any value) with the memories they name given
    this store's ids: found by uid, or none (an id of the store that wrote the file would
    name another memory here)."""
    if text is None:
        return None
    stats = json.loads(text)
    if not isinstance(stats, dict):
        return text

    def here(uid: Any) -> int | None:
        return uid2id.get(uid) if isinstance(uid, str) else None

    for key in ("memories", "corrects"):
        mems = stats.get(key)
        if isinstance(mems, list):
            stats[key] = [{**r, "episode_id": here(r.get("episode_uid"))}
                          if isinstance(r, dict) and "episode_id" in r else r for r in mems]
    if "repeat_of" in stats:
        stats["repeat_of"] = here(stats.get("repeat_of_uid"))
    if "drew_on" in stats:
        uids = stats.get("drew_on_uids")
        found = (here(u) for u in uids) if isinstance(uids, list) else ()
        stats["drew_on"] = [i for i in found if i is not None]
    return _obj_text(stats)


# times are Unix seconds that every date function can show: years 1 to 9999 (a day inside
# each end, so local-time conversion never overflows)
TIME_MIN = -62135596800.0 + 2 * 86400
TIME_MAX = 253402300799.0 - 2 * 86400
_STEP_MAX = 2**53  # a Hebbian step's bound (so rebasing never overflows)


def _where(member: str, loc: int | str) -> str:
    """A record's place in words: a line number of `member`, or a description as is."""
    return loc if isinstance(loc, str) else f"{member} line {loc}"


def _chunks(seq: list, n: int) -> Iterator[list]:
    for i in range(0, len(seq), n):
        yield seq[i:i + n]


def check_zip_member(info: zipfile.ZipInfo, lim: Limits, where: str) -> None:
    """Refuse an encrypted member, an unknown compression method or a ratio that marks a
    decompression bomb (shared by memory files and zipped history exports)."""
    if info.flag_bits & 0x1:
        raise _Bad("encrypted members are not supported", where)
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise _Bad(f"unsupported compression method {info.compress_type}", where)
    if info.file_size > lim.ratio_floor and \
            info.file_size > lim.max_ratio * max(info.compress_size, 1):
        raise _Bad(f"compression ratio {info.file_size / max(info.compress_size, 1):.0f}:1 "
                   f"exceeds {lim.max_ratio:.0f}:1 (possible decompression bomb)", where)


class _Source:
    """A validated-on-read view of a memory file: records per member (the `.hela` reader,
    the plain JSON / text reader and every history source implement it)."""

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
