"""Knowledge: distilled items (``knowledge``) and their provenance (``knowledge_sources``).

An item is *live* (takes part in retrieval and protects its sources from forgetting) when
it is neither superseded nor archived: :data:`LIVE_KNOWLEDGE`, written once here.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .base import StoreBase
from .rows import chunks, from_blob, marks, new_uid, to_blob

# the live-knowledge filter, on the table aliased ``k``
LIVE_KNOWLEDGE = "k.superseded_by IS NULL AND k.archived_at IS NULL"


@dataclass
class KnowledgeItem:
    """One row of the ``knowledge`` table with its provenance."""

    id: int
    kind: str
    text: str
    strength: float
    created_at: float
    updated_at: float
    superseded_by: int | None
    archived_at: float | None
    sources: list[int]

    def to_dict(self) -> dict:
        return dict(id=self.id, kind=self.kind, text=self.text, strength=self.strength,
                    created_at=self.created_at, updated_at=self.updated_at,
                    superseded_by=self.superseded_by, archived_at=self.archived_at,
                    sources=list(self.sources))


class KnowledgeVector(NamedTuple):
    """A live item with its embedding (for cosine retrieval and merging)."""

    id: int
    kind: str
    text: str
    strength: float
    embedding: np.ndarray


class KnowledgeQueries(StoreBase):
    """The ``knowledge`` and ``knowledge_sources`` tables."""

    def knowledge_sources(self, knowledge_ids: Iterable[int]) -> dict[int, list[int]]:
        """Provenance: knowledge id -> the episode ids it was distilled from (sorted)."""
        ids = list(dict.fromkeys(int(i) for i in knowledge_ids))
        out: dict[int, list[int]] = {i: [] for i in ids}
        for chunk in chunks(ids, 500):
            for kid, eid in self.conn.execute(
                    "SELECT knowledge_id, episode_id FROM knowledge_sources WHERE knowledge_id "
                    f"IN ({marks(len(chunk))}) ORDER BY knowledge_id, episode_id", chunk):
                out[kid].append(eid)
        return out

    def list_knowledge(self, *, include_superseded: bool = False,
                       kind: str | None = None) -> list[KnowledgeItem]:
        """Items strongest first, with their source episodes; live ones only unless
        `include_superseded`."""
        where = [] if include_superseded else [LIVE_KNOWLEDGE]
        args: list = []
        if kind:
            where.append("k.kind = ?")
            args.append(kind)
        rows = self.conn.execute(
            "SELECT k.id, k.kind, k.text, k.strength, k.created_at, k.updated_at, "
            "k.superseded_by, k.archived_at FROM knowledge k "
            + (f"WHERE {' AND '.join(where)} " if where else "")
            + "ORDER BY k.strength DESC, k.updated_at DESC, k.id", args).fetchall()
        src = self.knowledge_sources(r[0] for r in rows)
        return [KnowledgeItem(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], src.get(r[0], []))
                for r in rows]

    def live_knowledge(self, kind: str | None = None) -> list[KnowledgeVector]:
        """Live items that have an embedding (of one `kind`, or all), by id."""
        sql = ("SELECT k.id, k.kind, k.text, k.strength, k.embedding FROM knowledge k "
               f"WHERE {LIVE_KNOWLEDGE} AND k.embedding IS NOT NULL")
        args: tuple = ()
        if kind is not None:
            sql += " AND k.kind = ?"
            args = (kind,)
        out = []
        for kid, knd, text, strength, blob in self.conn.execute(sql + " ORDER BY k.id", args):
            vec = from_blob(blob)
            if vec is not None:
                out.append(KnowledgeVector(kid, knd, text, float(strength), vec))
        return out

    def knowledge_fingerprint(self) -> tuple:
        """Changes whenever a knowledge row is added, edited, strengthened, superseded or
        removed."""
        return tuple(self.conn.execute(
            "SELECT COUNT(*), MAX(id), TOTAL(updated_at), COUNT(superseded_by), "
            "COUNT(archived_at), TOTAL(strength) FROM knowledge").fetchone())

    def count_knowledge(self, *, live: bool = False) -> int:
        where = f" WHERE {LIVE_KNOWLEDGE}" if live else ""
        return int(self.conn.execute(f"SELECT COUNT(*) FROM knowledge k{where}").fetchone()[0])

    def count_knowledge_sources(self) -> int:
        """How many distinct episodes some item was distilled from."""
        return int(self.conn.execute(
            "SELECT COUNT(DISTINCT episode_id) FROM knowledge_sources").fetchone()[0])

    def knowledge_protected(self) -> set[int]:
        """Episodes that live knowledge depends on (sources of live items)."""
        return {r[0] for r in self.conn.execute(
            "SELECT DISTINCT s.episode_id FROM knowledge_sources s JOIN knowledge k "
            f"ON k.id = s.knowledge_id WHERE {LIVE_KNOWLEDGE}")}

    def newest_source_time(self, knowledge_id: int) -> float:
        """The latest ``created_at`` of an item's source episodes (0 for none)."""
        r = self.conn.execute(
            "SELECT MAX(e.created_at) FROM knowledge_sources s JOIN episodes e "
            "ON e.id = s.episode_id WHERE s.knowledge_id = ?", (knowledge_id,)).fetchone()
        return float(r[0] or 0.0)

    # ---- writing (consolidation) ---------------------------------------------------
    def link_knowledge_sources(self, knowledge_id: int, episode_ids: Iterable[int]) -> None:
        self.conn.executemany(
            "INSERT OR IGNORE INTO knowledge_sources(knowledge_id, episode_id) VALUES (?, ?)",
            [(knowledge_id, int(e)) for e in episode_ids])

    def add_knowledge(self, kind: str, text: str, embedding: np.ndarray | None,
                      embedder: str | None, now: float, sources: Iterable[int]) -> int:
        """A new item of strength 1 linked to its source episodes; returns its id."""
        cur = self.conn.execute(
            "INSERT INTO knowledge(uid, kind, text, embedding, embedder, created_at, "
            "updated_at, strength) VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
            (new_uid(), kind, text, to_blob(embedding), embedder, now, now))
        kid = int(cur.lastrowid or 0)
        self.link_knowledge_sources(kid, sources)
        return kid

    def supersede_knowledge(self, old_id: int, new_id: int, now: float) -> None:
        self.conn.execute("UPDATE knowledge SET superseded_by = ?, updated_at = ? WHERE id = ?",
                          (new_id, now, old_id))

    def strengthen_knowledge(self, knowledge_id: int, now: float) -> None:
        self.conn.execute(
            "UPDATE knowledge SET strength = strength + 1, updated_at = ? WHERE id = ?",
            (now, knowledge_id))

    def record_knowledge_access(self, knowledge_ids: Iterable[int],
                                now: float | None = None) -> None:
        """Count a use of each item (access_count, last_access)."""
        now = time.time() if now is None else now
        self.conn.executemany(
            "UPDATE knowledge SET access_count = access_count + 1, last_access = ? WHERE id = ?",
            [(now, int(i)) for i in knowledge_ids])

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

