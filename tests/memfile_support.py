"""Shared helpers and fixtures of the memory-file tests (test_memfile_*.py): a sample
store with every kind of record, snapshots, archive surgery, and the checks that a refused
file changed nothing and an imported one is usable.

Real parts only: SQLite stores in temporary folders and, where memories must be embedded,
the bundled embedder (the session-wide ``embedder`` fixture of conftest.py).  The test
modules load the fixtures with ``pytest_plugins = ["memfile_support"]``.
"""

from __future__ import annotations

import argparse
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from hela_desktop.cli.memfile import add_cli
from hela_desktop.memfile import MemoryFileError, export_store, import_file
from hela_desktop.store import Store

EMB = "all-MiniLM-L6-v2"
LAM = 0.005
TABLES = ("meta", "conversations", "episodes", "edges", "messages", "timelines", "knowledge",
          "knowledge_sources", "activity")


# ------------------------------------------------------------------------ helpers -----
def unit(rng, dim=384) -> np.ndarray:
    v = rng.standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


def snapshot(store: Store) -> dict:
    """Every row of every table (and the FTS index): 'unchanged' means equal snapshots."""
    out = {t: store.conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in TABLES}
    out["fts"] = store.conn.execute("SELECT rowid, body FROM episodes_fts ORDER BY 1").fetchall()
    return out


def content(path: Path) -> dict:
    """The content of a .hela file: manifest without created_at, members as sorted records."""
    with zipfile.ZipFile(path) as zf:
        out = {}
        for name in zf.namelist():
            if name == "manifest.json":
                m = json.loads(zf.read(name))
                m.pop("created_at")
                out[name] = m
            else:
                out[name] = sorted(zf.read(name).decode("utf-8").splitlines())
    return out


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def write_zip(path: Path, files: dict[str, bytes | str], method=zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", compression=method) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return path


def records(data: bytes) -> list[dict]:
    return [json.loads(line) for line in data.decode().splitlines() if line.strip()]


def jsonl(recs: list[dict]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in recs).encode()


def fill_sample(store: Store, seed: int = 0) -> dict:
    """A small store that uses every table and every kind of field."""
    rng = np.random.default_rng(seed)
    ids = {}
    with store.transaction():
        c1 = store.add_conversation("Lisbon trip", at=1_700_000_000.0)
        c2 = store.add_conversation("Cooking", at=1_700_100_000.0)
        texts = [
            ("My sister Ana lives in Lisbon.", "Noted, Ana is in Lisbon.", c1),
            ("Book a train to Porto on Friday.", "I can't book, but Friday trains leave at 9.", c1),
            ("I love pastel de nata.", "A classic Lisbon pastry!", c1),
            ("How long do I boil an egg?", "About nine minutes for hard-boiled.", c2),
            ("Remember: I am allergic to peanuts.", "", None),
            ("Zürich or Genève for the conference? 🚆", "Genève is closer to the venue.",
             None),
        ]
        for i, (u, a, c) in enumerate(texts):
            ids[i] = store.add_episode(
                u, a, unit(rng), embedder=EMB, conversation_id=c,
                created_at=1_700_000_000.0 + 86400 * i, importance=0.1 * i,
                meta={"n": i} if i % 2 else None)
        store.set_pinned(ids[4], True)
        store.conn.execute("UPDATE episodes SET archived_at = 1700500000.5, "
                           "archive_reason = 'stale' WHERE id = ?", (ids[3],))
        store.conn.execute("UPDATE episodes SET deleted_at = 1700600000.25 WHERE id = ?",
                           (ids[5],))
        store.record_access([(ids[0], 1_700_900_000.0, unit(rng).tobytes(), 3,
                              json.dumps({"q": "Ana"}))])
        m1 = store.add_message(c1, "user", texts[0][0], at=1_700_000_000.0)
        m2 = store.add_message(c1, "assistant", texts[0][1], at=1_700_000_001.0,
                               episode_id=ids[0], stats={"tokens": 7})
        store.add_message(c2, "assistant", "Nine min", at=1_700_100_001.0, interrupted=True)
        store.save_timeline(m2, [(0, 4, [ids[0]]), (4, 7, [ids[0], ids[2]])])
        store.set_meta("hebbian_step", "120")
        store.upsert_edges([
            (ids[0], ids[1], 0.30, 0.5, 4, 110, 1_700_000_500.0),
            (ids[0], ids[2], 0.12, 0.0, 2, 60, 1_700_000_600.0),
            (ids[1], ids[2], 0.00, 0.5, 0, 0, 1_700_000_700.0),
            (ids[3], ids[4], 0.05, 0.2, 1, 119, 1_700_000_800.0),
        ])
        k1 = store.conn.execute(
            "INSERT INTO knowledge(uid, kind, text, embedding, embedder, created_at, updated_at, "
            "strength, access_count) VALUES ('know-ana', 'fact', 'Ana lives in Lisbon', ?, ?, "
            "1700001000, 1700001000, 1.5, 2)", (unit(rng).tobytes(), EMB)).lastrowid
        k2 = store.conn.execute(
            "INSERT INTO knowledge(uid, kind, text, created_at, updated_at) VALUES "
            "('know-user', 'user_model', 'The user is allergic to peanuts', 1700002000, "
            "1700002000)").lastrowid
        store.conn.execute("UPDATE knowledge SET superseded_by = ? WHERE id = ?", (k2, k1))
        store.conn.executemany("INSERT INTO knowledge_sources VALUES (?, ?)",
                               [(k1, ids[0]), (k1, ids[2]), (k2, ids[4])])
    return {"ids": ids, "c1": c1, "c2": c2, "m1": m1}


@pytest.fixture()
def sample(tmp_path):
    store = Store(tmp_path / "src")
    info = fill_sample(store)
    yield store, info
    store.close()


@pytest.fixture()
def sample_file(sample, tmp_path):
    store, _ = sample
    path = tmp_path / "sample.hela"
    export_store(store, path, include_deleted=True)  # every kind of field, deleted_at too
    return path


def assert_refused(store: Store, path: Path, *fragments: str, **kw) -> MemoryFileError:
    before = snapshot(store)
    with pytest.raises(MemoryFileError) as err:
        import_file(store, path, **kw)
    assert snapshot(store) == before
    msg = str(err.value)
    assert msg.startswith(str(path) + ": ")
    assert "\n" not in msg
    for f in fragments:
        assert f in msg, msg
    return err.value


def usable(store: Store, embedder=None) -> None:
    """What a later turn reads of every memory works: dates can be shown, vectors have the
    embedder's size and unit length (or are absent), and retrieval over them runs."""
    import datetime

    for (ts,) in store.conn.execute(
            "SELECT created_at FROM episodes UNION ALL SELECT last_access FROM episodes "
            "WHERE last_access IS NOT NULL UNION ALL SELECT created_at FROM knowledge"):
        datetime.datetime.fromtimestamp(ts).strftime("%Y-%m-%d")
    for (blob,) in store.conn.execute("SELECT embedding FROM episodes WHERE embedding IS NOT "
                                      "NULL UNION ALL SELECT embedding FROM knowledge WHERE "
                                      "embedding IS NOT NULL"):
        v = np.frombuffer(blob, dtype=np.float32)
        assert len(v) == 384 and abs(float(np.linalg.norm(v)) - 1) < 0.01
    if embedder is not None:
        from hela_desktop.config import Settings
        from hela_desktop.memory import MemoryEngine

        eng = MemoryEngine(store, embedder, Settings())
        for r in eng.retrieve("zebras and Lisbon"):
            assert np.isfinite(r.score)


def consistent(store: Store) -> None:
    assert store.integrity_ok()
    bad = store.conn.execute(
        "SELECT COUNT(*) FROM edges WHERE src >= dst OR src NOT IN (SELECT id FROM episodes) "
        "OR dst NOT IN (SELECT id FROM episodes)").fetchone()[0]
    assert bad == 0
    assert store.fts_row_count() == store.conn.execute(
        "SELECT COUNT(*) FROM episodes").fetchone()[0]



def _must_not_embed(texts):
    raise AssertionError(f"unexpected re-embedding of {len(texts)} texts")



# ------------------------------------------------------------------- bad input --------
@pytest.fixture()
def target(tmp_path):
    store = Store(tmp_path / "target")
    fill_sample(store, seed=7)  # different uids: the same content, another store
    yield store
    store.close()


def run_cli(data_dir: Path, *argv: str) -> int:
    """Run ``hela-desktop export|import ...`` in this process, on the folder `data_dir`."""
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    add_cli(sub)
    args = parser.parse_args(list(argv))
    args.data_dir = data_dir
    return args.func(args)
