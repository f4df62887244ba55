"""The memory store: one SQLite file (WAL, foreign keys, FTS5), opened through sqlite-utils.

Tables (schema version in ``PRAGMA user_version``; see ``docs/storage.md``):

- ``conversations``, ``messages``: chat history; an interrupted answer is kept, flagged.
- ``episodes``: one per completed exchange (user + assistant), with embedding, access
  statistics, importance (emotional intensity), pinned/archived/deleted flags.
- ``episodes_fts``: FTS5 index of episode text, kept in step by triggers.
- ``edges``: the Hebbian graph, one row per unordered pair (src < dst): ``weight`` is the
  learned Hebbian part (decays lazily, see ``formulas.decayed_weight``), ``prior`` the
  structural part (temporal adjacency or semantic prior, does not decay), ``count`` the
  number of co-activations, ``step`` the Hebbian step of the last write.
- ``timelines``: run-length spans of the memories active for each answer token.
- ``knowledge``, ``knowledge_sources``: distilled semantic knowledge with provenance.
- ``activity``: what each background job did.
- ``meta``: key/value (Hebbian step counter, embedder name, ...).

The engine is the only writer; every multi-row change runs in one transaction.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import sqlite_utils

from ..paths import create_private_file, private_data_dir

DB_FILE = "memory.sqlite3"
DB_SUFFIXES = (".sqlite3", ".sqlite", ".db")  # a path with these names the file itself
SCHEMA_VERSION = 2


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


def new_uid() -> str:
    return uuid.uuid4().hex


def to_blob(vec: np.ndarray | None) -> bytes | None:
    if vec is None:
        return None
    return np.asarray(vec, dtype=np.float32).tobytes()


def from_blob(blob: bytes | None) -> np.ndarray | None:
    if blob is None:
        return None
    return np.frombuffer(blob, dtype=np.float32)


_V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE conversations (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL DEFAULT 'New chat',
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE episodes (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
    user_text TEXT NOT NULL DEFAULT '',
    assistant_text TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    embedding BLOB,
    embedder TEXT,
    access_count INTEGER NOT NULL DEFAULT 0,
    last_access REAL,
    importance REAL NOT NULL DEFAULT 0,
    pinned INTEGER NOT NULL DEFAULT 0,
    archived_at REAL,
    archive_reason TEXT,
    deleted_at REAL,
    query_centroid BLOB,
    query_count INTEGER NOT NULL DEFAULT 0,
    last_recall TEXT,
    source TEXT NOT NULL DEFAULT 'chat',
    meta TEXT
);
CREATE INDEX episodes_conversation ON episodes(conversation_id);
CREATE INDEX episodes_created ON episodes(created_at);
CREATE VIRTUAL TABLE episodes_fts USING fts5(body, tokenize = 'porter unicode61');
CREATE VIRTUAL TABLE episodes_vocab USING fts5vocab(episodes_fts, row);
CREATE TRIGGER episodes_ai AFTER INSERT ON episodes BEGIN
    INSERT INTO episodes_fts(rowid, body) VALUES (new.id, new.user_text || char(10) || new.assistant_text);
END;
CREATE TRIGGER episodes_ad AFTER DELETE ON episodes BEGIN
    DELETE FROM episodes_fts WHERE rowid = old.id;
END;
CREATE TRIGGER episodes_au AFTER UPDATE OF user_text, assistant_text ON episodes BEGIN
    UPDATE episodes_fts SET body = new.user_text || char(10) || new.assistant_text
    WHERE rowid = new.id;
END;
CREATE TABLE edges (
    src INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
    dst INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
    weight REAL NOT NULL DEFAULT 0,
    prior REAL NOT NULL DEFAULT 0,
    count INTEGER NOT NULL DEFAULT 0,
    step INTEGER NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL,
    PRIMARY KEY (src, dst),
    CHECK (src < dst)
) WITHOUT ROWID;
CREATE INDEX edges_dst ON edges(dst);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    content TEXT NOT NULL,
    created_at REAL NOT NULL,
    interrupted INTEGER NOT NULL DEFAULT 0,
    episode_id INTEGER REFERENCES episodes(id) ON DELETE SET NULL,
    stats TEXT
);
CREATE INDEX messages_conversation ON messages(conversation_id, id);
CREATE TABLE timelines (
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    start INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    episode_ids TEXT NOT NULL,
    PRIMARY KEY (message_id, start)
) WITHOUT ROWID;
CREATE TABLE knowledge (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('user_model', 'fact', 'persona')),
    text TEXT NOT NULL,
    embedding BLOB,
    embedder TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    strength REAL NOT NULL DEFAULT 1,
    superseded_by INTEGER REFERENCES knowledge(id) ON DELETE SET NULL,
    archived_at REAL,
    access_count INTEGER NOT NULL DEFAULT 0,
    last_access REAL
);
CREATE TABLE knowledge_sources (
    knowledge_id INTEGER NOT NULL REFERENCES knowledge(id) ON DELETE CASCADE,
    episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
    PRIMARY KEY (knowledge_id, episode_id)
) WITHOUT ROWID;
CREATE INDEX knowledge_sources_episode ON knowledge_sources(episode_id);
CREATE TABLE activity (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    job TEXT NOT NULL,
    summary TEXT NOT NULL
);
"""

# Version 2: the user's words are the retrieval key.  The keyword index holds an episode's
# user text only (the assistant's words stay as context, never as a key); episodes whose
# embedding was made from the whole exchange are re-embedded by the engine on load
# (meta ``reembed_keys``).  Knowledge items the user edited carry ``edited_at``.
_V2 = """
DROP TRIGGER episodes_ai;
DROP TRIGGER episodes_au;
CREATE TRIGGER episodes_ai AFTER INSERT ON episodes BEGIN
    INSERT INTO episodes_fts(rowid, body) VALUES (new.id, new.user_text);
END;
CREATE TRIGGER episodes_au AFTER UPDATE OF user_text ON episodes BEGIN
    UPDATE episodes_fts SET body = new.user_text WHERE rowid = new.id;
END;
DELETE FROM episodes_fts;
INSERT INTO episodes_fts(rowid, body) SELECT id, user_text FROM episodes;
ALTER TABLE knowledge ADD COLUMN edited_at REAL;
INSERT INTO meta(key, value) SELECT 'reembed_keys', '1'
    WHERE EXISTS (SELECT 1 FROM episodes WHERE assistant_text != '');
"""

# version -> SQL that brings a store from version-1 to version.
MIGRATIONS: dict[int, str] = {1: _V1, 2: _V2}


@dataclass
class Episode:
    id: int
    uid: str
    conversation_id: int | None
    user_text: str
    assistant_text: str
    created_at: float
    access_count: int = 0
    last_access: float | None = None
    importance: float = 0.0
    pinned: bool = False
    archived_at: float | None = None
    deleted_at: float | None = None
    last_recall: dict | None = None
    source: str = "chat"
    meta: dict | None = None

    @property
    def text(self) -> str:
        """The whole exchange, for reading (memory browser, exports)."""
        return episode_text(self.user_text, self.assistant_text)

    @property
    def key(self) -> str:
        """The user's words: what is embedded, indexed and shown to the model."""
        return key_text(self.user_text, self.assistant_text)


def episode_text(user_text: str, assistant_text: str) -> str:
    """The whole exchange as text, for people to read."""
    if assistant_text:
        return f"User: {user_text}\nAssistant: {assistant_text}"
    return user_text


def key_text(user_text: str, assistant_text: str = "") -> str:
    """The retrieval key of an episode: the user's own words.  The assistant's words never
    become a key on their own: an episode without user words has no key (empty)."""
    return (user_text or "").strip()


_EPISODE_COLS = (
    "id, uid, conversation_id, user_text, assistant_text, created_at, access_count, "
    "last_access, importance, pinned, archived_at, deleted_at, last_recall, source, meta"
)


def _row_to_episode(r) -> Episode:
    return Episode(
        id=r[0],
        uid=r[1],
        conversation_id=r[2],
        user_text=r[3],
        assistant_text=r[4],
        created_at=r[5],
        access_count=r[6],
        last_access=r[7],
        importance=r[8],
        pinned=bool(r[9]),
        archived_at=r[10],
        deleted_at=r[11],
        last_recall=json.loads(r[12]) if r[12] else None,
        source=r[13],
        meta=json.loads(r[14]) if r[14] else None,
    )


class Store:
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
            self.db = sqlite_utils.Database(self.conn)
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self.close()
            raise StoreError(db_error_message(self.path, exc)) from exc
        self._lock = threading.RLock()
        self._tx_depth = 0

    # ---- lifecycle ------------------------------------------------------------------
    def _migrate(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: written by a newer HeLa Desktop (schema {version}, this "
                f"version reads up to {SCHEMA_VERSION}); upgrade the app"
            )
        for v in range(version + 1, SCHEMA_VERSION + 1):
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                for stmt in _split_sql(MIGRATIONS[v]):
                    self.conn.execute(stmt)
                self.conn.execute(f"PRAGMA user_version = {v}")
                self.conn.execute("COMMIT")
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise

    @property
    def schema_version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

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
            copy.db = sqlite_utils.Database(mem)
            copy._lock, copy._tx_depth = threading.RLock(), 0
            yield copy
        finally:
            mem.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic unit of work.  A nested call is a savepoint inside the outer
        transaction: if it fails, its own writes are undone (and the error raised), and the
        outer unit can still go on and commit."""
        with self._lock:
            if self._tx_depth:
                name = f"hela_tx_{self._tx_depth}"
                self.conn.execute(f"SAVEPOINT {name}")
                self._tx_depth += 1
                try:
                    yield self.conn
                except BaseException:
                    self.conn.execute(f"ROLLBACK TO {name}")
                    self.conn.execute(f"RELEASE {name}")
                    raise
                else:
                    self.conn.execute(f"RELEASE {name}")
                finally:
                    self._tx_depth -= 1
                return
            self.conn.execute("BEGIN IMMEDIATE")
            self._tx_depth = 1
            try:
                yield self.conn
            except BaseException:
                self._tx_depth = 0
                self.conn.execute("ROLLBACK")
                raise
            else:
                self._tx_depth = 0
                self.conn.execute("COMMIT")

    # ---- meta -----------------------------------------------------------------------
    def get_meta(self, key: str, default: str | None = None) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, str(value)),
        )

    def delete_meta(self, key: str) -> None:
        self.conn.execute("DELETE FROM meta WHERE key = ?", (key,))

    def has_unnamed_vectors(self) -> bool:
        """Whether some episode or knowledge vector has no embedder name."""
        return self.conn.execute(
            "SELECT EXISTS (SELECT 1 FROM episodes WHERE embedding IS NOT NULL AND embedder "
            "IS NULL) OR EXISTS (SELECT 1 FROM knowledge WHERE embedding IS NOT NULL AND "
            "embedder IS NULL)").fetchone()[0] == 1

    def hebbian_step(self) -> int:
        return int(self.get_meta("hebbian_step", "0"))

    # ---- conversations and messages ------------------------------------------------
    def add_conversation(self, title: str = "New chat", *, at: float | None = None) -> int:
        now = time.time() if at is None else at
        cur = self.conn.execute(
            "INSERT INTO conversations(uid, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
            (new_uid(), title, now, now),
        )
        return int(cur.lastrowid)

    def conversations(self) -> list[dict]:
        rows = self.conn.execute(
            "SELECT c.id, c.title, c.created_at, c.updated_at, "
            "(SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) "
            "FROM conversations c ORDER BY c.updated_at DESC, c.id DESC"
        ).fetchall()
        return [
            dict(id=r[0], title=r[1], created_at=r[2], updated_at=r[3], messages=r[4])
            for r in rows
        ]

    def recent_answers(self, limit: int = 20, *, exclude_conversation: int | None = None
                       ) -> list[str]:
        """The latest completed answers, newest first (optionally of other chats only)."""
        return [r[0] for r in self.conn.execute(
            "SELECT content FROM messages WHERE role = 'assistant' AND interrupted = 0 "
            "AND conversation_id IS NOT ? ORDER BY id DESC LIMIT ?",
            (exclude_conversation, limit))]

    def conversation_exists(self, conversation_id: int) -> bool:
        return (
            self.conn.execute(
                "SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
            is not None
        )

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        self.conn.execute(
            "UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?",
            (title.strip() or "Untitled", time.time(), conversation_id),
        )

    def delete_conversation(self, conversation_id: int) -> None:
        """Delete the chat and its messages; the memories formed in it stay."""
        with self.transaction():
            self.conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))

    def add_message(
        self,
        conversation_id: int,
        role: str,
        content: str,
        *,
        at: float | None = None,
        interrupted: bool = False,
        episode_id: int | None = None,
        stats: dict | None = None,
    ) -> int:
        now = time.time() if at is None else at
        with self.transaction():
            cur = self.conn.execute(
                "INSERT INTO messages(uid, conversation_id, role, content, created_at, "
                "interrupted, episode_id, stats) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    new_uid(),
                    conversation_id,
                    role,
                    content,
                    now,
                    int(interrupted),
                    episode_id,
                    json.dumps(stats) if stats else None,
                ),
            )
            self.conn.execute(
                "UPDATE conversations SET updated_at = ? WHERE id = ?", (now, conversation_id)
            )
        return int(cur.lastrowid)

    def delete_messages_from(self, conversation_id: int, message_id: int) -> list[int]:
        """Remove a chat's messages from `message_id` on (regenerate, edit and resend);
        returns the ids of the memories their answers had formed (the caller decides)."""
        with self.transaction():
            eps = [r[0] for r in self.conn.execute(
                "SELECT episode_id FROM messages WHERE conversation_id = ? AND id >= ? "
                "AND episode_id IS NOT NULL", (conversation_id, message_id))]
            self.conn.execute("DELETE FROM messages WHERE conversation_id = ? AND id >= ?",
                              (conversation_id, message_id))
        return eps

    def messages(self, conversation_id: int) -> list[dict]:
        rows = self.conn.execute(
            "SELECT id, role, content, created_at, interrupted, episode_id, stats "
            "FROM messages WHERE conversation_id = ? ORDER BY id",
            (conversation_id,),
        ).fetchall()
        return [
            dict(
                id=r[0],
                role=r[1],
                content=r[2],
                created_at=r[3],
                interrupted=bool(r[4]),
                episode_id=r[5],
                stats=json.loads(r[6]) if r[6] else None,
            )
            for r in rows
        ]

    # ---- episodes -------------------------------------------------------------------
    # ---- episode ids are never reused ----------------------------------------------
    # SQLite gives a new row max(id) + 1, so purging the newest memories would hand their
    # ids to the next ones, and anything still naming an old id (a timeline, a chat's stats,
    # the window's state) would point at a different memory.  Purges record the highest id
    # they removed (meta ``episode_id_floor``); inserts start above it.
    def retire_episode_ids(self, ids: Iterable[int]) -> None:
        top = max((int(i) for i in ids), default=0)
        if top > int(self.get_meta("episode_id_floor", "0") or 0):
            self.set_meta("episode_id_floor", str(top))

    def next_episode_id(self) -> int | None:
        """The id the next episode must take, or None when SQLite's own choice is safe."""
        floor = int(self.get_meta("episode_id_floor", "0") or 0)
        if not floor:
            return None
        top = self.conn.execute("SELECT MAX(id) FROM episodes").fetchone()[0] or 0
        return floor + 1 if floor >= top else None

    def add_episode(
        self,
        user_text: str,
        assistant_text: str,
        embedding: np.ndarray | None,
        *,
        embedder: str | None = None,
        conversation_id: int | None = None,
        created_at: float | None = None,
        importance: float = 0.0,
        source: str = "chat",
        meta: dict | None = None,
        uid: str | None = None,
    ) -> int:
        cur = self.conn.execute(
            "INSERT INTO episodes(id, uid, conversation_id, user_text, assistant_text, "
            "created_at, embedding, embedder, importance, source, meta) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                self.next_episode_id(),
                uid or new_uid(),
                conversation_id,
                user_text,
                assistant_text,
                time.time() if created_at is None else created_at,
                to_blob(embedding),
                embedder,
                float(importance),
                source,
                json.dumps(meta) if meta else None,
            ),
        )
        return int(cur.lastrowid)

    def episode(self, episode_id: int) -> Episode | None:
        r = self.conn.execute(
            f"SELECT {_EPISODE_COLS} FROM episodes WHERE id = ?", (episode_id,)
        ).fetchone()
        return _row_to_episode(r) if r else None

    def episodes(self, ids: Iterable[int]) -> dict[int, Episode]:
        ids = list(dict.fromkeys(int(i) for i in ids))
        out: dict[int, Episode] = {}
        for chunk in _chunks(ids, 500):
            q = ",".join("?" * len(chunk))
            for r in self.conn.execute(
                f"SELECT {_EPISODE_COLS} FROM episodes WHERE id IN ({q})", chunk
            ):
                out[r[0]] = _row_to_episode(r)
        return out

    def list_episodes(
        self,
        *,
        search: str | None = None,
        include_archived: bool = False,
        only_archived: bool = False,
        include_deleted: bool = False,
        limit: int = 500,
        offset: int = 0,
    ) -> list[Episode]:
        """Episodes for the memory browser, newest first; `search` uses FTS5."""
        where = []
        args: list = []
        if not include_deleted:
            where.append("e.deleted_at IS NULL")
        if only_archived:
            where.append("e.archived_at IS NOT NULL")
        elif not include_archived:
            where.append("e.archived_at IS NULL")
        join = ""
        if search and search.strip():
            join = "JOIN episodes_fts f ON f.rowid = e.id"
            where.append("episodes_fts MATCH ?")
            args.append(fts_query(search))
        sql = (
            f"SELECT {', '.join('e.' + c.strip() for c in _EPISODE_COLS.split(','))} "
            f"FROM episodes e {join} "
            + (f"WHERE {' AND '.join(where)} " if where else "")
            + "ORDER BY e.created_at DESC, e.id DESC LIMIT ? OFFSET ?"
        )
        args += [limit, offset]
        try:
            return [_row_to_episode(r) for r in self.conn.execute(sql, args)]
        except sqlite3.OperationalError:
            return []

    def count_episodes(self, *, archived: bool = False) -> int:
        cond = "archived_at IS NOT NULL" if archived else "archived_at IS NULL"
        return self.conn.execute(
            f"SELECT COUNT(*) FROM episodes WHERE deleted_at IS NULL AND {cond}"
        ).fetchone()[0]

    def missing_episodes(self, ids: Iterable[int]) -> set[int]:
        """Those of `ids` that are no longer in the store (purged)."""
        ids = set(int(i) for i in ids)
        return ids - set(self.episodes(ids))

    def embedding_dim(self) -> int | None:
        """The dimension of the store's episode vectors (None while it has none)."""
        row = self.conn.execute("SELECT length(embedding) FROM episodes "
                                "WHERE embedding IS NOT NULL LIMIT 1").fetchone()
        return row[0] // 4 if row and row[0] else None

    def active_index_rows(self) -> Iterator[tuple]:
        """(id, embedding, created_at, access_count, last_access, importance, query_centroid,
        query_count) for every episode that takes part in retrieval."""
        yield from self.conn.execute(
            "SELECT id, embedding, created_at, access_count, last_access, importance, "
            "query_centroid, query_count FROM episodes "
            "WHERE deleted_at IS NULL AND archived_at IS NULL AND embedding IS NOT NULL "
            "ORDER BY id"
        )

    def update_episode_text(self, episode_id: int, user_text: str, assistant_text: str,
                            embedding: np.ndarray | None) -> None:
        self.conn.execute(
            "UPDATE episodes SET user_text = ?, assistant_text = ?, embedding = ? WHERE id = ?",
            (user_text, assistant_text, to_blob(embedding), episode_id),
        )

    def set_pinned(self, episode_id: int, pinned: bool) -> None:
        self.conn.execute("UPDATE episodes SET pinned = ? WHERE id = ?", (int(pinned), episode_id))

    def set_deleted(self, episode_id: int, deleted: bool) -> None:
        """Soft delete (undoable); the row and its edges stay until purged."""
        self.conn.execute(
            "UPDATE episodes SET deleted_at = ? WHERE id = ?",
            (time.time() if deleted else None, episode_id),
        )

    def set_archived(self, episode_id: int, reason: str | None) -> None:
        """Archive with a reason, or restore with ``reason=None``."""
        self.conn.execute(
            "UPDATE episodes SET archived_at = ?, archive_reason = ? WHERE id = ?",
            (time.time() if reason else None, reason, episode_id),
        )

    def record_access(self, updates: list[tuple[int, float, bytes | None, int, str]]) -> None:
        """(episode_id, at, query_centroid blob, query_count, last_recall json) per recalled episode."""
        self.conn.executemany(
            "UPDATE episodes SET access_count = access_count + 1, last_access = ?, "
            "query_centroid = ?, query_count = ?, last_recall = ? WHERE id = ?",
            [(at, c, n, lr, eid) for eid, at, c, n, lr in updates],
        )

    # ---- keyword index --------------------------------------------------------------
    def keyword_hits(self, terms: list[str], limit_per_term: int = 5000) -> dict[str, list[int]]:
        """Episode ids containing each (already stemmed-compatible) term, via FTS5."""
        out: dict[str, list[int]] = {}
        for t in terms:
            try:
                rows = self.conn.execute(
                    "SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH ? LIMIT ?",
                    (f'"{t}"', limit_per_term),
                ).fetchall()
            except sqlite3.OperationalError:
                rows = []
            out[t] = [r[0] for r in rows]
        return out

    def _episode_column(self, column: str, ids: Iterable[int]) -> dict:
        out: dict = {}
        for chunk in _chunks(list(dict.fromkeys(int(i) for i in ids)), 500):
            q = ",".join("?" * len(chunk))
            out.update(self.conn.execute(
                f"SELECT id, {column} FROM episodes WHERE id IN ({q})", chunk).fetchall())
        return out

    def key_texts(self, ids: Iterable[int]) -> dict[int, str]:
        """Episode id -> the user's words (the retrieval key)."""
        return self._episode_column("user_text", ids)

    def created_times(self, ids: Iterable[int]) -> dict[int, float]:
        return self._episode_column("created_at", ids)

    def user_texts(self) -> Iterator[str]:
        """The user's words of every retrievable episode (for learning names)."""
        for (u,) in self.conn.execute(
                "SELECT user_text FROM episodes WHERE deleted_at IS NULL AND archived_at IS NULL"):
            yield u

    def episodes_to_rekey(self) -> list[tuple[int, str]]:
        """(id, user words) of episodes whose embedding was made from the whole exchange."""
        return self.conn.execute(
            "SELECT id, user_text FROM episodes WHERE assistant_text != '' "
            "AND embedding IS NOT NULL ORDER BY id").fetchall()

    def set_embeddings(self, rows: list[tuple[bytes | None, int]]) -> None:
        self.conn.executemany("UPDATE episodes SET embedding = ? WHERE id = ?", rows)

    # ---- knowledge the user corrects ---------------------------------------------------
    def knowledge_edited_ids(self) -> set[int]:
        return {r[0] for r in self.conn.execute(
            "SELECT id FROM knowledge WHERE edited_at IS NOT NULL")}

    def edit_knowledge(self, knowledge_id: int, text: str, embedding: np.ndarray | None,
                       embedder: str | None) -> None:
        now = time.time()
        self.conn.execute(
            "UPDATE knowledge SET text = ?, embedding = ?, embedder = ?, updated_at = ?, "
            "edited_at = ? WHERE id = ?",
            (text, to_blob(embedding), embedder, now, now, knowledge_id))

    def set_knowledge_archived(self, knowledge_id: int, archived: bool) -> None:
        now = time.time()
        self.conn.execute(
            "UPDATE knowledge SET archived_at = ?, updated_at = ? WHERE id = ?",
            (now if archived else None, now, knowledge_id))

    def fts_row_count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM episodes_fts").fetchone()[0]

    # ---- edges ----------------------------------------------------------------------
    def edges_of(self, ids: Iterable[int]) -> list[tuple[int, int, float, float, int, int, float]]:
        """All edges touching any of `ids`: (src, dst, weight, prior, count, step, updated_at)."""
        ids = list(dict.fromkeys(int(i) for i in ids))
        out = []
        for chunk in _chunks(ids, 400):
            q = ",".join("?" * len(chunk))
            out.extend(
                self.conn.execute(
                    "SELECT src, dst, weight, prior, count, step, updated_at FROM edges "
                    f"WHERE src IN ({q}) UNION "
                    "SELECT src, dst, weight, prior, count, step, updated_at FROM edges "
                    f"WHERE dst IN ({q})",
                    chunk + chunk,
                ).fetchall()
            )
        return out

    def edges_between(self, ids: Iterable[int]) -> dict[tuple[int, int], tuple]:
        ids = sorted(set(int(i) for i in ids))
        if len(ids) < 2:
            return {}
        q = ",".join("?" * len(ids))
        rows = self.conn.execute(
            "SELECT src, dst, weight, prior, count, step, updated_at FROM edges "
            f"WHERE src IN ({q}) AND dst IN ({q})",
            ids + ids,
        ).fetchall()
        return {(r[0], r[1]): r for r in rows}

    def upsert_edges(self, rows: list[tuple[int, int, float, float, int, int, float]]) -> None:
        """Write (src, dst, weight, prior, count, step, updated_at) with src < dst."""
        self.conn.executemany(
            "INSERT INTO edges(src, dst, weight, prior, count, step, updated_at) "
            "VALUES (?,?,?,?,?,?,?) ON CONFLICT(src, dst) DO UPDATE SET "
            "weight = excluded.weight, prior = excluded.prior, count = excluded.count, "
            "step = excluded.step, updated_at = excluded.updated_at",
            rows,
        )

    def all_edges(self) -> list[tuple]:
        return self.conn.execute(
            "SELECT e.src, e.dst, e.weight, e.prior, e.count, e.step, e.updated_at FROM edges e "
            "JOIN episodes a ON a.id = e.src JOIN episodes b ON b.id = e.dst "
            "WHERE a.deleted_at IS NULL AND a.archived_at IS NULL "
            "AND b.deleted_at IS NULL AND b.archived_at IS NULL"
        ).fetchall()

    def count_edges(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM edges").fetchone()[0]

    # ---- timelines ------------------------------------------------------------------
    def save_timeline(self, message_id: int, spans: list[tuple[int, int, list[int]]]) -> None:
        self.conn.executemany(
            'INSERT OR REPLACE INTO timelines(message_id, start, "end", episode_ids) VALUES (?,?,?,?)',
            [(message_id, s, e, json.dumps(ids)) for s, e, ids in spans],
        )

    def timeline(self, message_id: int) -> list[tuple[int, int, list[int]]]:
        rows = self.conn.execute(
            'SELECT start, "end", episode_ids FROM timelines WHERE message_id = ? ORDER BY start',
            (message_id,),
        ).fetchall()
        return [(r[0], r[1], json.loads(r[2])) for r in rows]

    # ---- activity log ---------------------------------------------------------------
    def log_activity(self, job: str, summary: dict) -> None:
        self.conn.execute(
            "INSERT INTO activity(at, job, summary) VALUES (?, ?, ?)",
            (time.time(), job, json.dumps(summary)),
        )

    def activity(self, limit: int = 100) -> list[dict]:
        rows = self.conn.execute(
            "SELECT at, job, summary FROM activity ORDER BY id DESC LIMIT ?", (limit,)
        ).fetchall()
        return [dict(at=r[0], job=r[1], summary=json.loads(r[2])) for r in rows]

    def integrity_ok(self) -> bool:
        ok = self.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        fk = self.conn.execute("PRAGMA foreign_key_check").fetchall()
        return ok and not fk


def check_memory_file(path: str | Path) -> str:
    """What is wrong with the memory file at `path`, in one line ("" when it is sound).
    It opens the file read-only: nothing in it changes (SQLite may leave its empty
    journal files beside it)."""
    path = Path(path)
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5.0)
    except sqlite3.Error as exc:
        return db_error_message(path, exc)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            return (f"{path}: written by a newer HeLa Desktop (schema {version}, this version "
                    f"reads up to {SCHEMA_VERSION}); upgrade the app")
        problems = [r[0] for r in conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            return (f"{path}: damaged ({'; '.join(problems)[:200]}); move it aside and "
                    "import your last export, or choose another --data-dir")
        if version and conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
            return f"{path}: broken references between rows (PRAGMA foreign_key_check)"
    except sqlite3.Error as exc:
        return db_error_message(path, exc)
    finally:
        conn.close()
    return ""


def _split_sql(script: str) -> list[str]:
    """Split a schema script into statements (trigger bodies keep their inner ';')."""
    out, buf = [], []
    depth = 0
    for line in script.strip().splitlines():
        buf.append(line)
        up = line.strip().upper()
        if up.startswith("CREATE TRIGGER"):
            depth = 1
        if depth and up.startswith("END;"):
            depth = 0
            out.append("\n".join(buf).rstrip(";"))
            buf = []
            continue
        if not depth and line.rstrip().endswith(";"):
            out.append("\n".join(buf).rstrip().rstrip(";"))
            buf = []
    if "".join(buf).strip():
        out.append("\n".join(buf))
    return out


def _chunks(seq: list, n: int) -> Iterator[list]:
    for i in range(0, len(seq), n):
        yield seq[i : i + n]


_FTS_SPECIAL = str.maketrans({c: " " for c in '"*^():{}[]+-,.;!?\'`~@#$%&=<>/\\|'})


def fts_query(text: str) -> str:
    """A safe FTS5 query: every word quoted, joined by OR."""
    words = [w for w in text.translate(_FTS_SPECIAL).split() if w]
    return " OR ".join(f'"{w}"' for w in words) or '""'
