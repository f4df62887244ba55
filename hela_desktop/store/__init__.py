"""The memory store: one SQLite file (WAL, foreign keys, FTS5), opened with Python's sqlite3.

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

Storage owns every SQL statement of HeLa Desktop (the memory-file transfer aside, in
``store/transfer.py``).  Split by concern:

- ``schema``: DDL of each version, ``MIGRATIONS``, FTS5 set-up, ``check_memory_file``;
- ``errors``: ``StoreError`` and ``db_error_message``;
- ``rows``: the values handed out (``Episode``, blobs, uids, FTS5 queries);
- ``base``: the shared connection, ``transaction``, ``meta`` and the activity log;
- ``episodes``, ``edges``, ``knowledge``, ``messages``: the queries of each table;
- ``core``: ``Store``, which has them all.
"""

from __future__ import annotations

from .core import DB_FILE, DB_SUFFIXES, Store
from .edges import EdgeRow
from .episodes import LIVE_EPISODE, ArchivedEpisode, ForgetCandidate, IndexRow, live_episode
from .errors import StoreError, db_error_message
from .knowledge import LIVE_KNOWLEDGE, KnowledgeItem, KnowledgeVector
from .rows import (
    AUTHORS,
    REPLACED,
    Episode,
    answered_by,
    episode_text,
    from_blob,
    fts_query,
    key_text,
    new_uid,
    to_blob,
)
from .schema import (
    _V1,
    _V2,
    MIGRATIONS,
    SCHEMA_VERSION,
    check_memory_file,
    fts5_available,
    split_sql,
)

_split_sql = split_sql  # the name the schema tests use

__all__ = [
    "DB_FILE", "DB_SUFFIXES", "LIVE_EPISODE", "LIVE_KNOWLEDGE", "MIGRATIONS", "SCHEMA_VERSION",
    "ArchivedEpisode", "EdgeRow", "Episode", "ForgetCandidate", "IndexRow", "KnowledgeItem",
    "KnowledgeVector", "Store", "StoreError", "_V1", "_V2", "_split_sql", "check_memory_file",
    "db_error_message", "AUTHORS", "REPLACED", "answered_by", "episode_text", "fts5_available", "fts_query", "from_blob",
    "key_text", "live_episode", "new_uid", "split_sql", "to_blob",
]
