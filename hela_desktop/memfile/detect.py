"""Which reader a path needs: a ``.hela`` archive, a plain JSON list or text file, or a
history export / notes folder (`hela_desktop.importers`), told from the content."""

from __future__ import annotations

from pathlib import Path

from .format import Limits, _Bad, _Source
from .readers import _NativeSource, _PlainSource


def _open_source(path: Path, limits: Limits, now: float) -> _Source:
    from .. import importers  # conversation exports and notes folders (built on readers)

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
    if head.startswith(b"SQLite format 3\x00"):  # a data folder's memory.sqlite3, a backup
        raise _Bad("a SQLite database (a data folder's memory.sqlite3 or one of its backups), "
                   "not a memory file: restore a backup with File ▸ Backups… or `hela-desktop "
                   "backups restore`, or write a memory file from it with `hela-desktop export "
                   "memories.hela --data-dir THIS_FILE` and import that", "file")
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
    if path.suffix.lower() in (".json", ".jsonl"):  # named JSON, yet not: damaged, not notes
        raise _Bad("not JSON (it starts with neither [ nor {): the file is damaged or not "
                   "an export", "file")
    return _PlainSource(path, limits, "text", now)
