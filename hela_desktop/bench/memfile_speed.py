"""Benchmark of memory-file export and import on a synthetic store.

`bench_memfile` builds a store of ``n`` episodes with random unit embeddings and about five
edges each (bulk SQL, no embedder), then times a full native export and an import of that
file into an empty store (no re-embedding), reporting seconds and peak resident memory.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

import numpy as np

from ..memfile import export_store, import_file
from ..paths import DEFAULT_EMBEDDER_NAME
from ..store import Store

_WORDS = (
    "lisbon sister coffee meeting project garden train book music weather doctor birthday "
    "recipe python holiday office cat dog running budget concert dentist piano friday"
).split()


def _peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MiB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def build_synthetic_store(store: Store, n: int, *, dim: int = 384, edges_per: int = 5,
                          seed: int = 0, chunk: int = 5000) -> int:
    """Fill `store` with `n` episodes (random unit embeddings) and ~`edges_per`·n edges."""
    rng = np.random.default_rng(seed)
    now = time.time()
    n_edges = 0
    with store.transaction():
        conv = store.add_conversation("bench", at=now - n)
        for start in range(0, n, chunk):
            m = min(chunk, n - start)
            vecs = rng.standard_normal((m, dim)).astype(np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            words = rng.integers(0, len(_WORDS), size=(m, 8))
            rows = []
            for j in range(m):
                i = start + j
                w = [_WORDS[k] for k in words[j]]
                rows.append((
                    f"bench{i:08d}", conv if i % 10 == 0 else None,
                    f"memory {i}: {' '.join(w[:5])}", f"noted {' '.join(w[5:])}",
                    now - (n - i) * 60.0, vecs[j].tobytes(), DEFAULT_EMBEDDER_NAME,
                    int(i % 7), now - i if i % 3 == 0 else None, float((i % 10) / 10),
                    int(i % 50 == 0),
                ))
            store.bulk_insert_episodes(
                ("uid", "conversation_id", "user_text", "assistant_text", "created_at",
                 "embedding", "embedder", "access_count", "last_access", "importance",
                 "pinned"), rows)
        ids = store.episode_ids()
        step = 1000
        store.set_meta("hebbian_step", str(step))
        for start in range(0, len(ids), chunk):
            src = ids[start:start + chunk]
            pairs = set()
            for k in range(edges_per):
                off = rng.integers(1, 200, size=len(src)) if k else np.ones(len(src), int)
                dst_idx = np.searchsorted(ids, src) + off
                ok = dst_idx < len(ids)
                for a, b in zip(src[ok], ids[dst_idx[ok]], strict=True):
                    pairs.add((int(a), int(b)))
            store.insert_edges([(a, b, 0.05, 0.3, 1, step - (a % 100), now) for a, b in pairs])
            n_edges += len(pairs)
    return n_edges


def bench_memfile(n: int = 100_000, workdir: str | Path = ".") -> dict:
    """Time a full export and an import (no re-embedding) of an `n`-episode store.

    Returns ``{"n", "edges", "build_s", "export_s", "export_cpu_s", "import_s",
    "import_cpu_s", "file_mb", "rss_after_build_mb", "rss_after_export_mb",
    "rss_after_import_mb", "imported_episodes", "imported_edges", "load_avg_1m_before",
    "load_avg_1m_after"}``: ``*_s`` are wall-clock
    seconds, ``*_cpu_s`` this process's CPU seconds (useful on a busy machine); peak RSS is
    the process's high-water mark (``resource.getrusage``), so each figure includes the
    previous phases.
    """
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    out: dict = {"n": n, "load_avg_1m_before": round(os.getloadavg()[0], 2)}
    t = time.perf_counter()
    with Store(workdir / "bench-src") as src:
        out["edges"] = build_synthetic_store(src, n)
        out["build_s"] = round(time.perf_counter() - t, 2)
        out["rss_after_build_mb"] = round(_peak_rss_mb(), 1)
        path = workdir / "bench.hela"
        t, c = time.perf_counter(), time.process_time()
        export_store(src, path)
        out["export_s"] = round(time.perf_counter() - t, 2)
        out["export_cpu_s"] = round(time.process_time() - c, 2)
        out["rss_after_export_mb"] = round(_peak_rss_mb(), 1)
        out["file_mb"] = round(path.stat().st_size / 2**20, 1)
    with Store(workdir / "bench-dst") as dst:
        t, c = time.perf_counter(), time.process_time()
        rep = import_file(dst, path, embedder=_no_embedder)
        out["import_s"] = round(time.perf_counter() - t, 2)
        out["import_cpu_s"] = round(time.process_time() - c, 2)
        out["rss_after_import_mb"] = round(_peak_rss_mb(), 1)
        out["imported_episodes"] = rep.added.get("episodes", 0)
        out["imported_edges"] = rep.added.get("edges", 0)
    out["load_avg_1m_after"] = round(os.getloadavg()[0], 2)
    return out


def _no_embedder(texts: list[str]):  # pragma: no cover - must never be called here
    raise AssertionError(f"the benchmark import must not re-embed ({len(texts)} texts)")


if __name__ == "__main__":  # python -m hela_desktop.bench.memfile_speed [n] [workdir]
    import json
    import tempfile

    n_arg = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(bench_memfile(n_arg, sys.argv[2] if len(sys.argv) > 2 else tmp),
                         indent=2))
