"""The schema: DDL of every version, the migrations between them, and FTS5 set-up.

``PRAGMA user_version`` holds the schema version; :func:`migrate` applies the scripts in
:data:`MIGRATIONS` one version at a time, each in its own transaction.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .errors import StoreError, db_error_message

SCHEMA_VERSION = 3

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

# Version 3: what the user deleted for good stays gone.  The uid of every episode purged
# (Delete for good) is kept, nothing else of it, so that importing an older file again does
# not bring it back.
_V3 = """
CREATE TABLE erased (uid TEXT PRIMARY KEY, at REAL NOT NULL) WITHOUT ROWID;
"""

# version -> SQL that brings a store from version-1 to version.
MIGRATIONS: dict[int, str] = {1: _V1, 2: _V2, 3: _V3}

# Indexes any version may hold (made at open when missing, with no version change: a file
# that has one opens in an older app as before).  The live memories of each chat, found
# without reading an episode's row: `conversations()` counts them for every chat, and
# `deleted_at` lies past an episode's texts and embedding, in its overflow pages (with
# 3,000 imported chats and 12,000 memories: 24-33 ms a listing, 5-7 with the index).
INDEXES = (
    "CREATE INDEX IF NOT EXISTS episodes_conversation_live ON episodes(conversation_id) "
    "WHERE deleted_at IS NULL",
)


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the store at `conn` (the file `path`) to :data:`SCHEMA_VERSION`, with the
    :data:`INDEXES` it lacks; a file of a newer version is refused unchanged."""
    version = schema_version(conn)
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path}: written by a newer HeLa Desktop (schema {version}, this "
            f"version reads up to {SCHEMA_VERSION}); upgrade the app"
        )
    for v in range(version + 1, SCHEMA_VERSION + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for stmt in split_sql(MIGRATIONS[v]):
                conn.execute(stmt)
            conn.execute(f"PRAGMA user_version = {v}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    for stmt in INDEXES:
        conn.execute(stmt)


def fts5_available() -> bool:
    """Whether this Python's SQLite has the FTS5 full-text extension (the keyword index)."""
    try:
        c = sqlite3.connect(":memory:")
        try:
            c.execute("CREATE VIRTUAL TABLE t USING fts5(x)")
        finally:
            c.close()
    except sqlite3.Error:
        return False
    return True


def split_sql(script: str) -> list[str]:
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
