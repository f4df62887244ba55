"""Bring your history: conversation exports and notes folders as memories.

Recognised from their content (not only the file name), each becomes a memory-file source
(`memfile.format._Source`), so `memfile.import_file` — and with it ``hela-desktop import`` and the
app's File ▸ Import — validates, embeds (in batches, with progress and a rate) and writes
them exactly like a ``.hela`` file: all or nothing, and a second import of the same export
adds nothing (every exchange's uid comes from the source's own ids).

Sources (one module each): `chatgpt` (the data export zip or its conversations.json),
`claude` (the same for Claude), `openwebui` (a chat export JSON), `jan` (thread folders
with messages.jsonl), `notes` (a folder of Markdown notes, such as an Obsidian vault) and
`hela_markdown` (this app's own chat export; its readable memory export is refused).

Public API: `detect_file`, `open_folder`, `describe`, `SOURCES`.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

from ..memfile.format import Limits, _Bad, _TooLarge
from .base import NAMES, HistorySource, Input, describe
from .chatgpt import ChatGPTSource
from .claude import ClaudeSource
from .hela_markdown import REFUSED, HelaChatSource, kind_of
from .jan import JanSource, find_threads, first_line_object, looks_like_jan
from .notes import NotesSource, find_notes
from .openwebui import OpenWebUISource

SOURCES = NAMES
_BY_KIND = {"chatgpt": ChatGPTSource, "claude": ClaudeSource, "openwebui": OpenWebUISource}


def classify(item: Any) -> str | None:
    """Which export a conversation object comes from (None: not a known one)."""
    if type(item) is not dict:
        return None
    if "mapping" in item and ("current_node" in item or "create_time" in item
                              or "conversation_id" in item):
        return "chatgpt"
    if "chat_messages" in item:
        return "claude"
    chat = item.get("chat")
    if type(chat) is dict and ("history" in chat or "messages" in chat):
        return "openwebui"
    if type(item.get("history")) is dict and "messages" in item["history"]:
        return "openwebui"
    return None


_NONE = object()  # a JSON list without items: an export of an account with no chats


def _first_item(inp: Input) -> Any:
    """The first conversation of a JSON source (None if it is not JSON, `_NONE` if it has
    none)."""
    try:
        first = inp.first("conversations")
        if first is not None:
            return first[1]
    except _TooLarge:
        raise  # too large to tell what it is, whatever it is
    except _Bad:
        return None
    return _NONE


def _zip_source(path: Path, limits: Limits) -> HistorySource | None:
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    except Exception:  # noqa: BLE001 - not a readable zip: the memory-file reader says why
        return None
    if "manifest.json" in names:
        return None  # a HeLa memory file
    convs = sorted((n for n in names if n.rsplit("/", 1)[-1] == "conversations.json"
                    and ".." not in n.split("/") and not n.startswith("/")),
                   key=lambda n: (n.count("/"), n))
    if not convs:
        return None
    inp = Input(path, limits, convs[0])
    first = _first_item(inp)
    if first is _NONE:  # (it was "not a ChatGPT or Claude export")
        raise _Bad("an export without conversations: nothing to import", inp.label)
    kind = classify(first)
    if kind is None:
        raise _Bad("a zip with a conversations.json that is not a ChatGPT or Claude export",
                   inp.label)
    return _BY_KIND[kind](inp)


def detect_file(path: Path, head: bytes, limits: Limits) -> HistorySource | None:
    """The history source for a file, or None when it is not a conversation export (the
    memory-file reader then handles it).  Only the start of the file is read."""
    if head.startswith(b"PK"):
        return _zip_source(path, limits)
    body = head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
    if body.startswith(b"{"):
        if looks_like_jan(first_line_object(path, limits)):
            return JanSource(path, limits, [path])
    if not body.startswith((b"[", b"{")):
        own = kind_of(body)  # the app's own Markdown: a chat, or the memories (refused)
        if own == "memories":
            raise _Bad(REFUSED, "file")
        return HelaChatSource(path, limits) if own == "chat" else None
    inp = Input(path, limits)
    kind = classify(_first_item(inp))
    return None if kind is None else _BY_KIND[kind](inp)


def open_folder(path: Path, limits: Limits) -> HistorySource:
    """Jan threads or a Markdown notes folder; anything else is refused."""
    threads = find_threads(path)
    if threads:
        return JanSource(path, limits, threads)
    notes = find_notes(path)
    if notes:
        return NotesSource(path, limits, notes)
    raise _Bad("a folder without Markdown notes or Jan threads (messages.jsonl)", "folder")


__all__ = ["SOURCES", "HistorySource", "classify", "describe", "detect_file", "open_folder"]
