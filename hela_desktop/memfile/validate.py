"""Validation of a memory file: the field checkers and per-member schemas, and the one
read of a whole file (`_validate`) that checks every record and reference before anything
is written, and plans the write (uid maps, what needs embedding, the edges, compactly).
"""

from __future__ import annotations

import base64
import binascii
import datetime as _dt
import math
from array import array
from collections.abc import Callable
from typing import Any

import numpy as np

from ..store import key_text
from ..store.transfer import erased_among, uids_with_embedding
from ..words import printable
from .format import (
    _INT_MAX,
    _STEP_MAX,
    _UID_RE,
    FORMAT_VERSION,
    NUMBER_MAX,
    TIME_MAX,
    TIME_MIN,
    Limits,
    Progress,
    _Bad,
    _chunks,
    _obj_text,
    _Source,
    _tn,
    _where,
)

Schema = list[tuple[str, Callable[[Any], Any], bool]]


# ------------------------------------------------------------- field checkers -----------

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


def _c_unit(v: Any) -> float:
    """A number from 0 to 1: a link's weight or prior, a memory's importance (a hostile
    file's weight of 1e308, or -5, was taken as it stood: one memory then outweighed every
    other, or a link pushed its memories down)."""
    v = _c_float(v)
    if not 0.0 <= v <= 1.0:
        raise _Bad(f"{v:g} is out of range (0 to 1)")
    return v


def _not_negative(v: float) -> float:
    if v < 0:
        raise _Bad("must not be negative")
    return v


def _c_nonneg(v: Any) -> float:
    return _not_negative(_c_float(v))


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


def _c_step(v: Any) -> int:
    """A Hebbian step: an integer within ±2**53 (so rebasing never overflows)."""
    v = _c_int(v)
    if not -_STEP_MAX <= v <= _STEP_MAX:
        raise _Bad("step out of range (±2**53)")
    return v


def _c_count(v: Any) -> int:
    return int(_not_negative(_c_int(v)))


def _c_number(v: Any) -> int:
    """A memory's number: 1 to `NUMBER_MAX`."""
    v = _c_int(v)
    if not 1 <= v <= NUMBER_MAX:
        raise _Bad(f"number out of range (1 to 2**53), got {v}")
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
            raise _Bad(f"text too long ({len(v):,} characters, limit {cap:,})")
        if not v.isascii():
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                raise _Bad("invalid Unicode (lone surrogate)") from None
        return printable(v)  # no terminal escapes, no BEL (`words.printable`)

    return check


def _make_vec(limits: Limits) -> Callable[[Any], bytes]:
    cap = limits.max_vector_dim

    def check(v: Any) -> bytes:
        if type(v) is not str:
            raise _Bad(f"expected base64 float32 data, got {_tn(v)}")
        if len(v) > (cap * 4 * 4) // 3 + 4:
            raise _Bad(f"vector too long (limit {cap:,} dimensions)")
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
    n, b, u, r, t = _c_count, _c_bool, _c_uid, _c_ref, _c_time
    return {
        "conversations.jsonl": [
            ("uid", u, REQ), ("title", s, REQ), ("created_at", t, REQ), ("updated_at", t, REQ),
        ],
        "episodes.jsonl": [
            ("uid", u, REQ), ("number", _c_number, OPT), ("conversation", _opt(r), REQ),
            ("user_text", s, REQ),
            ("assistant_text", s, REQ), ("created_at", t, REQ), ("embedder", _opt(s), REQ),
            ("embedding", _opt(vec), OPT), ("access_count", n, REQ),
            ("last_access", _opt(t), REQ), ("importance", _c_unit, REQ), ("pinned", b, REQ),
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
            ("a", r, REQ), ("b", r, REQ), ("weight", _c_unit, REQ), ("prior", _c_unit, REQ),
            ("count", n, REQ), ("step", _c_step, REQ), ("updated_at", t, REQ),
        ],
        "knowledge.jsonl": [
            ("uid", u, REQ), ("kind", _enum("user_model", "fact", "persona"), REQ),
            ("text", s, REQ), ("embedder", _opt(s), REQ), ("embedding", _opt(vec), OPT),
            ("created_at", t, REQ), ("updated_at", t, REQ), ("strength", _c_nonneg, REQ),
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
            and 0.0 <= w <= 1.0 and 0.0 <= p <= 1.0 and TIME_MIN <= u <= TIME_MAX):
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
# text fields: control characters removed (`words.printable`), as `_make_str` does
_TEXT_FIELDS = {
    "conversations.jsonl": ("title",),
    "episodes.jsonl": ("user_text", "assistant_text", "archive_reason", "source", "embedder"),
    "messages.jsonl": ("content",),
    "knowledge.jsonl": ("text", "embedder"),
}
_NEEDS_NORMALISING = {*_VEC_FIELDS, *_OBJ_FIELDS, *_BOOL_FIELDS, *_FLOAT_FIELDS, *_TEXT_FIELDS}


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
    for k in _TEXT_FIELDS.get(member, ()):
        v = obj.get(k)
        if v is not None:
            obj[k] = printable(v)
    return obj


def _parse_iso(v: Any) -> float:
    """A plain memory's date: an ISO string (or Unix seconds) within the time range."""
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


# ------------------------------------------------------------------- vectors ------------
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


def _wrong_vector(rec: dict, file_embedder: str | None, target: str) -> bool:
    """The record brings a vector from the target's embedder that cannot be used."""
    v = rec.get("embedding")
    name = rec.get("embedder") or file_embedder
    return v is not None and (name is None or name == target)


# ------------------------------------------------------------- the one read --------
class _Plan:
    """What validation learned: uid maps, texts to embed, counts."""

    def __init__(self) -> None:
        self.conv_uids: set[str] = set()
        self.ep_index: dict[str, int] = {}
        self.msg_uids: set[str] = set()
        self.know_uids: set[str] = set()
        self.superseded: list[tuple[str, str, str]] = []  # (where, uid, target uid)
        self.to_embed: list[tuple[str, str, str]] = []  # (table, uid, text)
        # memories of the file the user deleted for good here: left out, with what needs
        # them (an import that holds one changes nothing for it: no backup, `merge`)
        self.erased: set[str] = set()
        # the memories' numbers (format 3), and whether every memory has one: then an
        # import into a data folder that never held memories keeps them
        self.numbers: set[int] = set()
        self.numbered = True
        self.bad_vectors = 0  # vectors of the wrong size or length: embedded again
        self.records = 0
        # the validated edges, compactly (file episode indices, values): written from here,
        # so edges.jsonl is read only once
        self.e_a, self.e_b, self.e_line = array("q"), array("q"), array("q")
        self.e_count, self.e_step = array("q"), array("q")
        self.e_weight, self.e_prior, self.e_updated = array("d"), array("d"), array("d")


class _Checker:
    """The checks of `_validate`, one method per member; each takes a record and its
    location and fills the plan."""

    def __init__(self, src: _Source, conn: Any, target_name: str, dim: int | None) -> None:
        self.plan = _Plan()
        self.conn = conn
        self.target = target_name
        self.dim = dim
        self.file_emb = src.manifest.get("embedder")
        # a version-1 file's vectors were made from the whole exchange: re-made
        self.exchange_keyed = int(src.manifest.get("version") or FORMAT_VERSION) < 2
        # (uid, text) that may need embedding, per table (checked against the store in 500s)
        self.pending: dict[str, list[tuple[str, str]]] = {"episodes": [], "knowledge": []}
        self.spans: set[tuple[str, int]] = set()
        self.ep_uids: list[str] = []  # checked against the store's erased uids in 500s
        self.by_member: dict[str, Callable[[dict, int | str], None]] = {
            "conversations.jsonl": self.conversation, "episodes.jsonl": self.episode,
            "messages.jsonl": self.message, "timelines.jsonl": self.timeline,
            "edges.jsonl": self.edge, "knowledge.jsonl": self.knowledge,
        }

    def flush(self, table: str) -> None:
        """Queue for embedding the pending texts whose uid the store lacks a vector for
        (a memory deleted for good here is not embedded)."""
        items = self.pending[table]
        if table == "episodes":
            self.flush_erased()
        erased = self.plan.erased
        for chunk in _chunks(items, 500):
            have = uids_with_embedding(self.conn, table, [u for u, _ in chunk])
            self.plan.to_embed.extend((table, u, t) for u, t in chunk
                                      if u not in have and u not in erased)
        items.clear()

    def flush_erased(self) -> None:
        """Note the memories seen so far that the user deleted for good here."""
        for chunk in _chunks(self.ep_uids, 500):
            self.plan.erased |= erased_among(self.conn, chunk)
        self.ep_uids.clear()

    def _queue(self, table: str, uid: str, text: str) -> None:
        self.pending[table].append((uid, text))
        if len(self.pending[table]) >= 500:
            self.flush(table)

    def _vector_kept(self, rec: dict) -> bool:
        keep = _keep_vector(rec, self.file_emb, self.target, self.dim)
        if not keep:
            self.plan.bad_vectors += _wrong_vector(rec, self.file_emb, self.target)
        return keep

    def conversation(self, rec: dict, loc: int | str) -> None:
        if rec["uid"] in self.plan.conv_uids:
            raise _Bad(f"duplicate uid {rec['uid']!r}", _where("conversations.jsonl", loc))
        self.plan.conv_uids.add(rec["uid"])

    def episode(self, rec: dict, loc: int | str) -> None:
        plan, uid = self.plan, rec["uid"]
        if uid in plan.ep_index:
            raise _Bad(f"duplicate uid {uid!r}", _where("episodes.jsonl", loc))
        c = rec["conversation"]
        if c is not None and c not in plan.conv_uids:
            raise _Bad(f"field 'conversation': unknown conversation {c!r}",
                       _where("episodes.jsonl", loc))
        plan.ep_index[uid] = len(plan.ep_index)
        number = rec.get("number")
        if number is None:
            plan.numbered = False
        elif number in plan.numbers:
            raise _Bad(f"duplicate number {number}", _where("episodes.jsonl", loc))
        else:
            plan.numbers.add(number)
        self.ep_uids.append(uid)
        if len(self.ep_uids) >= 500:
            self.flush_erased()
        keep = self._vector_kept(rec)
        if not keep or (self.exchange_keyed and rec["assistant_text"] and rec.get("embedding")):
            self._queue("episodes", uid, key_text(rec["user_text"], rec["assistant_text"]))

    def message(self, rec: dict, loc: int | str) -> None:
        plan, where = self.plan, "messages.jsonl"
        if rec["uid"] in plan.msg_uids:
            raise _Bad(f"duplicate uid {rec['uid']!r}", _where(where, loc))
        if rec["conversation"] not in plan.conv_uids:
            raise _Bad(f"field 'conversation': unknown conversation "
                       f"{rec['conversation']!r}", _where(where, loc))
        e = rec["episode"]
        if e is not None and e not in plan.ep_index:
            raise _Bad(f"field 'episode': unknown memory {e!r}", _where(where, loc))
        plan.msg_uids.add(rec["uid"])

    def timeline(self, rec: dict, loc: int | str) -> None:
        where = "timelines.jsonl"
        if rec["message"] not in self.plan.msg_uids:
            raise _Bad(f"field 'message': unknown message {rec['message']!r}",
                       _where(where, loc))
        key = (rec["message"], rec["start"])
        if key in self.spans:
            raise _Bad("duplicate timeline span (same message and start)", _where(where, loc))
        self.spans.add(key)
        for e in rec["episodes"]:
            if e not in self.plan.ep_index:
                raise _Bad(f"field 'episodes': unknown memory {e!r}", _where(where, loc))

    def edge(self, rec: dict, loc: int | str) -> None:
        plan = self.plan
        ia = plan.ep_index.get(rec["a"])
        ib = plan.ep_index.get(rec["b"])
        if ia is None:
            raise _Bad(f"field 'a': unknown memory {rec['a']!r}", _where("edges.jsonl", loc))
        if ib is None:
            raise _Bad(f"field 'b': unknown memory {rec['b']!r}", _where("edges.jsonl", loc))
        if ia == ib:
            raise _Bad("an edge must join two different memories", _where("edges.jsonl", loc))
        plan.e_line.append(loc if isinstance(loc, int) else 0)
        plan.e_a.append(ia)
        plan.e_b.append(ib)
        plan.e_weight.append(rec["weight"])
        plan.e_prior.append(rec["prior"])
        plan.e_count.append(rec["count"])
        plan.e_step.append(rec["step"])
        plan.e_updated.append(rec["updated_at"])

    def knowledge(self, rec: dict, loc: int | str) -> None:
        plan, uid = self.plan, rec["uid"]
        if uid in plan.know_uids:
            raise _Bad(f"duplicate uid {uid!r}", _where("knowledge.jsonl", loc))
        plan.know_uids.add(uid)
        for e in rec["sources"]:
            if e not in plan.ep_index:
                raise _Bad(f"field 'sources': unknown memory {e!r}",
                           _where("knowledge.jsonl", loc))
        if rec["superseded_by"] is not None:
            plan.superseded.append((_where("knowledge.jsonl", loc), uid, rec["superseded_by"]))
        if not self._vector_kept(rec):
            self._queue("knowledge", uid, rec["text"])


def _ignore(rec: dict, loc: int | str) -> None:
    """A member no check knows (none today): its records are read and counted only."""


def _validate(src: _Source, conn: Any, target_name: str, dim: int | None,
              progress: Progress | None, total: int) -> _Plan:
    """Read the whole file once, checking every record and reference; nothing is written.

    Returns the plan for writing: uid maps, what needs embedding, the edges (compactly).
    `conn` is the store's connection (to see which memories already have vectors).
    """
    checker = _Checker(src, conn, target_name, dim)
    plan = checker.plan
    done = 0
    for member in src.members:
        check = checker.by_member.get(member, _ignore)
        for loc, rec in src.records(member):
            done += 1
            if progress is not None and done % 2000 == 0:
                progress(done, total)
            check(rec, loc)
        checker.flush("episodes")
        checker.flush("knowledge")
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
