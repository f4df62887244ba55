"""Readers of memory files: the native ``.hela`` archive (`_NativeSource`) and plain files
(`_PlainSource`: a JSON list of memories in the streaming-memory layout, or text /
Markdown, one memory per paragraph), plus `json_list_items`, the incremental reader of a
top-level JSON list that the history importers share.

Every reader checks sizes while it reads and hands out records that passed the schema of
`validate`; which reader a path needs is decided in `detect`.
"""

from __future__ import annotations

import codecs
import contextlib
import hashlib
import json
import math
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .format import (
    _DECODER,
    CONVERSATION_MEMBERS,
    FORMAT_NAME,
    FORMAT_VERSION,
    MANIFEST,
    MEMBER_ORDER,
    PLAIN_SOURCE,
    REQUIRED_MEMBERS,
    Limits,
    _Bad,
    _loads,
    _reject_constant,
    _Source,
    _tn,
    _TooLarge,
    check_zip_member,
)
from .streams import _prefetch
from .validate import (
    _FAST_PARSERS,
    _NEEDS_NORMALISING,
    _c_count,
    _c_step,
    _c_unit,
    _make_str,
    _opt,
    _parse_iso,
    _parse_record,
    _schemas,
    _trusted_record,
)

_CHUNK = 4 * 2**20  # read size for archive members and plain JSON


# ====================================================================== .hela =========
def _check_version(m: dict) -> None:
    """The manifest names this format, in a version this reader knows."""
    w = MANIFEST
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
            # (a conversation export's zip comes here too when it cannot be read at all)
            raise _Bad(f"a zip archive that cannot be read ({exc}): it is cut short or "
                       "damaged; download or copy it again", "archive") from None
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
            raise _Bad(f"too large ({info.file_size:,} bytes, limit {cap:,})", name)
        try:
            with self.zf.open(info) as fh:
                data = fh.read(cap + 1)
        except Exception as exc:  # noqa: BLE001 - corrupt data: zlib.error, BadZipFile, ...
            raise _Bad(f"corrupt archive data ({exc})", name) from None
        if len(data) > cap:
            raise _Bad(f"too large (limit {cap:,} bytes)", name)
        return data

    def _read_manifest(self) -> dict:
        m = _loads(self._read_member_bytes(MANIFEST, self.limits.max_manifest_bytes))
        if type(m) is not dict:
            raise _Bad(f"expected a JSON object, got {_tn(m)}", MANIFEST)
        _check_version(m)
        self._check_manifest_fields(m)
        present = self._check_counts(m)
        for name in REQUIRED_MEMBERS:
            if name not in present:
                raise _Bad(f"required member {name} is missing", "archive")
        conv = [n for n in CONVERSATION_MEMBERS if n in present]
        if conv and len(conv) != len(CONVERSATION_MEMBERS):
            raise _Bad("conversations.jsonl, messages.jsonl and timelines.jsonl come together",
                       "archive")
        self.members = tuple(n for n in MEMBER_ORDER if n in present)
        return m

    def _check_manifest_fields(self, m: dict) -> None:
        text = _opt(_make_str(self.limits))
        checks = {
            "app_version": text, "created_at": text, "embedder": text, "dim": _opt(_c_count),
            "hebbian_step": _c_step,
        }
        for key, check in checks.items():
            try:
                m[key] = check(m.get(key, None if key != "hebbian_step" else 0))
            except _Bad as bad:
                raise _Bad(bad.what, f"{MANIFEST}, field '{key}'") from None

    def _check_counts(self, m: dict) -> set[str]:
        """The members the manifest counts, which must be the archive's; returns them."""
        w = MANIFEST
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
        return present

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

    def records(self, member: str, trusted: bool = False) -> Iterator[tuple[int, dict]]:
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

# ================================================================ plain files =========
def _plain_uid(prefix: str, *parts: str) -> str:
    h = hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{prefix}-{h[:40]}"


def _plain_episode(uid: str, content: str, created_at: float, importance: float,
                   meta: str | dict | None) -> dict:
    return {
        "uid": uid, "conversation": None, "user_text": content, "assistant_text": "",
        "created_at": created_at, "embedder": None, "access_count": 0, "last_access": None,
        "importance": importance, "pinned": 0, "archived_at": None, "archive_reason": None,
        "deleted_at": None, "query_count": 0, "last_recall": None, "source": PLAIN_SOURCE,
        "meta": meta,
    }


class _ListReader:
    """The text of a JSON document read in blocks: a buffer, a position, and more on
    demand (`json_list_items`)."""

    def __init__(self, fh: Any, on_read: Callable[[bytes], None] | None, where: str) -> None:
        self.fh = fh
        self.on_read = on_read
        self.where = where
        self.udec = codecs.getincrementaldecoder("utf-8")()
        self.buf = ""
        self.pos = 0
        self.eof = False

    def more(self) -> bool:
        """Read the next block onto the buffer (dropping what was consumed); False at the
        end of the file."""
        if self.eof:
            return False
        chunk = self.fh.read(_CHUNK)
        if self.on_read is not None and chunk:
            self.on_read(chunk)
        try:
            text = self.udec.decode(chunk, final=not chunk)
        except UnicodeDecodeError as exc:
            raise _Bad(f"not UTF-8 text ({exc.reason})", self.where) from None
        if not chunk:
            self.eof = True
        if not self.buf and not self.pos and text.startswith("\ufeff"):
            text = text[1:]
        self.buf = self.buf[self.pos:] + text
        self.pos = 0
        return bool(chunk)

    def skip_ws(self) -> None:
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in " \t\r\n":
                self.pos += 1
            if self.pos < len(self.buf) or not self.more():
                return

    def peek(self) -> str:
        """The next character ("" at the end of the file)."""
        return self.buf[self.pos] if self.pos < len(self.buf) else ""

    def grow(self, lim: int) -> bool:
        """Read on until the unread text has doubled (at most a little past `lim`), or the
        file ends; False when nothing more came.  A large item was decoded again after
        every block (4 MiB) read: work growing with the square of its size, each attempt
        holding the interpreter's lock the whole time (the window stood still for up to a
        second at a time over one 25 MB conversation)."""
        target = min(2 * (len(self.buf) - self.pos), lim + 1)
        grown = self.more()
        while grown and len(self.buf) - self.pos < target and self.more():
            pass
        return grown

    def value(self, dec: json.JSONDecoder, index: int, lim: int) -> Any:
        """Decode the JSON value at the position (item `index`, at most `lim` bytes)."""
        while True:
            try:
                obj, end = dec.raw_decode(self.buf, self.pos)
            except RecursionError:
                raise _Bad("JSON nested too deeply", f"item {index}") from None
            except ValueError as exc:
                if len(self.buf) - self.pos > lim:
                    raise _TooLarge(lim, f"item {index}") from None
                if self.grow(lim):
                    continue
                if _ends_early(exc, self.buf):
                    raise _Bad("not valid JSON: the file ends inside this item, so it is cut "
                               "short; download or copy it again", f"item {index}") from None
                raise _Bad(f"not valid JSON ({exc})", f"item {index}") from None
            # a number at the end of the buffer may continue in the next chunk
            if end >= len(self.buf) and self.more():
                continue
            self.pos = end
            return obj


def _ends_early(exc: ValueError, buf: str) -> bool:
    """The decoder ran out of text (a file cut short), rather than meeting a wrong one."""
    pos = getattr(exc, "pos", None)
    return isinstance(exc, json.JSONDecodeError) and pos is not None and (
        exc.msg.startswith("Unterminated string") or not buf[pos:].strip())


def json_list_items(fh: Any, limits: Limits, *, noun: str = "memories", where: str = "file",
                    max_item: int | None = None,
                    on_read: Callable[[bytes], None] | None = None) -> Iterator[tuple[int, Any]]:
    """Yield (1-based index, item) of a top-level JSON list read from the binary file `fh`
    in blocks, without loading the whole file; no item may be larger than `max_item` bytes
    (default: the line limit).  `on_read(block)` sees every block read (progress, checksums).
    Problems raise `_Bad` naming `where` or the item."""
    dec = json.JSONDecoder(parse_constant=_reject_constant)
    lim = limits.max_line_bytes if max_item is None else max_item
    r = _ListReader(fh, on_read, where)
    r.skip_ws()
    if r.peek() != "[":
        raise _Bad(f"expected a JSON list of {noun}", where)
    r.pos += 1
    index = 0
    while True:
        r.skip_ws()
        c = r.peek()
        if not c:
            raise _Bad("truncated JSON (the list is not closed)", where)
        if c == "]":
            r.pos += 1
            r.skip_ws()
            if r.peek():
                raise _Bad("extra data after the JSON list", where)
            return
        if index:
            if c != ",":
                raise _Bad(f"expected ',' or ']' after item {index}", where)
            r.pos += 1
            r.skip_ws()
        index += 1
        yield index, r.value(dec, index, lim)


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
                importance = _c_unit(item.get("emotional_intensity") or 0.0)
            except _Bad as bad:
                raise _Bad(bad.what, f"{where}, field 'emotional_intensity'") from None
            mtype = item.get("type")
            if mtype is not None:
                try:
                    mtype = s(mtype)
                except _Bad as bad:
                    raise _Bad(bad.what, f"{where}, field 'type'") from None
            info: dict[str, Any] = {"type": mtype} if mtype else {}
            if raw_created is not None:  # an old date: forgetting's idle clock starts at the
                info["imported_at"] = round(self.now, 3)  # import (as for history imports)
            meta = json.dumps(info, ensure_ascii=False) if info else None
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
            parts = pieces(text)
            for n, part in enumerate(parts, 1):
                yield (where if len(parts) == 1 else f"{where}, part {n}"), _plain_episode(
                    _plain_uid("t", part), part, self.now, 0.0, None)

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
# about what the embedder reads of a memory (all-MiniLM-L6-v2: 256 word pieces): a longer
# paragraph would be recalled by its start alone, and fill a prompt's memory budget at once
PIECE_CHARS = 1000
_BREAKS = (re.compile(r"[.!?…][\"')\]]*\s+|\n"), re.compile(r"\s+"))


def pieces(text: str, limit: int = PIECE_CHARS) -> list[str]:
    """`text` in pieces of at most `limit` characters, each ended at the last sentence end
    in its second half (else at a space there, else cut at `limit`)."""
    out = []
    text = text.strip()
    while len(text) > limit:
        cut = limit
        for brk in _BREAKS:
            ends = [m.end() for m in brk.finditer(text, limit // 2, limit + 1)]
            if ends:
                cut = ends[-1]
                break
        out.append(text[:cut].strip())
        text = text[cut:].strip()
    return [p for p in out + [text] if p]


_MD_SKIP = re.compile(r"\s{0,3}(#{1,6}(\s.*)?|([-*_]\s*){3,}|---)\s*\Z")
