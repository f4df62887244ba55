"""Benchmark of the automatic backups (`hela_desktop.backups`) on a big store.

`bench_backup` builds a pool of `n` synthetic memories (`pool.build_pool`: Zipf words,
384-dimension vectors, ~5 links each), then times one backup, Delete for good of one
memory with no backups and again with a week of them (7: each is opened and the memory
erased there too), and a restore.  The ratio with and without backups is the figure that
matters: what keeping backups adds to a Delete for good, measured in the same run.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from .. import backups as B
from ..forgetting import purge
from ..store import Store
from .pool import build_pool


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _purge_one(store: Store, eid: int) -> float:
    with store.transaction():
        store.set_deleted(eid, True)
    return _timed(lambda: purge(store, [eid]))


def bench_backup(n: int, workdir: Path, *, week: int = 7) -> dict:
    """The figures (seconds; the file in MB; the load average while it ran)."""
    workdir.mkdir(parents=True, exist_ok=True)
    store = Store(workdir)
    try:
        build_pool(store, n)
        ids = store.episode_ids().tolist()
        made: list = []
        backup_s = _timed(lambda: made.append(B.make_backup(store, now=time.time() - 86400 * 9)))
        B.delete_backup(made[0].path)
        purge_none = _purge_one(store, ids.pop())
        for day in range(week):
            B.make_backup(store, now=time.time() - 86400 * (day + 1))
        purge_week = _purge_one(store, ids.pop())
        oldest = B.list_backups(store.path)[-1].path
        path, size = store.path, store.path.stat().st_size
    finally:
        store.close()
    restore_s = _timed(lambda: B.restore_backup(path, oldest))
    return {"n": n, "file_mb": round(size / 1e6, 1), "backup_s": round(backup_s, 3),
            "purge_s": round(purge_none, 3), "purge_week_s": round(purge_week, 3),
            "week": week, "purge_ratio": round(purge_week / max(purge_none, 1e-9), 2),
            "restore_s": round(restore_s, 3),
            "load_avg": [round(x, 2) for x in os.getloadavg()]}
