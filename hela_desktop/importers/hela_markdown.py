"""HeLa Desktop's own Markdown files, told apart from notes.

- **A chat export** (File ▸ Export chat as Markdown…, `hela_desktop.chat_export`) is read
  back as the conversation it was: each "**You** · date" message with the "**HeLa** ·
  date" answer after it becomes one exchange, so your words are the memory and the answer
  stays beside it as context, as for any other chat import.
- **The readable memory export** (``hela-desktop export --format markdown``) is refused: it
  shows your words and the assistant's answers side by side for reading, so imported as
  text every answer would turn into something "you said".  The ``.hela`` memory file is the
  one to import.

Either is recognised from its first lines, whatever the file is called; a notes folder
leaves both out (counted).
"""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path

from ..chat_export import NOTES_MARK
from ..memfile.format import Limits, _Bad
from .base import Chat, HistorySource, Message, Progress

MEMORY_EXPORT_TITLE = "# HeLa Desktop memories"
_MEMORY_EXPORT = re.compile(r"\A# HeLa Desktop memories\n+Exported [^\n]* by HeLa Desktop")
_CHAT_EXPORT = re.compile(
    r"\A# [^\n]*\n+\*Exported from HeLa Desktop on \d{4}-\d\d-\d\d \d\d:\d\d; \d+ messages?\.\*\n")
# (a heading's note, `chat_export._note`: "stopped early", "stopped before an answer",
# "stopped at the 256-token limit")
_MESSAGE = re.compile(r"\*\*(You|HeLa)\*\* · (\d{4}-\d\d-\d\d \d\d:\d\d)"
                      r"( · stopped (?:early|before an answer|at the \d+-token limit))?\Z")
REFUSED = ("HeLa Desktop's readable Markdown export of memories: it holds the assistant's "
           "answers beside your words, so it cannot be imported back; import the .hela "
           "memory file instead")


def kind_of(head: bytes | str) -> str | None:
    """"memories" (the readable memory export), "chat" (a chat export) or None, from the
    start of a file."""
    text = head.decode("utf-8", "ignore") if isinstance(head, bytes) else head
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").lstrip("\n")
    if _MEMORY_EXPORT.match(text):
        return "memories"
    if _CHAT_EXPORT.match(text):
        return "chat"
    return None


def _epoch(stamp: str) -> float | None:
    """A chat export's minute stamp (local time, as it was written) as seconds."""
    try:
        return time.mktime(time.strptime(stamp, "%Y-%m-%d %H:%M"))
    except (ValueError, OverflowError):
        return None


_DELETED_HEAD = re.compile(r"\A(?:Also )?[Dd]eleted [^\n]*:\Z")  # "Deleted this memory, …:"
_LISTED = re.compile(r"^- #\d+ “(.*)”$", re.M)  # "- #3 “I have a cat called Pepper.”"


def forgotten_in(answer: str) -> list[str]:
    """The memories HeLa's answer to a request to forget says it deleted, as it quotes them
    (`forget_request.answer`: "Deleted this memory, so I won't recall it again:" and "Also
    deleted a question …:", each followed by its list; a quote may end in "…")."""
    blocks = answer.split("\n\n")
    return [q for head, body in zip(blocks, blocks[1:], strict=False)
            if _DELETED_HEAD.match(head.strip()) for q in _LISTED.findall(body)]


def _quoted(text: str, quotes: list[str]) -> bool:
    """Is `text` one of `quotes` (whitespace as `forget_request` lists it; a quote cut short
    with "…" by its beginning)?"""
    flat = " ".join(text.split())
    return any(flat == q or q.endswith("…") and flat.startswith(q[:-1].rstrip())
               for q in quotes)


def _without_app_answers(msgs: list[Message], skip) -> list[Message]:
    """The chat without what HeLa answered itself, and the message that asked: a request
    to forget (done then: as a memory it would say again what was forgotten) and "What do
    you know about me?" answered with the list of your memories (a list of the memories
    already here). The app keeps no memory of either (QA pass 29: the list became one).
    What a request to forget deleted, as its answer lists it, is left out too: the chat
    keeps the message, the memory was gone."""
    from ..about_you import EMPTY, HEAD
    from ..forget_request import forget_target

    out: list[Message] = []
    forgotten: list[str] = []
    i = 0
    while i < len(msgs):
        m = msgs[i]
        answer = msgs[i + 1] if i + 1 < len(msgs) and msgs[i + 1].role == "assistant" else None
        reason = None
        if m.role == "user" and forget_target(m.text) is not None:
            reason = "request to forget, done by HeLa"
            forgotten += forgotten_in(answer.text) if answer is not None else []
        elif m.role == "user" and answer is not None and answer.text.startswith((HEAD, EMPTY)):
            reason = "list of your memories made by HeLa"
        if reason is None:
            out.append(m)
            i += 1
            continue
        skip(reason)
        i += 2 if answer is not None else 1
    if not forgotten:
        return out
    kept: list[Message] = []
    gone = False  # the user message before was left out: its answer goes with it
    for m in out:
        if m.role == "user":
            gone = _quoted(m.text, forgotten)
            if gone:
                skip("message you asked HeLa to forget")
        if not gone:
            kept.append(m)
    return kept


class HelaChatSource(HistorySource):
    """One chat exported by HeLa Desktop as Markdown."""

    kind = "hela-chat"
    said_within = 61.0  # its times are minutes: a memory said within that one is this

    def __init__(self, path: Path, limits: Limits):
        super().__init__(path, limits, path.name)

    def emit(self, progress: Progress | None) -> None:
        size = self.path.stat().st_size
        if size > self.limits.max_plain_bytes:
            raise _Bad(f"file too large ({size} bytes, limit {self.limits.max_plain_bytes})",
                       "file")
        try:
            text = self.path.read_bytes().decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            raise _Bad("not UTF-8 text", "file") from None
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        while lines and not lines[0].strip():
            lines.pop(0)
        title = lines[0][2:].strip() if lines and lines[0].startswith("# ") else ""
        found: list[tuple[str, float | None, list[str]]] = []  # (role, time, lines)
        notes = False  # in the notes under an answer (`chat_export.NOTES_MARK`): not its words
        for line in lines[1:]:
            m = _MESSAGE.match(line.strip())
            if m:
                found.append(("user" if m.group(1) == "You" else "assistant",
                              _epoch(m.group(2)), []))
                notes = False
            elif found and found[-1][0] == "assistant" and line.strip() == NOTES_MARK:
                notes = True
            elif found and not notes:
                found[-1][2].append(line)
        msgs = []
        for i, (role, at, body) in enumerate(found, 1):
            words = self.text("\n".join(body).strip())
            if not words:
                self.skip("empty message")
                continue
            msgs.append(Message(role=role, text=words, at=at, id=str(i)))
        msgs = _without_app_answers(msgs, self.skip)
        first = found[0] if found else None
        digest = hashlib.sha256("\n".join(
            [title, str(first[1]) if first else "", "\n".join(first[2]) if first else ""]
        ).encode()).hexdigest()[:24]
        times = [m.at for m in msgs if m.at is not None]
        self.add_chat(Chat(id=digest, title=title, created=min(times, default=None),
                           updated=max(times, default=None), messages=msgs))
        if progress is not None:
            progress(size, size)
