"""Episodes: the memories themselves, their keyword index (FTS5), archive and purge."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

import numpy as np

from ..words import memory_ref
from .base import StoreBase
from .rows import (
    EPISODE_COLS,
    MARK_FORGOTTEN,
    Episode,
    chunks,
    from_blob,
    fts_query,
    marks,
    new_uid,
    row_to_episode,
    to_blob,
)


def live_episode(alias: str = "", *, archived: bool = False) -> str:
    """The SQL condition "episode `alias` takes part in retrieval and in the graph": not
    deleted and not archived (with `archived`: archived ones too, they keep their edges)."""
    p = f"{alias}." if alias else ""
    return f"{p}deleted_at IS NULL" + ("" if archived else f" AND {p}archived_at IS NULL")


def removed_episode(alias: str = "") -> str:
    """The SQL condition "episode `alias` is out of recall": archived or deleted."""
    p = f"{alias}." if alias else ""
    return f"({p}archived_at IS NOT NULL OR {p}deleted_at IS NOT NULL)"


LIVE_EPISODE = live_episode()
REMOVED_EPISODE = removed_episode()

_EPISODE_TABLE_COLS = frozenset(
    "id uid conversation_id user_text assistant_text created_at embedding embedder "
    "access_count last_access importance pinned archived_at archive_reason deleted_at "
    "query_centroid query_count last_recall source meta".split())


class IndexRow(NamedTuple):
    """What the engine's in-memory index keeps of a retrievable episode."""

    id: int
    embedding: np.ndarray | None
    created_at: float
    access_count: int
    last_access: float | None
    importance: float
    query_centroid: np.ndarray | None
    query_count: int
    conversation_id: int | None
    speaker: str | None  # the ``speaker`` of the episode's JSON meta


_INDEX_COLS = ("id, embedding, created_at, access_count, last_access, importance, "
               "query_centroid, query_count, conversation_id, meta")


def _speaker(meta: str | None) -> str | None:
    """The ``speaker`` field of an episode's JSON meta, if any."""
    if not meta:
        return None
    try:
        d = json.loads(meta)
    except ValueError:
        return None
    v = d.get("speaker") if isinstance(d, dict) else None
    return v if isinstance(v, str) else None


def _index_row(r: tuple) -> IndexRow:
    return IndexRow(r[0], from_blob(r[1]), r[2], r[3], r[4], r[5], from_blob(r[6]), r[7],
                    r[8], _speaker(r[9]))


# what the memory browser's rows can be sorted by (SQL, so a big store sorts all of its
# memories, not just the rows shown)
EPISODE_ORDERS = {"pinned": "e.pinned", "created": "e.created_at",
                  "user": "e.user_text COLLATE NOCASE", "assistant": "e.assistant_text COLLATE NOCASE",
                  "recalled": "e.access_count", "last": "COALESCE(e.last_access, 0)",
                  # out of recall since: when it was deleted, else archived (the Archive tab)
                  "removed": "COALESCE(e.deleted_at, e.archived_at, 0)"}


class ForgetCandidate(NamedTuple):
    id: int
    pinned: int
    seen_at: float  # last access, or creation if never recalled; not before its import
    user_text: str
    assistant_text: str


class ArchivedEpisode(NamedTuple):
    id: int
    user_text: str
    assistant_text: str
    created_at: float
    archived_at: float
    reason: str | None
    edges: int  # edges kept for a restore


class EpisodeQueries(StoreBase):
    """The ``episodes`` table and its FTS5 index."""

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

    def episode_ids_given(self) -> int:
        """The highest episode id ever given out, memories deleted for good included (0: the
        store never held one, and an import may keep a memory file's numbers)."""
        top = self.conn.execute("SELECT MAX(id) FROM episodes").fetchone()[0] or 0
        return max(int(top), int(self.get_meta("episode_id_floor", "0") or 0))

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
        return int(cur.lastrowid or 0)

    def episode(self, episode_id: int) -> Episode | None:
        r = self.conn.execute(
            f"SELECT {EPISODE_COLS} FROM episodes WHERE id = ?", (episode_id,)
        ).fetchone()
        return row_to_episode(r) if r else None

    def episodes(self, ids: Iterable[int]) -> dict[int, Episode]:
        ids = list(dict.fromkeys(int(i) for i in ids))
        out: dict[int, Episode] = {}
        for chunk in chunks(ids, 500):
            q = ",".join("?" * len(chunk))
            for r in self.conn.execute(
                f"SELECT {EPISODE_COLS} FROM episodes WHERE id IN ({q})", chunk
            ):
                out[r[0]] = row_to_episode(r)
        return out

    def list_episodes(
        self,
        *,
        search: str | None = None,
        include_archived: bool = False,
        only_archived: bool = False,
        include_deleted: bool = False,
        removed: bool = False,
        only_deleted: bool = False,
        limit: int = 500,
        offset: int = 0,
        order: str = "created",
        descending: bool = True,
    ) -> list[Episode]:
        """Episodes for the memory browser, newest first or by `order` (a key of
        `EPISODE_ORDERS`: the browser's columns); `search` uses FTS5, and "#12" is memory 12.
        `removed`: only those out of recall, archived or deleted (the Archive tab);
        `only_deleted`: only those the user deleted (archived or not)."""
        where = []
        args: list = []
        if only_deleted:
            where.append("e.deleted_at IS NOT NULL")
        elif removed:
            where.append(removed_episode("e"))
        elif not include_deleted:
            where.append("e.deleted_at IS NULL")
        if only_archived:
            where.append("e.archived_at IS NOT NULL")
        elif not (include_archived or removed or only_deleted):
            where.append("e.archived_at IS NULL")
        join = ""
        ref = memory_ref(search)
        if ref is not None:  # "#12": that memory, as the app names it
            where.append("e.id = ?")
            args.append(ref)
        elif search and search.strip():
            join = "JOIN episodes_fts f ON f.rowid = e.id"
            where.append("episodes_fts MATCH ?")
            args.append(fts_query(search))
        sql = (
            f"SELECT {', '.join('e.' + c.strip() for c in EPISODE_COLS.split(','))} "
            f"FROM episodes e {join} "
            + (f"WHERE {' AND '.join(where)} " if where else "")
            + f"ORDER BY {EPISODE_ORDERS.get(order, 'e.created_at')} "
            + f"{'DESC' if descending else 'ASC'}, e.created_at DESC, e.id DESC LIMIT ? OFFSET ?"
        )
        args += [limit, offset]
        try:
            return [row_to_episode(r) for r in self.conn.execute(sql, args)]
        except sqlite3.OperationalError:
            return []

    def sorted_ids(self, ids: Iterable[int], order: str, descending: bool = True) -> list[int]:
        """`ids` in the order `list_episodes` sorts its rows by `order` (a key of
        `EPISODE_ORDERS`: a search's matches sorted by the column the user clicked); equal
        ones keep the order given (best match first)."""
        ids = list(dict.fromkeys(int(i) for i in ids))
        self.conn.execute("CREATE TEMP TABLE IF NOT EXISTS _sort_ids "
                          "(pos INTEGER PRIMARY KEY, id INTEGER NOT NULL)")
        try:
            self.conn.executemany("INSERT INTO temp._sort_ids (pos, id) VALUES (?, ?)",
                                  enumerate(ids))
            return [r[0] for r in self.conn.execute(
                "SELECT e.id FROM temp._sort_ids s JOIN episodes e ON e.id = s.id "
                f"ORDER BY {EPISODE_ORDERS.get(order, 'e.created_at')} "
                f"{'DESC' if descending else 'ASC'}, s.pos")]
        finally:
            self.conn.execute("DELETE FROM temp._sort_ids")

    def count_episodes(self, *, archived: bool = False, deleted: bool = False) -> int:
        """Live memories; or archived ones (not deleted); or deleted ones."""
        if deleted:
            cond = "deleted_at IS NOT NULL"
        else:
            cond = "deleted_at IS NULL AND " + (
                "archived_at IS NOT NULL" if archived else "archived_at IS NULL")
        return self.conn.execute(f"SELECT COUNT(*) FROM episodes WHERE {cond}").fetchone()[0]

    def missing_episodes(self, ids: Iterable[int]) -> set[int]:
        """Those of `ids` that are no longer in the store (purged)."""
        ids = set(int(i) for i in ids)
        return ids - set(self.episodes(ids))

    def embedding_dim(self) -> int | None:
        """The dimension of the store's episode vectors (None while it has none)."""
        row = self.conn.execute("SELECT length(embedding) FROM episodes "
                                "WHERE embedding IS NOT NULL LIMIT 1").fetchone()
        return row[0] // 4 if row and row[0] else None

    def active_index_rows(self) -> Iterator[IndexRow]:
        """Every episode that takes part in retrieval (live, with a vector), by id."""
        for r in self.conn.execute(f"SELECT {_INDEX_COLS} FROM episodes WHERE {LIVE_EPISODE} "
                                   "AND embedding IS NOT NULL ORDER BY id"):
            yield _index_row(r)

    def index_row(self, episode_id: int) -> IndexRow | None:
        """The retrieval row of one live episode (None when deleted, archived or absent)."""
        r = self.conn.execute(f"SELECT {_INDEX_COLS} FROM episodes WHERE id = ? AND "
                              f"{LIVE_EPISODE}", (episode_id,)).fetchone()
        return _index_row(r) if r else None

    def conversation_episode_ids(self, conversation_id: int, *, pinned: bool = True) -> list[int]:
        """The memories formed in a chat that are not deleted (archived ones too), by id;
        without the pinned ones when not `pinned`."""
        return [r[0] for r in self.conn.execute(
            "SELECT id FROM episodes WHERE conversation_id = ? AND deleted_at IS NULL "
            + ("" if pinned else "AND pinned = 0 ") + "ORDER BY id", (conversation_id,))]

    def previous_episode(self, conversation_id: int | None, before_id: int) -> int | None:
        """The latest non-deleted episode of a chat (or of no chat) before `before_id`."""
        if conversation_id is None:
            row = self.conn.execute(
                "SELECT id FROM episodes WHERE conversation_id IS NULL AND id < ? "
                "AND deleted_at IS NULL ORDER BY id DESC LIMIT 1", (before_id,)).fetchone()
        else:
            row = self.conn.execute(
                "SELECT id FROM episodes WHERE conversation_id = ? AND id < ? "
                "AND deleted_at IS NULL ORDER BY id DESC LIMIT 1",
                (conversation_id, before_id)).fetchone()
        return row[0] if row else None

    def episode_ids(self) -> np.ndarray:
        """Every episode id, ascending."""
        return np.array([r[0] for r in self.conn.execute("SELECT id FROM episodes ORDER BY id")],
                        dtype=np.int64)

    def bulk_insert_episodes(self, columns: Sequence[str], rows: Iterable[tuple]) -> None:
        """Insert raw episode rows (`columns` of the ``episodes`` table, one tuple per row)
        in one statement: synthetic pools for the benchmarks.  Ids are SQLite's own."""
        bad = set(columns) - _EPISODE_TABLE_COLS
        if bad:
            raise ValueError(f"not columns of episodes: {sorted(bad)}")
        self.conn.executemany(
            f"INSERT INTO episodes({', '.join(columns)}) VALUES ({marks(len(columns))})", rows)

    def update_episode_text(self, episode_id: int, user_text: str, assistant_text: str,
                            embedding: np.ndarray | None) -> None:
        self.conn.execute(
            "UPDATE episodes SET user_text = ?, assistant_text = ?, embedding = ? WHERE id = ?",
            (user_text, assistant_text, to_blob(embedding), episode_id),
        )

    def set_pinned(self, episode_id: int, pinned: bool) -> None:
        self.conn.execute("UPDATE episodes SET pinned = ? WHERE id = ?", (int(pinned), episode_id))

    def set_deleted(self, episode_id: int, deleted: bool, reason: str | None = None) -> None:
        """Soft delete (undoable); the row and its edges stay until purged.  `reason`: why,
        when the user did not delete it by hand (`REPLACED`); kept in ``archive_reason``."""
        self.conn.execute(
            "UPDATE episodes SET deleted_at = ?, archive_reason = CASE WHEN ? THEN ? "
            "ELSE archive_reason END WHERE id = ?",
            (time.time() if deleted else None, deleted, reason, episode_id),
        )

    def set_archived(self, episode_id: int, reason: str | None) -> None:
        """Archive with a reason, or restore with ``reason=None``."""
        self.conn.execute(
            "UPDATE episodes SET archived_at = ?, archive_reason = ? WHERE id = ?",
            (time.time() if reason else None, reason, episode_id),
        )

    def mark_restored(self, ids: Iterable[int], at: float) -> None:
        """Brought back by hand at `at` (a restore, an undo): not a use — its last use and
        recall count stay as they were (the Memories tab showed the restore as its "Last
        used", QA pass 28b) — but kept in ``meta.restored_at``, which the forgetting counts
        as seen (`forgetting_candidates`): the next idle pass must not archive it again."""
        self.conn.executemany(
            "UPDATE episodes SET meta = json_set(COALESCE(NULLIF(meta, ''), '{}'), "
            "'$.restored_at', ?) WHERE id = ? AND (meta IS NULL OR meta = '' OR "
            "(json_valid(meta) AND json_type(meta) = 'object'))",
            [(float(at), int(i)) for i in ids])

    def touch_episode(self, episode_id: int, at: float) -> None:
        """The memory was needed at `at` without being recalled (asked again): its last use
        moves there (never back); its recall count and reasons stay."""
        self.conn.execute("UPDATE episodes SET last_access = MAX(COALESCE(last_access, ?), ?) "
                          "WHERE id = ?", (at, at, episode_id))

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

    def answers_containing(self, fragments: Iterable[str], *, every: bool = False,
                           limit: int = 1000) -> list[tuple[int, str, str]]:
        """(id, user words, stored answer) of the live episodes whose stored answer contains
        one of `fragments` (all of them with `every`), case-insensitively for ASCII, newest
        first.  The keyword index holds the user's words only (the retrieval key), so this
        scans the answers: for forgetting and search, which must find every copy of a fact."""
        frags = [f for f in dict.fromkeys(fragments) if f][:24]
        if not frags:
            return []
        esc = [f.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") for f in frags]
        cond = (" AND " if every else " OR ").join(
            ["assistant_text LIKE ? ESCAPE '\\'"] * len(esc))
        return self.conn.execute(
            f"SELECT id, user_text, assistant_text FROM episodes WHERE {LIVE_EPISODE} "
            f"AND assistant_text != '' AND ({cond}) ORDER BY created_at DESC, id DESC LIMIT ?",
            [f"%{e}%" for e in esc] + [limit]).fetchall()

    def _episode_column(self, column: str, ids: Iterable[int], where: str = "") -> dict:
        out: dict = {}
        for chunk in chunks(list(dict.fromkeys(int(i) for i in ids)), 500):
            q = ",".join("?" * len(chunk))
            out.update(self.conn.execute(
                f"SELECT id, {column} FROM episodes WHERE id IN ({q}){where}", chunk).fetchall())
        return out

    def archive_reasons(self, ids: Iterable[int]) -> dict[int, str | None]:
        """Episode id -> why forgetting archived it (None: not archived, or no reason)."""
        return self._episode_column("archive_reason", ids)

    def key_texts(self, ids: Iterable[int]) -> dict[int, str]:
        """Episode id -> the user's words (the retrieval key)."""
        return self._episode_column("user_text", ids)

    def kept_key_texts(self, ids: Iterable[int]) -> dict[int, str]:
        """The user's words of those of `ids` the user has not deleted (archived ones count:
        forgetting archives what consolidation distilled; a deletion takes the words back)."""
        return self._episode_column("user_text", ids, " AND deleted_at IS NULL")

    def most_kept(self, limit: int, *, skip_sources: Iterable[str] = ()
                  ) -> list[tuple[int, str, bool]]:
        """(id, user words, pinned) of the retrievable episodes that matter most to the
        user, for an overview of what is known: pinned first, then the most recalled, then
        the newest; `skip_sources` (imported assistants' chats) left out."""
        skip = list(skip_sources)
        q = ",".join("?" * len(skip))
        return [(int(i), t, bool(p)) for i, t, p in self.conn.execute(
            f"SELECT id, user_text, pinned FROM episodes WHERE {LIVE_EPISODE}"
            + (f" AND source NOT IN ({q})" if skip else "")
            + " ORDER BY pinned DESC, access_count DESC, created_at DESC, id DESC LIMIT ?",
            [*skip, int(limit)])]

    def pinned_among(self, ids: Iterable[int]) -> set[int]:
        """Those of the episodes `ids` that are pinned."""
        return {i for i, p in self._episode_column("pinned", ids).items() if p}

    def live_source_counts(self, sources: Iterable[str]) -> dict[str, int]:
        """How many retrievable episodes came from each of `sources` ("chatgpt": 412)."""
        want = list(sources)
        q = ",".join("?" * len(want))
        return dict(self.conn.execute(
            f"SELECT source, COUNT(*) FROM episodes WHERE {LIVE_EPISODE} AND source IN ({q}) "
            "GROUP BY source", want).fetchall()) if want else {}

    def sources(self, ids: Iterable[int]) -> dict[int, str]:
        """Episode id -> where it came from ("chat", "chatgpt", …), without its texts."""
        return self._episode_column("source", ids)

    def embeddings(self, ids: Iterable[int]) -> dict[int, np.ndarray]:
        """Episode id -> its stored vector (those without one left out)."""
        vecs = {i: from_blob(b) for i, b in self._episode_column("embedding", ids).items()}
        return {i: v for i, v in vecs.items() if v is not None}

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

    def fts_row_count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM episodes_fts").fetchone()[0]

    def keyword_doc_count(self, term: str, limit: int) -> int | None:
        """How many episodes contain `term` (FTS5), counting at most `limit`; None when FTS5
        cannot parse the term."""
        try:
            return int(self.conn.execute(
                "SELECT count(*) FROM (SELECT rowid FROM episodes_fts "
                "WHERE episodes_fts MATCH ? LIMIT ?)", (f'"{term}"', limit)).fetchone()[0])
        except sqlite3.Error:
            return None

    def bm25(self, match: str) -> list[tuple[int, float]]:
        """(episode id, FTS5 ``bm25()``: lower is better) of every episode matching the FTS5
        query `match`; none when FTS5 cannot parse it."""
        try:
            return self.conn.execute(
                "SELECT rowid, bm25(episodes_fts) FROM episodes_fts WHERE episodes_fts MATCH ?",
                (match,)).fetchall()
        except sqlite3.Error:
            return []

    # ---- forgetting: archive, restore, purge ------------------------------------------
    def forgetting_candidates(self) -> list[ForgetCandidate]:
        """Every live (not archived, not deleted) episode, by id, with when it was last
        seen: recalled, else made, and never before it came into this store (an imported
        memory keeps its old date, and its ``meta.imported_at`` says when it came) or was
        brought back by hand (``meta.restored_at``, `mark_restored`)."""
        return [ForgetCandidate(*r) for r in self.conn.execute(
            "SELECT id, pinned, MAX(COALESCE(last_access, created_at), CASE WHEN "
            "json_valid(meta) AND json_type(meta, '$.imported_at') IN ('real', 'integer') "
            "THEN json_extract(meta, '$.imported_at') ELSE 0 END, CASE WHEN "
            "json_valid(meta) AND json_type(meta, '$.restored_at') IN ('real', 'integer') "
            "THEN json_extract(meta, '$.restored_at') ELSE 0 END), user_text, assistant_text "
            f"FROM episodes WHERE {LIVE_EPISODE} ORDER BY id")]

    def chat_chain(self) -> set[tuple[int, int]]:
        """(a, b), a < b: non-deleted episodes next to each other in their chat (episodes of
        no chat form one chain), archived ones included: the pairs a temporal link joins."""
        return {(int(a), int(b)) for a, b in self.conn.execute(
            "SELECT LAG(id) OVER (PARTITION BY conversation_id ORDER BY id), id "
            "FROM episodes WHERE deleted_at IS NULL") if a is not None}

    def archived_ids(self, among: Iterable[int] | None = None) -> list[int]:
        """Ids of archived episodes (all, or those of `among`), ascending."""
        return self._ids_where("archived_at IS NOT NULL", among)

    def deleted_ids(self, among: Iterable[int] | None = None) -> list[int]:
        """Those of `among` (None: all) the user deleted (archived or not), ascending."""
        return self._ids_where("deleted_at IS NOT NULL", among)

    def removed_ids(self, among: Iterable[int] | None = None) -> list[int]:
        """Ids of archived or deleted episodes (all, or those of `among`), ascending: the
        ones out of recall, which `purge_episodes` may delete for good."""
        return self._ids_where(REMOVED_EPISODE, among)

    def _ids_where(self, cond: str, among: Iterable[int] | None) -> list[int]:
        if among is None:
            return [r[0] for r in self.conn.execute(
                f"SELECT id FROM episodes WHERE {cond} ORDER BY id")]
        want = list(dict.fromkeys(int(i) for i in among))
        out: list[int] = []
        for chunk in chunks(want, 500):
            out += [r[0] for r in self.conn.execute(
                f"SELECT id FROM episodes WHERE {cond} AND id IN ({marks(len(chunk))})",
                chunk)]
        return sorted(out)

    def archive_episodes(self, reasons: Iterable[tuple[int, str]], at: float) -> None:
        """Archive each (episode id, reason) not archived yet."""
        self.conn.executemany(
            "UPDATE episodes SET archived_at = ?, archive_reason = ? "
            "WHERE id = ? AND archived_at IS NULL", [(at, why, eid) for eid, why in reasons])

    def unarchive_episodes(self, ids: Iterable[int]) -> None:
        self.conn.executemany(
            "UPDATE episodes SET archived_at = NULL, archive_reason = NULL WHERE id = ?",
            [(int(i),) for i in ids])

    def purge_episodes(self, ids: list[int]) -> list[int]:
        """Delete those of `ids` that are archived or deleted, for good: edges and
        provenance links cascade, and a distilled item left with no source that the user
        did not write or edit goes with them (it holds nothing but what they said).  Their
        ids are never given to another memory.  Returns the knowledge ids deleted."""
        self.retire_episode_ids(ids)
        derived: set[int] = set()
        now = time.time()
        for chunk in chunks(ids, 500):
            # only the uid is kept: an older file imported again does not bring it back
            self.conn.execute(
                "INSERT OR IGNORE INTO erased(uid, at) SELECT uid, ? FROM episodes WHERE "
                f"{REMOVED_EPISODE} AND id IN ({marks(len(chunk))})", [now, *chunk])
            derived.update(r[0] for r in self.conn.execute(
                "SELECT knowledge_id FROM knowledge_sources WHERE episode_id IN "
                f"({marks(len(chunk))})", chunk))
            # the answers they were formed in stay in their chats, marked: the model is
            # not shown them again (`messages`' ``forgotten``)
            self.conn.execute(
                MARK_FORGOTTEN + "episode_id IN (SELECT id FROM episodes WHERE "
                f"deleted_at IS NOT NULL AND id IN ({marks(len(chunk))}))", chunk)
            self.conn.execute(
                f"DELETE FROM episodes WHERE {REMOVED_EPISODE} AND id IN "
                f"({marks(len(chunk))})", chunk)
        orphans = sorted(k for (k,) in self.conn.execute(
            "SELECT id FROM knowledge k WHERE edited_at IS NULL AND NOT EXISTS "
            "(SELECT 1 FROM knowledge_sources s WHERE s.knowledge_id = k.id)")
            if k in derived)
        for chunk in chunks(orphans, 500):
            self.conn.execute(f"DELETE FROM knowledge WHERE id IN ({marks(len(chunk))})", chunk)
        return orphans

    def erased_uids(self) -> list[str]:
        """The uids of every memory deleted for good here (the ``erased`` table)."""
        return [r[0] for r in self.conn.execute("SELECT uid FROM erased ORDER BY uid")]

    def add_erased(self, uids: Iterable[str], at: float | None = None) -> None:
        """Record `uids` as deleted for good (another file's erasures: a backup's)."""
        at = time.time() if at is None else at
        self.conn.executemany("INSERT OR IGNORE INTO erased(uid, at) VALUES (?, ?)",
                              [(str(u), at) for u in uids])

    def erase_again(self) -> tuple[list[int], int, int]:
        """Delete for good, at once, the episodes whose uid the user had erased before (an
        import brought them back): (their ids, the links and the knowledge items that went
        with them)."""
        ids = [r[0] for r in self.conn.execute(
            "SELECT e.id FROM episodes e JOIN erased x ON x.uid = e.uid ORDER BY e.id")]
        if not ids:
            return [], 0, 0
        links = 0
        for chunk in chunks(ids, 500):
            q = marks(len(chunk))
            links += self.conn.execute(
                f"SELECT COUNT(*) FROM edges WHERE src IN ({q}) OR dst IN ({q})",
                chunk + chunk).fetchone()[0]
            self.conn.execute(f"UPDATE episodes SET deleted_at = COALESCE(deleted_at, ?) "
                              f"WHERE id IN ({q})", [time.time(), *chunk])
        knowledge = self.purge_episodes(ids)
        return ids, links, len(knowledge)

    def scrub(self) -> None:
        """After a purge: rewrite the keyword index without the purged words and empty the
        write-ahead log, so their text is not left in the file's unused pages
        (``secure_delete`` zeroes the freed rows themselves).  Best effort: a reader in
        another process can keep the log from being emptied until it finishes."""
        self.conn.execute("INSERT INTO episodes_fts(episodes_fts) VALUES ('optimize')")
        wait = self.conn.execute("PRAGMA busy_timeout").fetchone()[0]
        self.conn.execute("PRAGMA busy_timeout = 1000")  # never hang on another's reader
        try:
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {int(wait)}")

    def archived_episodes(self, *, limit: int = 1000, offset: int = 0) -> list[ArchivedEpisode]:
        """Archived (not deleted) episodes, newest archive first, with the edges they keep."""
        return [ArchivedEpisode(*r) for r in self.conn.execute(
            "SELECT e.id, e.user_text, e.assistant_text, e.created_at, e.archived_at, "
            "e.archive_reason, (SELECT COUNT(*) FROM edges g WHERE g.src = e.id OR "
            "g.dst = e.id) FROM episodes e WHERE e.archived_at IS NOT NULL AND "
            "e.deleted_at IS NULL ORDER BY e.archived_at DESC, e.id LIMIT ? OFFSET ?",
            (limit, offset))]

    def said_after(self, after: float, *, skip_sources: Iterable[str] = (),
                   containing: Iterable[str] = ()) -> list[tuple[int, str, float]]:
        """(id, user words, created_at) of the episodes made after `after` that the user
        has not deleted (archived ones count: what forgetting archives was still said),
        oldest first; `skip_sources` (imported assistants' chats) left out; with
        `containing`, only those that hold one of these words (any case, or a word of the
        same stem; one ending in "*", any word it begins: "now 1*" holds "now 14"; the
        caller checks the words themselves)."""
        skip, cues = list(skip_sources), list(containing)
        q = ",".join("?" * len(skip))
        where = ("created_at > ? AND deleted_at IS NULL"
                 + (f" AND source NOT IN ({q})" if skip else ""))
        if not cues:
            return self.conn.execute(
                f"SELECT id, user_text, created_at FROM episodes WHERE {where} "
                "ORDER BY created_at, id", [float(after), *skip]).fetchall()
        # through the keyword index (stemmed, and it holds the answers too: a few more,
        # never fewer; a LIKE scan of 50,000 memories took 180 ms)
        return self.conn.execute(
            "SELECT id, user_text, created_at FROM episodes WHERE id IN (SELECT rowid FROM "
            f"episodes_fts WHERE episodes_fts MATCH ?) AND {where} ORDER BY created_at, id",
            [" OR ".join(f'"{c[:-1]}"*' if c.endswith("*") else f'"{c}"' for c in cues),
             float(after), *skip]).fetchall()

    def said_between(self, text: str, start: float, end: float) -> bool:
        """Is a memory of exactly the user's words `text`, made between `start` and `end`,
        stored (kept, archived or deleted to the trash)?  A chat's Markdown export read
        back here holds such an exchange again (`HistorySource.said_here`)."""
        return self.conn.execute(
            "SELECT 1 FROM episodes WHERE created_at BETWEEN ? AND ? AND user_text = ? LIMIT 1",
            (float(start), float(end), text)).fetchone() is not None

    def newest_created(self, ids: Iterable[int]) -> float:
        """The latest ``created_at`` of the episodes `ids` (0 for none)."""
        return max(self.created_times(ids).values(), default=0.0) or 0.0
