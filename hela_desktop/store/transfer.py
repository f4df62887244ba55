"""The SQL of memory files (`hela_desktop.memfile`): bulk reads for an export, bulk writes
for an import's merge, and the transaction plumbing both need.

Every function takes the store's `sqlite3.Connection` and returns plain rows (tuples, in
the column order its docstring names) or ids, so the memory-file code never writes SQL.
Reads return cursors where an export streams them (millions of rows, never all in memory).

An export's selection lives in three temp tables, ``_mf_sel`` (episode ids), ``_mf_conv``
(conversation ids) and ``_mf_know`` (knowledge ids): `fill_selection` makes them, `drop_selection` removes them, and the
``full`` flag of the readers says whether to join them (False) or read every row (True).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

Row = tuple[Any, ...]


# ================================================================ transactions ========
@contextlib.contextmanager
def read_snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """One consistent read snapshot for everything inside (unless a transaction is open:
    then it is that one's)."""
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")
    try:
        yield
    finally:
        if own:
            conn.execute("COMMIT")


@contextlib.contextmanager
def savepoint(conn: sqlite3.Connection, name: str) -> Iterator[sqlite3.Connection]:
    """All or nothing even inside a caller's transaction: an exception rolls back to the
    savepoint (and is raised again); leaving normally keeps the writes."""
    conn.execute(f"SAVEPOINT {name}")
    try:
        yield conn
    except BaseException:
        conn.execute(f"ROLLBACK TO {name}")
        conn.execute(f"RELEASE {name}")
        raise
    conn.execute(f"RELEASE {name}")


@contextlib.contextmanager
def page_cache(conn: sqlite3.Connection, kib: int) -> Iterator[None]:
    """SQLite's page cache set to `kib` KiB inside, restored after."""
    cache = conn.execute("PRAGMA cache_size").fetchone()[0]
    conn.execute(f"PRAGMA cache_size = -{int(kib)}")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA cache_size = {int(cache)}")


# ============================================================ export: selection =======
def episode_ids_where(conn: sqlite3.Connection, *, conversation: int | None = None,
                      since: float | None = None, until: float | None = None,
                      deleted: bool = True) -> set[int]:
    """Ids of the episodes of a conversation and/or created in ``[since, until)``
    (`deleted`: those the user deleted too)."""
    where: list[str] = []
    args: list[Any] = []
    if conversation is not None:
        where.append("conversation_id = ?")
        args.append(int(conversation))
    if since is not None:
        where.append("created_at >= ?")
        args.append(since)
    if until is not None:
        where.append("created_at < ?")
        args.append(until)
    if not deleted:
        where.append("deleted_at IS NULL")
    sql = "SELECT id FROM episodes" + (f" WHERE {' AND '.join(where)}" if where else "")
    return {r[0] for r in conn.execute(sql, args)}


def drop_selection(conn: sqlite3.Connection) -> None:
    for table in ("_mf_sel", "_mf_conv", "_mf_know"):
        conn.execute(f"DROP TABLE IF EXISTS temp.{table}")


def fill_selection(conn: sqlite3.Connection, episode_ids: Iterable[int], *,
                   include_conversations: bool, conversation: int | None,
                   everything: bool = False) -> None:
    """Temp tables of the selected episodes, of their conversations (with `conversation`
    itself, even when it has no selected episode) and of the knowledge drawn from them.
    `everything`: the selection is the whole store less what the user deleted, so every
    conversation goes, and every knowledge item but those drawn only from deleted memories
    (one the user wrote or edited always goes)."""
    drop_selection(conn)
    for table in ("_mf_sel", "_mf_conv", "_mf_know"):
        conn.execute(f"CREATE TEMP TABLE {table} (id INTEGER PRIMARY KEY)")
    conn.executemany("INSERT INTO _mf_sel(id) VALUES (?)", ((i,) for i in episode_ids))
    if everything:
        conn.execute("INSERT INTO _mf_conv(id) SELECT id FROM conversations")
        conn.execute(
            "INSERT INTO _mf_know(id) SELECT k.id FROM knowledge k WHERE k.edited_at IS NOT "
            "NULL OR NOT EXISTS (SELECT 1 FROM knowledge_sources ks WHERE ks.knowledge_id = "
            "k.id) OR EXISTS (SELECT 1 FROM knowledge_sources ks JOIN _mf_sel s ON s.id = "
            "ks.episode_id WHERE ks.knowledge_id = k.id)")
        return
    conn.execute("INSERT INTO _mf_know(id) SELECT DISTINCT ks.knowledge_id FROM "
                 "knowledge_sources ks JOIN _mf_sel s ON s.id = ks.episode_id")
    if include_conversations:
        conn.execute(
            "INSERT OR IGNORE INTO _mf_conv(id) SELECT DISTINCT e.conversation_id FROM episodes e "
            "JOIN _mf_sel s ON s.id = e.id WHERE e.conversation_id IS NOT NULL"
        )
        if conversation is not None:
            conn.execute("INSERT OR IGNORE INTO _mf_conv(id) SELECT id FROM conversations "
                         "WHERE id = ?", (int(conversation),))


def export_total(conn: sqlite3.Connection, full: bool, include_conversations: bool) -> int:
    """Roughly how many records an export writes (for progress reports)."""
    if not full:
        return conn.execute("SELECT COUNT(*) FROM _mf_sel").fetchone()[0]
    n = conn.execute("SELECT (SELECT COUNT(*) FROM episodes) + (SELECT COUNT(*) FROM edges) + "
                     "(SELECT COUNT(*) FROM knowledge)").fetchone()[0]
    if include_conversations:
        n += conn.execute("SELECT (SELECT COUNT(*) FROM conversations) + "
                          "(SELECT COUNT(*) FROM messages) + "
                          "(SELECT COUNT(*) FROM timelines)").fetchone()[0]
    return n


def most_used_embedder(conn: sqlite3.Connection) -> str | None:
    """The embedder named by most episodes (None when none names one)."""
    row = conn.execute(
        "SELECT embedder FROM episodes WHERE embedder IS NOT NULL GROUP BY embedder "
        "ORDER BY COUNT(*) DESC LIMIT 1"
    ).fetchone()
    return row[0] if row else None


# ============================================================ export: .hela rows =====
_EP_SELECT = (
    "SELECT e.id, e.uid, c.uid, e.user_text, e.assistant_text, e.created_at, e.embedder, "
    "e.embedding, e.access_count, e.last_access, e.importance, e.pinned, e.archived_at, "
    "e.archive_reason, e.deleted_at, e.query_centroid, e.query_count, e.last_recall, "
    "e.source, e.meta FROM episodes e LEFT JOIN conversations c ON c.id = e.conversation_id"
)


def episode_rows(conn: sqlite3.Connection, full: bool) -> Iterator[Row]:
    """(id, uid, conversation uid, user_text, assistant_text, created_at, embedder,
    embedding, access_count, last_access, importance, pinned, archived_at, archive_reason,
    deleted_at, query_centroid, query_count, last_recall, source, meta), by id."""
    sql = _EP_SELECT + ("" if full else " JOIN _mf_sel s ON s.id = e.id") + " ORDER BY e.id"
    return conn.execute(sql)


def conversation_rows(conn: sqlite3.Connection, full: bool) -> Iterator[Row]:
    """(uid, title, created_at, updated_at), by id."""
    cjoin = "" if full else " JOIN _mf_conv s ON s.id = c.id"
    return conn.execute("SELECT c.uid, c.title, c.created_at, c.updated_at FROM "
                        f"conversations c{cjoin} ORDER BY c.id")


def _message_join(full: bool) -> str:
    return "" if full else " JOIN _mf_conv s ON s.id = m.conversation_id"


def message_rows(conn: sqlite3.Connection, full: bool) -> Iterator[Row]:
    """(uid, conversation uid, role, content, created_at, interrupted, episode_id, stats),
    by id."""
    return conn.execute(
        "SELECT m.uid, c.uid, m.role, m.content, m.created_at, m.interrupted, "
        "m.episode_id, m.stats FROM messages m JOIN conversations c "
        f"ON c.id = m.conversation_id{_message_join(full)} ORDER BY m.id"
    )


def timeline_rows(conn: sqlite3.Connection, full: bool) -> Iterator[Row]:
    """(message uid, start, end, episode_ids JSON), by message and start."""
    return conn.execute(
        'SELECT m.uid, t.start, t."end", t.episode_ids FROM timelines t '
        f"JOIN messages m ON m.id = t.message_id{_message_join(full)} "
        "ORDER BY t.message_id, t.start"
    )


def _edge_join(full: bool) -> str:
    return "" if full else " JOIN _mf_sel s1 ON s1.id = g.src JOIN _mf_sel s2 ON s2.id = g.dst"


def edge_rows(conn: sqlite3.Connection, full: bool) -> Iterator[Row]:
    """(a uid, b uid, weight, prior, count, step, updated_at) of the edges between
    selected episodes, by (src, dst)."""
    return conn.execute(
        "SELECT a.uid, b.uid, g.weight, g.prior, g.count, g.step, g.updated_at "
        f"FROM edges g{_edge_join(full)} JOIN episodes a ON a.id = g.src "
        "JOIN episodes b ON b.id = g.dst ORDER BY g.src, g.dst"
    )


def knowledge_ids(conn: sqlite3.Connection, full: bool) -> list[int]:
    """Every knowledge item (full) or the selected ones (`fill_selection`), by id."""
    table = "knowledge" if full else "_mf_know"
    return [r[0] for r in conn.execute(f"SELECT id FROM {table} ORDER BY id")]


def knowledge_source_pairs(conn: sqlite3.Connection, ids: Sequence[int]) -> Iterator[Row]:
    """(knowledge_id, episode_id) of the items `ids` (at most 500), in order."""
    q = ",".join("?" * len(ids))
    return conn.execute(
        f"SELECT knowledge_id, episode_id FROM knowledge_sources WHERE knowledge_id "
        f"IN ({q}) ORDER BY knowledge_id, episode_id", list(ids))


def knowledge_rows(conn: sqlite3.Connection, ids: Sequence[int]) -> Iterator[Row]:
    """(id, uid, kind, text, embedder, embedding, created_at, updated_at, strength,
    superseded_by, superseding uid, archived_at, access_count, last_access) of `ids`
    (at most 500), by id."""
    q = ",".join("?" * len(ids))
    return conn.execute(
        "SELECT k.id, k.uid, k.kind, k.text, k.embedder, k.embedding, k.created_at, "
        "k.updated_at, k.strength, k.superseded_by, s.uid, k.archived_at, "
        "k.access_count, k.last_access FROM knowledge k LEFT JOIN knowledge s ON "
        f"s.id = k.superseded_by WHERE k.id IN ({q}) ORDER BY k.id", list(ids))


# ======================================================== export: Markdown rows =======
def episode_summaries(conn: sqlite3.Connection, full: bool) -> Iterator[Row]:
    """(id, user_text, assistant_text, created_at, importance, pinned, access_count,
    last_access, archived_at, archive_reason, deleted_at, source), oldest first."""
    ejoin = "" if full else " JOIN _mf_sel s ON s.id = e.id"
    return conn.execute(
        "SELECT e.id, e.user_text, e.assistant_text, e.created_at, e.importance, e.pinned, "
        "e.access_count, e.last_access, e.archived_at, e.archive_reason, e.deleted_at, "
        f"e.source FROM episodes e{ejoin} ORDER BY e.created_at, e.id"
    )


def strongest_edges(conn: sqlite3.Connection, full: bool, limit: int,
                    weight_of: Callable[[float, float, int], float]) -> list[Row]:
    """(src, dst, weight, prior, count, step) of the `limit` strongest edges, by
    ``weight_of(weight, prior, step)`` (the caller's effective weight: the stored Hebbian
    weight decays with the steps since it was written)."""
    conn.create_function("hela_link_weight", 3, weight_of, deterministic=True)
    return conn.execute(
        f"SELECT g.src, g.dst, g.weight, g.prior, g.count, g.step FROM edges g{_edge_join(full)} "
        "ORDER BY hela_link_weight(g.weight, g.prior, g.step) DESC, g.src, g.dst LIMIT ?",
        (limit,)).fetchall()


def count_selected_edges(conn: sqlite3.Connection, full: bool) -> int:
    return conn.execute(f"SELECT COUNT(*) FROM edges g{_edge_join(full)}").fetchone()[0]


def knowledge_summaries(conn: sqlite3.Connection, full: bool) -> list[Row]:
    """(kind, text, strength, archived_at, superseded_by), by kind and id."""
    where = "" if full else " WHERE k.id IN (SELECT id FROM _mf_know)"
    return conn.execute("SELECT k.kind, k.text, k.strength, k.archived_at, k.superseded_by "
                        f"FROM knowledge k{where} ORDER BY k.kind, k.id").fetchall()


def conversation_summaries(conn: sqlite3.Connection, full: bool) -> list[Row]:
    """(id, title, created_at), oldest first."""
    cj = "" if full else " JOIN _mf_conv s ON s.id = c.id"
    return conn.execute(f"SELECT c.id, c.title, c.created_at FROM conversations c{cj} "
                        "ORDER BY c.created_at, c.id").fetchall()


def conversation_messages(conn: sqlite3.Connection, conversation_id: int) -> Iterator[Row]:
    """(role, content, created_at, interrupted) of a conversation, in order."""
    return conn.execute("SELECT role, content, created_at, interrupted FROM messages "
                        "WHERE conversation_id = ? ORDER BY id", (conversation_id,))


# ================================================================ import: reads =======
_UID_TABLES = ("episodes", "knowledge")


def uids_with_embedding(conn: sqlite3.Connection, table: str, uids: Sequence[str]) -> set[str]:
    """Which of `uids` (at most 500) the store has in `table` with an embedding."""
    if table not in _UID_TABLES:
        raise ValueError(f"no uids with embeddings in {table!r}")
    q = ",".join("?" * len(uids))
    return {r[0] for r in conn.execute(
        f"SELECT uid FROM {table} WHERE embedding IS NOT NULL AND uid IN ({q})", list(uids))}


def erased_among(conn: sqlite3.Connection, uids: Sequence[str]) -> set[str]:
    """Which of `uids` (at most 500) name memories deleted for good here (``erased``)."""
    q = ",".join("?" * len(uids))
    return {r[0] for r in conn.execute(f"SELECT uid FROM erased WHERE uid IN ({q})",
                                       list(uids))}


def imported_versions(conn: sqlite3.Connection, conversation_ids: Sequence[int],
                      prefix: str) -> dict[int, float]:
    """conversation id -> the time of its newest user message imported from a history
    export (uid `prefix` …, ``.u``; at most 500 ids): the version of the chat the
    exports imported so far showed, whatever was said here since."""
    q = ",".join("?" * len(conversation_ids))
    return {r[0]: r[1] for r in conn.execute(
        "SELECT conversation_id, MAX(created_at) FROM messages WHERE conversation_id IN "
        f"({q}) AND substr(uid, 1, ?) = ? AND substr(uid, -2) = '.u' "
        "GROUP BY conversation_id", [*conversation_ids, len(prefix), prefix])}


def message_time(conn: sqlite3.Connection, uid: str) -> float | None:
    """The time of the message `uid` (None when the store has none)."""
    row = conn.execute("SELECT created_at FROM messages WHERE uid = ?", (uid,)).fetchone()
    return None if row is None else row[0]


def has_edges(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM edges LIMIT 1").fetchone() is not None


def _by_uid(conn: sqlite3.Connection, sql: str, uids: Sequence[str], key: int) -> dict[str, Row]:
    q = ",".join("?" * len(uids))
    return {r[key]: r for r in conn.execute(sql.format(q=q), list(uids))}


def existing_conversations(conn: sqlite3.Connection, uids: Sequence[str]) -> dict[str, Row]:
    """uid -> (uid, id, title, created_at, updated_at) for those of `uids` the store has."""
    return _by_uid(conn, "SELECT uid, id, title, created_at, updated_at FROM conversations "
                         "WHERE uid IN ({q})", uids, 0)


# episodes' columns an import compares and merges, in the order `existing_episodes` gives
EPISODE_MERGE_COLUMNS = ("id", "uid", "conversation_id", "embedding", "embedder",
                         "access_count", "last_access", "importance", "pinned",
                         "query_centroid", "query_count", "last_recall", "meta",
                         "assistant_text", "deleted_at", "archived_at", "archive_reason")


def existing_episodes(conn: sqlite3.Connection, uids: Sequence[str]) -> dict[str, Row]:
    """uid -> the `EPISODE_MERGE_COLUMNS` of those of `uids` the store has."""
    return _by_uid(conn, f"SELECT {', '.join(EPISODE_MERGE_COLUMNS)} FROM episodes "
                         "WHERE uid IN ({q})", uids, 1)


def existing_messages(conn: sqlite3.Connection, uids: Sequence[str]) -> dict[str, Row]:
    """uid -> (uid, id, episode_id) for those of `uids` the store has."""
    return _by_uid(conn, "SELECT uid, id, episode_id FROM messages WHERE uid IN ({q})", uids, 0)


def existing_knowledge(conn: sqlite3.Connection, uids: Sequence[str]) -> dict[str, Row]:
    """uid -> (id, uid, kind, text, embedding, embedder, updated_at, strength,
    superseded_by, access_count, last_access) for those of `uids` the store has."""
    return _by_uid(conn, "SELECT id, uid, kind, text, embedding, embedder, updated_at, "
                         "strength, superseded_by, access_count, last_access FROM knowledge "
                         "WHERE uid IN ({q})", uids, 1)


def episode_ids_of(conn: sqlite3.Connection, uids: Sequence[str]) -> Iterator[Row]:
    """(uid, id) of the episodes `uids`."""
    q = ",".join("?" * len(uids))
    return conn.execute(f"SELECT uid, id FROM episodes WHERE uid IN ({q})", list(uids))


def edge(conn: sqlite3.Connection, src: int, dst: int) -> Row | None:
    """(weight, prior, count, step, updated_at) of the edge src-dst (src < dst), or None."""
    return conn.execute("SELECT weight, prior, count, step, updated_at FROM edges "
                        "WHERE src = ? AND dst = ?", (src, dst)).fetchone()


# =============================================================== import: writes =======
# the columns `update_columns` may set, per table (the names are put into the SQL)
_MERGEABLE = {
    "episodes": frozenset(EPISODE_MERGE_COLUMNS) - {"id", "uid", "deleted_at", "archived_at",
                                                    "archive_reason"},
    "knowledge": frozenset({"kind", "text", "embedding", "embedder", "updated_at", "strength",
                            "access_count", "last_access"}),
}


def update_columns(conn: sqlite3.Connection, table: str, row_id: int,
                   changed: dict[str, Any]) -> None:
    """Set the columns `changed` (name -> value) of one episode or knowledge item."""
    allowed = _MERGEABLE[table]
    bad = [k for k in changed if k not in allowed]
    if bad:
        raise ValueError(f"cannot update {table}.{bad[0]}")
    sets = ", ".join(f"{k} = ?" for k in changed)
    conn.execute(f"UPDATE {table} SET {sets} WHERE id = ?", [*changed.values(), row_id])


def insert_conversation(conn: sqlite3.Connection, uid: str, title: str, created_at: float,
                        updated_at: float) -> int:
    cur = conn.execute("INSERT INTO conversations(uid, title, created_at, updated_at) "
                       "VALUES (?,?,?,?)", (uid, title, created_at, updated_at))
    return _rowid(cur)


def update_conversation(conn: sqlite3.Connection, conversation_id: int, title: str,
                        created_at: float, updated_at: float) -> None:
    conn.execute("UPDATE conversations SET title=?, created_at=?, updated_at=? WHERE id=?",
                 (title, created_at, updated_at, conversation_id))


def insert_episodes(conn: sqlite3.Connection, rows: Iterable[Row]) -> None:
    """Rows of (id or None, uid, conversation_id, user_text, assistant_text, created_at,
    embedding, embedder, access_count, last_access, importance, pinned, archived_at,
    archive_reason, deleted_at, query_centroid, query_count, last_recall, source, meta)."""
    conn.executemany(
        "INSERT INTO episodes(id, uid, conversation_id, user_text, "
        "assistant_text, created_at, embedding, embedder, access_count, "
        "last_access, importance, pinned, archived_at, archive_reason, "
        "deleted_at, query_centroid, query_count, last_recall, source, meta) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)


def insert_message(conn: sqlite3.Connection, row: Row) -> int:
    """(uid, conversation_id, role, content, created_at, interrupted, episode_id, stats)."""
    cur = conn.execute(
        "INSERT INTO messages(uid, conversation_id, role, content, "
        "created_at, interrupted, episode_id, stats) VALUES (?,?,?,?,?,?,?,?)", row)
    return _rowid(cur)


def set_message_episode(conn: sqlite3.Connection, message_id: int, episode_id: int) -> None:
    conn.execute("UPDATE messages SET episode_id = ? WHERE id = ?", (episode_id, message_id))


def set_message_text(conn: sqlite3.Connection, message_id: int, content: str,
                     created_at: float) -> None:
    """A message's words and time (an answer regenerated in a newer export)."""
    conn.execute("UPDATE messages SET content = ?, created_at = ? WHERE id = ?",
                 (content, created_at, message_id))


def live_episode_ids(conn: sqlite3.Connection, uids: Sequence[str]) -> list[int]:
    """Ids of those of `uids` the store has neither archived nor deleted."""
    return [r[1] for r in _by_uid(
        conn, "SELECT uid, id FROM episodes WHERE uid IN ({q}) AND archived_at IS NULL "
              "AND deleted_at IS NULL", uids, 0).values()]


def changes(conn: sqlite3.Connection) -> int:
    """Rows inserted, changed or deleted on this connection since it opened."""
    return conn.total_changes


def add_timeline_span(conn: sqlite3.Connection, message_id: int, start: int, end: int,
                      episode_ids: list[int]) -> bool:
    """Add a span unless the message has one at `start`; True when it was added."""
    cur = conn.execute(
        'INSERT OR IGNORE INTO timelines(message_id, start, "end", episode_ids) '
        "VALUES (?,?,?,?)", (message_id, start, end, json.dumps(episode_ids)))
    return cur.rowcount == 1


def update_edge(conn: sqlite3.Connection, src: int, dst: int, values: Row) -> None:
    """Set (weight, prior, count, step, updated_at) of the edge src-dst."""
    conn.execute("UPDATE edges SET weight=?, prior=?, count=?, step=?, updated_at=? "
                 "WHERE src=? AND dst=?", (*values, src, dst))


def insert_edges(conn: sqlite3.Connection, rows: Iterable[Row]) -> None:
    """Rows of (src, dst, weight, prior, count, step, updated_at)."""
    conn.executemany("INSERT INTO edges(src, dst, weight, prior, count, step, updated_at)"
                     " VALUES (?,?,?,?,?,?,?)", rows)


def insert_knowledge(conn: sqlite3.Connection, row: Row) -> int:
    """(uid, kind, text, embedding, embedder, created_at, updated_at, strength,
    archived_at, access_count, last_access)."""
    cur = conn.execute(
        "INSERT INTO knowledge(uid, kind, text, embedding, embedder, "
        "created_at, updated_at, strength, archived_at, access_count, "
        "last_access) VALUES (?,?,?,?,?,?,?,?,?,?,?)", row)
    return _rowid(cur)


def add_knowledge_sources(conn: sqlite3.Connection, knowledge_id: int,
                          episode_ids: Iterable[int]) -> int:
    """Link a knowledge item to its source episodes; how many links were new."""
    cur = conn.executemany("INSERT OR IGNORE INTO knowledge_sources(knowledge_id, episode_id) "
                           "VALUES (?, ?)", [(knowledge_id, e) for e in episode_ids])
    return max(cur.rowcount, 0)


def set_superseded(conn: sqlite3.Connection, knowledge_id: int, by: int) -> None:
    conn.execute("UPDATE knowledge SET superseded_by = ? WHERE id = ?", (by, knowledge_id))


def _rowid(cur: sqlite3.Cursor) -> int:
    if cur.lastrowid is None:  # pragma: no cover - an INSERT always sets it
        raise sqlite3.DatabaseError("insert without a row id")
    return cur.lastrowid
