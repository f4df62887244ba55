"""Errors of the memory file, and one line for each that says what to do."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path


class StoreError(RuntimeError):
    """The memory file cannot be opened or used; the message says what to do."""


def db_error_message(path: str | Path, exc: BaseException) -> str:
    """One line for an error SQLite (or the file system) gave on the memory file `path`:
    what happened and what to do.  Nothing was changed when any of these is raised (SQLite
    rolls the unit of work back)."""
    path = Path(path)
    folder = path.parent
    text = str(exc).lower()
    errno = getattr(exc, "errno", None)
    if "locked" in text or "busy" in text:
        return (f"{path}: the memory file is busy: another HeLa Desktop process (the app, a "
                "chat, an import) has been writing to it for more than 30 s; wait for it or "
                "close it, then try again; nothing was changed")
    if "disk is full" in text or "disk full" in text or errno in (28, 122, 27):
        # ENOSPC, EDQUOT, EFBIG
        return (f"{folder}: the disk is full; free some space and try again (nothing "
                "already stored was lost)")
    if getattr(exc, "sqlite_errorname", "").startswith("SQLITE_IOERR") or "i/o error" in text:
        return (f"{folder}: could not write the memory file (the disk may be full, over a "
                "size limit or failing); free some space and try again (nothing already "
                "stored was lost)")
    read_only = folder.is_dir() and not os.access(folder, os.W_OK)
    if "readonly" in text or "read-only" in text or errno == 30 or (  # EROFS
            read_only and ("unable to open" in text or errno in (13, 1))):
        return (f"{folder}: the data folder is read-only; HeLa Desktop needs to write there "
                "(even to read the memory file: SQLite keeps its journal beside it); choose a "
                "writable --data-dir or copy the folder somewhere writable")
    if errno in (13, 1) or "permission" in text:  # EACCES, EPERM
        return (f"{folder}: no permission to write in the data folder; fix its owner or "
                "permissions, or choose another --data-dir")
    if errno in (20, 17) or (folder.exists() and not folder.is_dir()):  # ENOTDIR, EEXIST
        return (f"{folder}: the data folder is a file, not a folder; move it aside or "
                "choose another --data-dir")
    if "unable to open" in text:
        return (f"{path}: cannot open the memory file ({exc}); check that the data folder "
                "exists and is writable, or choose another --data-dir")
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        return (f"{path}: not a readable HeLa memory file ({exc}): it is damaged or not a "
                "memory file. Move it aside (a new one is created) or choose another "
                "--data-dir; nothing was changed")
    return f"{path}: the memory file cannot be used ({exc})"
