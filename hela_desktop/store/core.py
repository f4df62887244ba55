"""`Store`: one open memory file, with the queries of every table."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from ..paths import create_private_file, private_data_dir
from .edges import EdgeQueries
from .episodes import EpisodeQueries
from .errors import StoreError, db_error_message
from .knowledge import KnowledgeQueries
from .messages import MessageQueries
from .schema import migrate

DB_FILE = "memory.sqlite3"
DB_SUFFIXES = (".sqlite3", ".sqlite", ".db")  # a path with these names the file itself


class Store(EpisodeQueries, EdgeQueries, KnowledgeQueries, MessageQueries):
    """A memory file.  Use one `Store` per thread (SQLite connections are not shared)."""

    def __init__(self, path: str | Path, *, create: bool = True):
        self.path = Path(path)
        # a data folder (any name, "my.data" too) or the memory file itself
        folder = self.path.suffix.lower() not in DB_SUFFIXES
        if folder:
            if self.path.exists() and not self.path.is_dir():
                raise StoreError(f"{self.path}: the data folder is a file, not a folder; "
                                 "move it aside or choose another --data-dir")
            self.path = self.path / DB_FILE
        if not self.path.exists() and not create:
            raise StoreError(f"{self.path}: no memory file here")
        try:  # owner-only: the folder 0700, the memory file and its journal 0600
            if folder:
                private_data_dir(self.path.parent)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            create_private_file(self.path)
        except OSError as exc:
            raise StoreError(db_error_message(self.path, exc)) from exc
        try:
            self.conn = sqlite3.connect(
                str(self.path), timeout=30.0, isolation_level=None, check_same_thread=False
            )
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            # what is deleted is overwritten, not left readable in free space (docs/privacy.md)
            self.conn.execute("PRAGMA secure_delete=ON")
            migrate(self.conn, self.path)
        except sqlite3.DatabaseError as exc:
            self.close()
            raise StoreError(db_error_message(self.path, exc)) from exc
        self._lock = threading.RLock()
        self._tx_depth = 0

    @classmethod
    def in_memory(cls, path: str | Path) -> Store:
        """An empty store of the current schema that lives in memory only: nothing is
        created on disk, not even the folder.  What a dry run works on when `path` (a data
        folder or a memory file, as for `Store`) holds no memory file yet; `path` is kept
        as where that file would be."""
        path = Path(path)
        if path.suffix.lower() not in DB_SUFFIXES:
            path = path / DB_FILE
        store = cls.__new__(cls)
        store.path = path
        store.conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        store.conn.execute("PRAGMA foreign_keys=ON")
        migrate(store.conn, path)
        store._lock, store._tx_depth = threading.RLock(), 0
        return store

    # ---- lifecycle ------------------------------------------------------------------
    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()

    def data_version(self) -> int:
        """SQLite's count of changes other connections committed to this file since this
        one opened (`PRAGMA data_version`): with `conn.total_changes`, whether anything
        read before may have changed."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @staticmethod
    def is_memory_file(path: str | Path) -> bool:
        """Whether `path` is a SQLite file that holds memories (read only, nothing created:
        an empty file would otherwise open as an empty store)."""
        path = Path(path)
        try:
            with open(path, "rb") as f:
                if f.read(16) != b"SQLite format 3\x00":
                    return False
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        except (OSError, sqlite3.Error):
            return False
        try:
            return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                "name = 'episodes'").fetchone() is not None
        except sqlite3.Error:
            return False
        finally:
            conn.close()

    def copy_to(self, path: str | Path,
                progress: Callable[[int, int], object] | None = None) -> None:
        """A consistent copy of the whole memory file at `path` (SQLite's online backup,
        owner-only from the start; what a backup is, `hela_desktop.backups`).
        ``progress(pages copied, pages)`` after each 1,024 pages when given (an exception
        it raises stops the copy)."""
        create_private_file(Path(path))
        dest = sqlite3.connect(str(path))
        try:
            with self._lock:
                if progress is None:
                    self.conn.backup(dest)
                else:  # in steps: as fast (a 130 MB file: 0.31 s at once, 0.33 s in steps)
                    self.conn.backup(dest, pages=1024,
                                     progress=lambda _s, left, of: progress(of - left, of))
        finally:
            dest.close()

    @contextlib.contextmanager
    def memory_copy(self) -> Iterator[Store]:
        """A throw-away copy of this store in memory (read from the file without any write
        lock): what-if work such as an import's dry run, never written back."""
        mem = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        try:
            self.conn.backup(mem)
            mem.execute("PRAGMA foreign_keys=ON")
            copy = Store.__new__(Store)
            copy.path, copy.conn = self.path, mem
            copy._lock, copy._tx_depth = threading.RLock(), 0
            yield copy
        finally:
            mem.close()
