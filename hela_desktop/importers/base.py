"""What every history source shares: messages and chats, pairing them into exchanges,
and the spill of records that `memfile.import_file` validates and writes.

A source parses its export once (``prepare``), streaming, and writes the records the
memory-file importer understands (conversations, episodes, messages, edges) as JSON lines
into a private folder next to the store; ``records`` reads them back, through the
memory-file schema checks, as often as the importer asks.  Everything the store receives
therefore passes the same validation, limits and all-or-nothing transaction as a ``.hela``
file.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import facts
from ..config import HelaParams
from ..memfile.format import (
    Limits,
    Progress,
    _Bad,
    _loads,
    _Source,
    _TooLarge,
    check_zip_member,
)
from ..memfile.readers import _plain_episode, _plain_uid
from ..memfile.validate import _parse_record, _schemas
from ..store.rows import AUTHORS
from ..words import count, printable

MEMBERS = ("conversations.jsonl", "episodes.jsonl", "messages.jsonl", "edges.jsonl")
NAMES = {"chatgpt": "ChatGPT export", "claude": "Claude export",
         "openwebui": "Open WebUI export", "jan": "Jan threads", "notes": "Notes folder",
         "hela-chat": "HeLa Desktop chat export"}
def author_of(message_uid: str) -> str | None:
    """The assistant that wrote an imported answer ("ChatGPT"), from its message's uid
    (``<source>-<hash>.a``); None for one written here."""
    return AUTHORS.get(message_uid.split("-", 1)[0]) if "-" in message_uid else None


# ------------------------------------------------------------------ small helpers ------
def tn(v: Any) -> str:
    """A JSON value's type, in words (for error messages)."""
    if v is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(v), type(v).__name__)


def text_of(v: Any) -> str | None:
    """A string field, or None for anything else."""
    return v if type(v) is str else None


def clean(text: str, cap: int) -> tuple[str, bool]:
    """Text as it can be stored: lone surrogates replaced, control characters removed
    (`words.printable`), at most `cap` characters.  Returns (text, truncated?)."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = text.encode("utf-8", "replace").decode("utf-8")
    text = printable(text)  # (NULs too)
    if len(text) > cap:
        return text[:cap], True
    return text, False


_MIN_TS, _MAX_TS = 0.0, 253402300799.0  # 1970-01-01 .. 9999-12-31


def epoch(v: Any) -> float | None:
    """A time in Unix seconds from a number (seconds, milliseconds, micro- or nanoseconds,
    told apart by size) or an ISO 8601 string; None when absent or unusable."""
    if type(v) in (int, float):
        t = float(v)
        if not math.isfinite(t) or t <= 0:
            return None
        while t > _MAX_TS:  # ms, µs, ns
            t /= 1000.0
        return t
    if type(v) is str and 0 < len(v) <= 64:
        s = v.strip()
        if s.endswith(("Z", "z")):
            s = s[:-1] + "+00:00"
        try:
            d = _dt.datetime.fromisoformat(s)
        except ValueError:
            try:  # dates with a space and no seconds, '2024-05-01 14:30'
                d = _dt.datetime.strptime(s, "%Y-%m-%d %H:%M")
            except ValueError:
                return None
        try:
            t = d.timestamp()
        except (OverflowError, OSError, ValueError):
            return None
        return t if _MIN_TS < t <= _MAX_TS else None
    return None


def iso_day(t: float | None) -> str | None:
    if t is None:
        return None
    return _dt.datetime.fromtimestamp(t, _dt.timezone.utc).strftime("%Y-%m-%d")


# ------------------------------------------------------------------- the model --------
@dataclass
class Message:
    """One message of a source conversation, already filtered to what a person sees."""

    role: str  # "user" | "assistant"
    text: str
    at: float | None
    id: str
    attachments: tuple[str, ...] = ()
    model: str | None = None


@dataclass
class Chat:
    """One source conversation: its visible messages in order (the branch shown last)."""

    id: str
    title: str
    created: float | None
    updated: float | None
    messages: list[Message] = field(default_factory=list)


@dataclass
class Exchange:
    user: list[Message] = field(default_factory=list)
    replies: list[Message] = field(default_factory=list)


def pair(chat: Chat, skip: Callable[[str, int], None]) -> list[Exchange]:
    """The chat's exchanges: the user's message(s) and the replies that follow them.
    Several user messages in a row (a reply failed) form one exchange; replies before the
    first user message are left out.  A user message without words (sources keep them, so
    that the replies to it stay with it) makes an exchange that `add_chat` leaves out."""
    out: list[Exchange] = []
    cur: Exchange | None = None
    for m in chat.messages:
        if m.role == "user":
            if cur is not None and cur.replies:
                out.append(cur)
                cur = None
            if cur is None:
                cur = Exchange()
            cur.user.append(m)
        elif cur is None:
            skip("reply before any user message", 1)
        else:
            cur.replies.append(m)
    if cur is not None:
        out.append(cur)
    return out


# a reason's noun comes before these words: "message on another branch", "call to a tool"
_AFTER_NOUN = re.compile(r" (?:of|on|to|in|at|before|without|not|too|cut|you|that|which|who)\b")
_MASS = {"thinking": "thinking block", "reasoning": "reasoning block"}  # counted as blocks
HERE_ALREADY = "exchange in this memory already"  # (`HistorySource.said_here`)


def left_out(n: int, reason: str) -> str:
    """A count of what was left out, in words: "1 system message", "300 system messages",
    "2 calls to a tool", "94 thinking blocks" (the reasons are singular phrases)."""
    reason = _MASS.get(reason, reason)
    m = _AFTER_NOUN.search(reason)
    noun, rest = (reason[:m.start()], reason[m.start():]) if m else (reason, "")
    if noun.endswith(("s", "content")):  # "custom instructions", "image content"
        return f"{n} {reason}"
    many = noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"
    return count(n, reason, many + rest)


def describe(d: dict) -> str:
    """One line for people: what the source held and what was left out, and why."""
    name = NAMES.get(d.get("source", ""), d.get("source", "?"))
    def n(key: str, noun: str) -> str:
        k = int(d.get(key, 0) or 0)
        return f"{k} {noun}{'' if k == 1 else 's'}"

    if d.get("source") == "notes":
        # (wiki links: the summary's "links" also count the ones between a note's sections)
        body = f"{n('notes', 'note')}, {n('memories', 'section')}, {n('links', 'wiki link')}"
    else:
        body = f"{n('conversations', 'conversation')}, {n('exchanges', 'exchange')}"
    if d.get("first"):
        body += f", {d['first']} to {d['last']}"
    if d.get("repeated"):
        k = int(d["repeated"])
        body += (f"; {k} {'exchange repeats' if k == 1 else 'exchanges repeat'} an earlier "
                 "question, request or thanks word for word and share its memory")
    reasons = d.get("skipped_reasons") or {}
    if reasons:
        why = ", ".join(left_out(n, r) for r, n in sorted(reasons.items(), key=lambda x: -x[1]))
        body += f"; {d.get('skipped', 0)} left out ({why})"
    cut = int(d.get("shortened", 0) or 0)
    if cut:
        limit = int(d.get("max_text_chars", 0) or 0)
        body += (f"; {count(cut, 'text')} too long: kept to {'its' if cut == 1 else 'their'} "
                 f"first {limit:,} characters")
    return f"{name}: {body}"


# ---------------------------------------------------------------- the source ----------
class HistorySource(_Source):
    """A conversation export or a notes folder, seen as memory-file records.

    Subclasses set `kind` and implement `emit(progress)`, calling `add_chat` for each
    conversation (or `add_memory` / `add_edge` directly); `self.skip(reason)` counts what
    is left out.
    """

    kind = "history"
    members = MEMBERS
    # > 0: this source's chats may be the store's own (HeLa's chat export), their times
    # rounded down to within this many seconds: an exchange whose user words are a memory
    # said then is the same exchange, left out (`said_here`)
    said_within = 0.0

    def __init__(self, path: Path, limits: Limits, label: str | None = None):
        self.path = path
        self.limits = limits
        self.label = label or path.name
        self.manifest = {"embedder": None, "dim": None, "hebbian_step": 0, "counts": {}}
        self.schemas = _schemas(limits)
        self.skips: Counter[str] = Counter()
        self.shortened = 0  # texts imported cut to `limits.max_text_chars`
        self.prior = HelaParams().temporal_edge
        self.counts = dict.fromkeys(MEMBERS, 0)
        self.n_conversations = 0
        self.n_memories = 0
        self.n_repeats = 0  # exchanges that asked again what an earlier one asked
        self._asked: dict[tuple[str, ...], str] = {}  # word key -> the memory that asked it
        self.first: float | None = None
        self.last: float | None = None
        self.extra: dict[str, Any] = {}
        self.fallback_time = path.stat().st_mtime if path.exists() else 0.0
        # set by the import for a source whose chats may be this store's own
        # (`said_within` > 0): are the user's words `text`, said at `at`, a memory here?
        self.said_here: Callable[[str, float], bool] | None = None
        # when its memories came into this store: forgetting's idle clock starts there, not
        # at the (years old) dates they keep (`Store.forgetting_candidates`)
        self.imported_at = round(time.time(), 3)
        self._dir: str | None = None
        self._out: dict[str, Any] = {}
        self._ep_uids: set[str] = set()
        self._conv_uids: set[str] = set()
        # the exchanges of user messages the export shows on another branch than the one
        # its chat shows now (a question edited there, a branch switched to): their
        # memories, where an earlier import made them, are archived (`memfile.importing`)
        self.off_branch: dict[str, str] = {}  # exchange uid -> its conversation's uid

    # ---- for subclasses -------------------------------------------------------------
    def emit(self, progress: Progress | None) -> None:
        raise NotImplementedError  # pragma: no cover

    def skip(self, reason: str, n: int = 1) -> None:
        if n:
            self.skips[reason] += n

    def text(self, raw: str) -> str:
        t, cut = clean(raw, self.limits.max_text_chars)
        if cut:  # imported all the same, its start: not "left out" (QA pass 25 read
            self.shortened += 1  # "1 left out (1 text cut at 2000000 characters)")
        return t

    def uid(self, *parts: str) -> str:
        """A stable uid for this source's item, from the source's own ids."""
        return _plain_uid(self.kind, *parts)

    def exchange_uid(self, chat_id: str, message_id: str) -> str:
        """The uid of the memory of the exchange that user message `message_id` begins."""
        return self.uid("exchange", chat_id, message_id)

    def left_branch(self, chat_id: str, message_id: str) -> None:
        """A user message the export keeps on another branch of the chat than the one shown
        (`off_branch`)."""
        self.off_branch[self.exchange_uid(chat_id, message_id)] = \
            self.uid("conversation", chat_id)

    @property
    def retired(self) -> dict[str, str]:
        """The memories an earlier import of this source may hold that this export shows
        on no current branch (`off_branch` less every exchange on one), with their
        conversations' uids."""
        return {u: c for u, c in self.off_branch.items() if u not in self._ep_uids}

    def _write(self, member: str, rec: dict) -> None:
        self._out[member].write(json.dumps(rec, ensure_ascii=False, allow_nan=False) + "\n")
        self.counts[member] += 1

    def add_memory(self, uid: str, user_text: str, assistant_text: str, at: float,
                   meta: dict, conversation: str | None = None) -> bool:
        """One episode; False (and nothing written) when the uid was seen already."""
        if uid in self._ep_uids:
            self.skip("duplicate")
            return False
        self._ep_uids.add(uid)
        rec = _plain_episode(uid, user_text, at, 0.0, {**meta, "imported_at": self.imported_at})
        rec.update(conversation=conversation, assistant_text=assistant_text, source=self.kind,
                   pinned=False)
        self._write("episodes.jsonl", rec)
        self.n_memories += 1
        self.first = at if self.first is None else min(self.first, at)
        self.last = at if self.last is None else max(self.last, at)
        return True

    def add_edge(self, a: str, b: str, prior: float, at: float) -> None:
        """A prior edge (no Hebbian weight) between two memories of this import."""
        self._write("edges.jsonl", {"a": a, "b": b, "weight": 0.0, "prior": float(prior),
                                    "count": 0, "step": 0, "updated_at": at})

    def _memory_for(self, uid: str, user: str, reply: str, at: float, meta: dict,
                    conversation: str) -> str | None:
        """The memory of one exchange: a new one (`uid`), or, for a question, request or
        small talk asked again word for word in this import, the earlier one it repeats
        (as in the app, `MemoryEngine.repeat_of`); None when the exchange was seen already."""
        key = facts.word_key(user) if facts.only_asks(user) else None
        memory = self._asked.get(key) if key else None
        if memory is not None and uid not in self._ep_uids:
            self._ep_uids.add(uid)
            self.n_repeats += 1
            return memory
        if not self.add_memory(uid, user, reply, at, meta, conversation):
            return None
        if key:
            self._asked[key] = uid
        return uid

    def _meta(self, chat_id: str, title: str, ex: Exchange, files: tuple[str, ...]) -> dict:
        """An exchange's provenance: where it came from, which reply answered it (and when:
        a regenerated answer is newer, `memfile.merge`), by which model, with which files."""
        meta: dict[str, Any] = {
            "source": self.kind, "file": self.label, "conversation_id": chat_id,
            "conversation_title": title, "message_id": ex.user[0].id,
        }
        if ex.replies:
            meta["reply_id"] = ex.replies[-1].id
            reply_at = max((m.at for m in ex.replies if m.at is not None), default=None)
            if reply_at is not None:
                meta["reply_at"] = reply_at
            model = next((m.model for m in reversed(ex.replies) if m.model), None)
            if model:
                meta["model"] = model
        if files:
            meta["attachments"] = list(files)
        return meta

    def add_chat(self, chat: Chat) -> None:
        """A conversation: one HeLa conversation, one episode per exchange (with the
        transcript's two messages), consecutive exchanges joined by the temporal prior."""
        exchanges = pair(chat, self.skip)
        conv_uid = self.uid("conversation", chat.id)
        if conv_uid in self._conv_uids:
            self.skip("duplicate conversation")
            return
        rows, here = [], 0
        for ex in exchanges:
            user = "\n\n".join(m.text for m in ex.user if m.text.strip()).strip()
            files = tuple(a for m in ex.user for a in m.attachments)
            if not user and files:
                user = "[attached: " + ", ".join(files) + "]"
            if not user:
                self.skip("exchange without words from the user")
                continue
            reply = "\n\n".join(m.text for m in ex.replies if m.text.strip()).strip()
            at = next((m.at for m in ex.user + ex.replies if m.at is not None), None)
            if at is None:
                at = chat.created if chat.created is not None else self.fallback_time
            if self.said_here is not None and self.said_here(user, at):
                self.skip(HERE_ALREADY)
                here += 1
                continue
            rows.append((ex, user, reply, at, files))
        if not rows:
            self.skip("conversation in this memory already" if here
                      else "conversation without exchanges")
            return
        self._conv_uids.add(conv_uid)
        created = chat.created if chat.created is not None else rows[0][3]
        updated = max(chat.updated or created, rows[-1][3], created)
        title, _ = clean(chat.title.strip() or "Imported chat", 500)
        self._write("conversations.jsonl", {"uid": conv_uid, "title": title,
                                            "created_at": created, "updated_at": updated})
        self.n_conversations += 1
        prev = None
        for ex, user, reply, at, files in rows:
            uid = self.exchange_uid(chat.id, ex.user[0].id)
            meta = self._meta(chat.id, title, ex, files)
            memory = self._memory_for(uid, user, reply, at, meta, conv_uid)
            if memory is None:
                continue
            self._write("messages.jsonl", {
                "uid": uid + ".u", "conversation": conv_uid, "role": "user", "content": user,
                "created_at": at, "interrupted": False, "episode": None, "stats": None})
            if reply:
                r_at = next((m.at for m in ex.replies if m.at is not None), at)
                self._write("messages.jsonl", {
                    "uid": uid + ".a", "conversation": conv_uid, "role": "assistant",
                    "content": reply, "created_at": max(r_at, at), "interrupted": False,
                    "episode": memory, "stats": None})
            if memory != uid:
                continue  # no links for a repeat: the chat's chain goes around it
            if prev is not None and self.prior > 0:
                self.add_edge(prev, uid, self.prior, at)
            prev = uid

    # ---- memfile's _Source ----------------------------------------------------------
    def prepare(self, progress: Progress | None, work_dir: Path) -> None:
        # beside the store when its folder exists (the same disk); a dry run into a
        # folder not made yet uses the system's temporary folder and creates nothing there
        try:
            if not work_dir.is_dir():
                raise NotADirectoryError(work_dir)
            self._dir = tempfile.mkdtemp(prefix=".hela-import-", dir=work_dir)
        except OSError:
            self._dir = tempfile.mkdtemp(prefix="hela-import-")
        try:
            for m in MEMBERS:
                self._out[m] = open(os.path.join(self._dir, m), "w", encoding="utf-8")
            self.emit(progress)
        finally:
            for fh in self._out.values():
                fh.close()
            self._out = {}
        if not self.n_memories and not self.skips.get(HERE_ALREADY):
            # (a chat that is all here already imports as nothing, as a file read twice)
            why = ", ".join(left_out(n, r) for r, n in self.skips.most_common(4))
            raise _Bad(f"nothing to import in this {NAMES.get(self.kind, self.kind)}"
                       + (f" ({why})" if why else ""), "file")
        self.manifest["counts"] = dict(self.counts)

    @property
    def details(self) -> dict:
        d: dict[str, Any] = {"source": self.kind, "conversations": self.n_conversations,
                             "exchanges": (self.n_memories + self.n_repeats
                                           if self.kind != "notes" else 0),
                             "memories": self.n_memories, "repeated": self.n_repeats,
                             "skipped": sum(self.skips.values()),
                             "skipped_reasons": dict(self.skips.most_common()),
                             "shortened": self.shortened,
                             "max_text_chars": self.limits.max_text_chars,
                             "first": iso_day(self.first), "last": iso_day(self.last)}
        d.update(self.extra)
        return d

    def records(self, member: str, trusted: bool = False) -> Iterator[tuple[int, dict]]:
        if self._dir is None:
            raise _Bad("internal: the source was not prepared", "import")
        schema = self.schemas[member]
        with open(os.path.join(self._dir, member), encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):  # these records were built here: a problem
                # with one is this program's, reported with the record's number
                yield n, _parse_record(schema, json.loads(line), f"{member} record {n}")

    def close(self) -> None:
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None


# ------------------------------------------------------------------ reading input -----
class Input:
    """The bytes of a JSON source: a plain file, or one member of a zip archive (the
    archive's safety checked as for memory files: no encryption, sane sizes and ratio)."""

    def __init__(self, path: Path, limits: Limits, member: str | None = None):
        self.path = path
        self.limits = limits
        self.member = member
        # the reading `first` began (its first item decoded), the progress callback and the
        # bytes read so far
        self._pending: tuple[Generator[tuple[int, Any], None, None], tuple[int, Any]] | None = None
        self._progress: Progress | None = None
        self._done = 0
        self.label = path.name if member is None else f"{path.name}/{member}"
        if member is None:
            self.size = path.stat().st_size
            if self.size > limits.max_plain_bytes:
                raise _Bad(f"file too large ({self.size} bytes, limit "
                           f"{limits.max_plain_bytes})", "file")
            return
        import zipfile

        with zipfile.ZipFile(path) as zf:
            info = zf.getinfo(member)
        where = f"archive member {member[:80]!r}"
        check_zip_member(info, limits, where)
        if info.file_size > limits.max_total_bytes:
            raise _Bad(f"too large ({info.file_size} bytes)", where)
        self.size = info.file_size

    def open(self):
        if self.member is None:
            return open(self.path, "rb")
        import zipfile

        zf = zipfile.ZipFile(self.path)
        try:
            fh = zf.open(self.member)
        except Exception as exc:  # noqa: BLE001 - zipfile raises many types on bad input
            zf.close()
            raise _Bad(f"corrupt archive data ({exc})", self.label) from None
        return _ZipMember(zf, fh)

    def first(self, noun: str) -> tuple[int, Any] | None:
        """The first item (None: the list is empty), decoded once: the next `items` gives
        it again and reads on from where this stopped, the file left open between the two
        (a large first conversation was decoded twice, to recognise the export and to
        read it, each time holding the interpreter's lock).  Problems raise `_Bad`."""
        self.drop()
        gen = self._read(noun)
        item = next(gen, None)
        if item is not None:
            self._pending = (gen, item)
        return item

    def drop(self) -> None:
        """Close what `first` left open (also done when the object goes)."""
        pending, self._pending = self._pending, None
        if pending is not None:
            pending[0].close()

    def items(self, progress: Progress | None, noun: str) -> Iterator[tuple[int, Any]]:
        """(index, item) of the top-level JSON list (or the one top-level object), read in
        blocks; progress in bytes."""
        self._progress = progress
        pending, self._pending = self._pending, None
        if pending is None:
            yield from self._read(noun)
            return
        gen, item = pending
        if progress is not None:
            progress(min(self._done, self.size), self.size)
        yield item
        yield from gen

    def _read(self, noun: str) -> Generator[tuple[int, Any], None, None]:
        from ..memfile.readers import _CHUNK, json_list_items  # _CHUNK: looked up now

        self._done = 0
        size = self.size

        def on_read(block: bytes) -> None:
            self._done += len(block)
            progress = self._progress
            if progress is not None:
                progress(min(self._done, size), size)

        max_item = max(self.limits.max_line_bytes * 4, self.limits.max_line_bytes)
        with self.open() as fh:
            try:
                head = fh.read(_CHUNK)
            except Exception as exc:  # noqa: BLE001 - zlib.error, BadZipFile (CRC), EOF
                raise _Bad(f"corrupt archive data ({exc})", self.label) from None
            on_read(head)
            body = head.lstrip(b"\xef\xbb\xbf \t\r\n")
            if body.startswith(b"{"):  # one conversation on its own
                rest = fh.read(max(max_item + 1 - len(head), 0))
                on_read(rest)
                if len(head) + len(rest) > max_item:
                    raise _TooLarge(max_item, "item 1")
                yield 1, _loads((head + rest).removeprefix(b"\xef\xbb\xbf"))
                return
            reader = _Replay(head, fh, self.label)
            yield from json_list_items(reader, self.limits, noun=noun, max_item=max_item,
                                       on_read=lambda b: on_read(b) if b is not head else None)


class _Replay:
    """A file object that returns `first` before the rest of `fh`."""

    def __init__(self, first: bytes, fh, label: str):
        self.first: bytes | None = first
        self.fh, self.label = fh, label

    def read(self, n: int) -> bytes:
        if self.first is not None:
            b, self.first = self.first, None
            return b
        try:
            return self.fh.read(n)
        except Exception as exc:  # noqa: BLE001 - zlib.error, BadZipFile (CRC), EOF
            raise _Bad(f"corrupt archive data ({exc})", self.label) from None


class _ZipMember:
    def __init__(self, zf, fh):
        self.zf, self.fh = zf, fh

    def read(self, n: int = -1) -> bytes:
        try:
            return self.fh.read(n)
        except Exception as exc:  # noqa: BLE001 - zlib.error, BadZipFile (CRC), EOF
            raise _Bad(f"corrupt archive data ({exc})", "archive") from None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.fh.close()
        self.zf.close()


class ConversationList(HistorySource):
    """A JSON list of conversations (or one conversation object): ChatGPT, Claude,
    Open WebUI.  Subclasses implement `chat(item, where) -> Chat | None`."""

    noun = "conversations"

    def __init__(self, inp: Input):
        super().__init__(inp.path, inp.limits, inp.label)
        self.inp = inp

    def chat(self, item: Any, where: str) -> Chat | None:
        raise NotImplementedError  # pragma: no cover

    def close(self) -> None:
        self.inp.drop()
        super().close()

    def emit(self, progress: Progress | None) -> None:
        for index, item in self.inp.items(progress, self.noun):
            where = f"conversation {index}"
            if type(item) is not dict:
                raise _Bad(f"expected a conversation object, got {tn(item)}", where)
            title = text_of(item.get("title")) or text_of(item.get("name"))
            if title:
                where += f" ({title[:40]!r})"
            c = self.chat(item, where)
            if c is not None:
                self.add_chat(c)


def branch(nodes: dict, leaf: Any, parent_key: str, where: str) -> list[dict]:
    """The messages from the root to `leaf` of a message tree stored as {id: node} with a
    parent link (`parent_key`), root first; a bad link or a cycle is refused."""
    path: list[dict] = []
    seen: set = set()
    node_id: Any = leaf
    while node_id is not None:
        if type(node_id) is not str:
            raise _Bad(f"field {parent_key!r}: expected a message id, got {tn(node_id)}", where)
        if node_id in seen:
            raise _Bad("the message tree has a cycle", where)
        seen.add(node_id)
        node = nodes.get(node_id)
        if type(node) is not dict:
            raise _Bad(f"message {str(node_id)[:40]!r}: missing or not an object", where)
        path.append(node)
        node_id = node.get(parent_key)
    path.reverse()
    return path


def need(obj: dict, key: str, typ: type, where: str, *, optional: bool = False) -> Any:
    """obj[key] checked to be of `typ` (None allowed when `optional`); a clear refusal
    otherwise."""
    v = obj.get(key)
    if v is None and optional:
        return None
    if type(v) is not typ:
        names: dict[type, str] = {dict: "an object", list: "a list", str: "a string"}
        what = names.get(typ, typ.__name__)
        raise _Bad(f"field {key!r}: expected {what}, got {tn(v)}", where)
    return v


def ident(v: Any, fallback: str) -> str:
    """A source id as text (ids are strings or numbers); `fallback` when missing."""
    if type(v) is str and v and len(v) <= 200:
        return v
    if type(v) is int:
        return str(v)
    return fallback
