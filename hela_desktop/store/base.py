"""The connection every part of `Store` shares: transactions, ``meta``, the activity log."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from .schema import schema_version


class StoreBase:
    """What the table modules (episodes, edges, knowledge, messages) build on: the open
    connection, `transaction`, the ``meta`` table and the ``activity`` log."""

    path: Path
    conn: sqlite3.Connection
    _lock: threading.RLock
    _tx_depth: int

    @property
    def schema_version(self) -> int:
        return schema_version(self.conn)

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

    def delete_meta_prefix(self, prefix: str) -> int:
        """Delete every key starting with `prefix`; returns how many."""
        cur = self.conn.execute("DELETE FROM meta WHERE key LIKE ?", (prefix + "%",))
        return cur.rowcount

    def has_unnamed_vectors(self) -> bool:
        """Whether some episode or knowledge vector has no embedder name."""
        return self.conn.execute(
            "SELECT EXISTS (SELECT 1 FROM episodes WHERE embedding IS NOT NULL AND embedder "
            "IS NULL) OR EXISTS (SELECT 1 FROM knowledge WHERE embedding IS NOT NULL AND "
            "embedder IS NULL)").fetchone()[0] == 1

    def hebbian_step(self) -> int:
        return int(self.get_meta("hebbian_step", "0") or 0)

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
