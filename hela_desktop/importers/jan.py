"""Jan threads: Jan's data folder keeps one folder per thread under ``threads/``, each with
a ``thread.json`` (``id``, ``title``, ``created``, ``updated``) and a ``messages.jsonl``:
one message per line (``id``, ``thread_id``, ``role``, ``content`` as a list of
``{"type": "text", "text": {"value": ...}}`` parts, ``created_at`` in seconds or
milliseconds).  Import the data folder, its ``threads`` folder, one thread's folder, or a
``messages.jsonl`` file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..memfile.format import Limits, _Bad, _loads
from .base import Chat, HistorySource, Message, Progress, epoch, ident, text_of, tn

MAX_DEPTH = 3  # how deep below the chosen folder thread folders are looked for


def find_threads(folder: Path, limit: int = 100_000) -> list[Path]:
    """The ``messages.jsonl`` files of the thread folders under `folder` (sorted)."""
    out: list[Path] = []

    def walk(d: Path, depth: int) -> None:
        try:
            entries = sorted(d.iterdir())
        except OSError:
            return
        for e in entries:
            if len(out) >= limit:
                return
            if e.name == "messages.jsonl" and e.is_file():
                out.append(e)
            elif depth < MAX_DEPTH and e.is_dir() and not e.is_symlink() \
                    and not e.name.startswith("."):
                walk(e, depth + 1)

    walk(folder, 0)
    return out


def looks_like_jan(obj: Any) -> bool:
    return type(obj) is dict and (obj.get("object") == "thread.message" or (
        "thread_id" in obj and "role" in obj and "content" in obj))


class JanSource(HistorySource):
    kind = "jan"

    def __init__(self, path: Path, limits: Limits, files: list[Path]):
        super().__init__(path, limits, path.name)
        self.files = files
        self.base = path if path.is_dir() else path.parent

    def emit(self, progress: Progress | None) -> None:
        sizes = [f.stat().st_size for f in self.files]
        total, done = sum(sizes), 0
        if total > self.limits.max_plain_bytes:
            raise _Bad(f"threads too large ({total} bytes, limit "
                       f"{self.limits.max_plain_bytes})", "folder")
        for f, size in zip(self.files, sizes):
            self.add_chat(self._thread(f))
            done += size
            if progress is not None:
                progress(done, total)

    def _rel(self, f: Path) -> str:
        try:
            return f.relative_to(self.base).as_posix()
        except ValueError:
            return f.name

    def _thread(self, f: Path) -> Chat:
        rel = self._rel(f)
        info: dict = {}
        tj = f.parent / "thread.json"
        if tj.is_file():
            raw = tj.read_bytes()[: self.limits.max_line_bytes + 1]
            if len(raw) > self.limits.max_line_bytes:
                raise _Bad("too large", self._rel(tj))
            try:
                info = _loads(raw.removeprefix(b"\xef\xbb\xbf"))
            except _Bad as bad:
                raise _Bad(bad.what, self._rel(tj)) from None
            if type(info) is not dict:
                raise _Bad(f"expected a thread object, got {tn(info)}", self._rel(tj))
        msgs: list[Message] = []
        thread_id = ident(info.get("id"), "")
        created = epoch(info.get("created"))
        lim = self.limits.max_line_bytes
        with open(f, "rb") as fh:
            for n, line in enumerate(fh, 1):
                where = f"{rel} line {n}"
                if len(line) > lim:
                    raise _Bad(f"line longer than {lim} bytes", where)
                if n == 1:
                    line = line.removeprefix(b"\xef\xbb\xbf")
                if not line.strip():
                    continue
                try:
                    obj = _loads(line)
                except _Bad as bad:
                    raise _Bad(bad.what, where) from None
                if type(obj) is not dict:
                    raise _Bad(f"expected a message object, got {tn(obj)}", where)
                thread_id = thread_id or ident(obj.get("thread_id"), "")
                m = self._message(obj, where, f"{n}")
                if m is not None:
                    msgs.append(m)
        thread_id = thread_id or rel
        msgs.sort(key=lambda m: m.at or 0.0)  # Jan appends in time order; keep it so
        title = text_of(info.get("title")) or text_of(info.get("summary")) or ""
        return Chat(id=thread_id, title=title, created=created or (msgs[0].at if msgs else None),
                    updated=epoch(info.get("updated")), messages=msgs)

    def _message(self, obj: dict, where: str, fallback_id: str) -> Message | None:
        role = text_of(obj.get("role"))
        if role not in ("user", "assistant"):
            self.skip(f"{role} message" if role == "system" else "message of another role")
            return None
        content = obj.get("content")
        texts: list[str] = []
        if type(content) is str:
            texts.append(content)
        elif type(content) is list:
            for p in content:
                if type(p) is not dict:
                    raise _Bad(f"field 'content': expected parts, got {tn(p)}", where)
                t = p.get("text")
                if p.get("type") == "text" and type(t) is dict and type(t.get("value")) is str:
                    texts.append(t["value"])
                elif p.get("type") == "text" and type(t) is str:
                    texts.append(t)
                else:
                    self.skip("non-text part")
        elif content is not None:
            raise _Bad(f"field 'content': expected a list of parts, got {tn(content)}", where)
        text = self.text("\n".join(texts).strip())
        if not text and role == "assistant":
            self.skip("empty message")
            return None
        raw_meta = obj.get("metadata")
        meta: dict = raw_meta if type(raw_meta) is dict else {}
        return Message(role=role, text=text, at=epoch(obj.get("created_at")),
                       id=ident(obj.get("id"), fallback_id),
                       model=text_of(meta.get("model")) or text_of(obj.get("model")))


def first_line_object(path: Path, limits: Limits) -> Any:
    """The first line of a file parsed as JSON, or None."""
    try:
        with open(path, "rb") as fh:
            line = fh.readline(limits.max_line_bytes + 1)
        return json.loads(line.removeprefix(b"\xef\xbb\xbf"))
    except (OSError, ValueError, RecursionError):
        return None
