"""Edges: the Hebbian graph, one row per unordered pair of episodes (src < dst)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .base import StoreBase
from .episodes import live_episode
from .rows import chunks


class EdgeRow(NamedTuple):
    """One stored edge: ``weight`` is the Hebbian part written at Hebbian step ``step``,
    ``prior`` the structural part (see :mod:`hela_desktop.edges` for the weight in use)."""

    src: int
    dst: int
    weight: float
    prior: float
    count: int  # type: ignore[assignment]  # the column's name; shadows tuple.count
    step: int
    updated_at: float


class EdgeQueries(StoreBase):
    """The ``edges`` table."""

    # ---- edges ----------------------------------------------------------------------
    def edges_of(self, ids: Iterable[int]) -> list[EdgeRow]:
        """All edges touching any of `ids`: (src, dst, weight, prior, count, step, updated_at)."""
        ids = list(dict.fromkeys(int(i) for i in ids))
        out: list[EdgeRow] = []
        for chunk in chunks(ids, 400):
            q = ",".join("?" * len(chunk))
            out.extend(
                EdgeRow(*r) for r in self.conn.execute(
                    "SELECT src, dst, weight, prior, count, step, updated_at FROM edges "
                    f"WHERE src IN ({q}) UNION "
                    "SELECT src, dst, weight, prior, count, step, updated_at FROM edges "
                    f"WHERE dst IN ({q})",
                    chunk + chunk,
                )
            )
        return out

    def edges_between(self, ids: Iterable[int]) -> dict[tuple[int, int], EdgeRow]:
        ids = sorted(set(int(i) for i in ids))
        if len(ids) < 2:
            return {}
        q = ",".join("?" * len(ids))
        rows = self.conn.execute(
            "SELECT src, dst, weight, prior, count, step, updated_at FROM edges "
            f"WHERE src IN ({q}) AND dst IN ({q})",
            ids + ids,
        ).fetchall()
        return {(r[0], r[1]): EdgeRow(*r) for r in rows}

    def upsert_edges(self, rows: list[tuple[int, int, float, float, int, int, float]]) -> None:
        """Write (src, dst, weight, prior, count, step, updated_at) with src < dst."""
        self.conn.executemany(
            "INSERT INTO edges(src, dst, weight, prior, count, step, updated_at) "
            "VALUES (?,?,?,?,?,?,?) ON CONFLICT(src, dst) DO UPDATE SET "
            "weight = excluded.weight, prior = excluded.prior, count = excluded.count, "
            "step = excluded.step, updated_at = excluded.updated_at",
            rows,
        )

    def all_edges(self, *, archived: bool = False) -> list[EdgeRow]:
        """Every edge between live episodes; with `archived`, between non-deleted ones
        (archived episodes keep their edges for a restore)."""
        return [EdgeRow(*r) for r in self.conn.execute(
            "SELECT e.src, e.dst, e.weight, e.prior, e.count, e.step, e.updated_at FROM edges e "
            "JOIN episodes a ON a.id = e.src JOIN episodes b ON b.id = e.dst "
            f"WHERE {live_episode('a', archived=archived)} AND "
            f"{live_episode('b', archived=archived)}")]

    def insert_edges(self, rows: Iterable[tuple[int, int, float, float, int, int, float]]) -> None:
        """Add (src, dst, weight, prior, count, step, updated_at) rows, src < dst; a pair the
        store already has is left as it is (bulk loads of synthetic pools)."""
        self.conn.executemany(
            "INSERT OR IGNORE INTO edges(src, dst, weight, prior, count, step, updated_at) "
            "VALUES (?,?,?,?,?,?,?)", rows)

    def count_edges(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM edges").fetchone()[0]
