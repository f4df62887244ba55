"""A pool of synthetic memories for the speed benchmarks: Zipf-distributed words (so
keyword scoring sees realistic document frequencies), random unit embeddings, ~5 links
each."""

from __future__ import annotations

import time

import numpy as np

from ..store import Store


class RandomEmbedder:
    """Stands in for the embedder in the latency pool: queries come with vectors."""

    dim = 384
    name = "all-MiniLM-L6-v2"

    def embed(self, texts, batch_size=64, progress=False):  # pragma: no cover - not called
        raise AssertionError("the latency benchmark passes query vectors")


def build_pool(store: Store, n: int, *, dim: int = 384, seed: int = 7, vocab: int = 20000,
               edges_per: int = 5) -> None:
    """`n` memories with Zipf-distributed words, random unit embeddings and ~5 edges each."""
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(vocab)]
    ranks = np.arange(1, vocab + 1)
    p = 1.0 / ranks
    p /= p.sum()
    now = time.time()
    with store.transaction():
        for start in range(0, n, 5000):
            m = min(5000, n - start)
            vecs = rng.standard_normal((m, dim)).astype(np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            draw = rng.choice(vocab, size=(m, 24), p=p)
            store.bulk_insert_episodes(
                ("uid", "user_text", "assistant_text", "created_at", "embedding", "embedder"),
                [(f"pool{start + j}", " ".join(words[k] for k in draw[j][:12]),
                  " ".join(words[k] for k in draw[j][12:]), now - (n - start - j) * 600.0,
                  vecs[j].tobytes(), RandomEmbedder.name) for j in range(m)])
        ids = store.episode_ids()
        rows: set[tuple[int, int]] = set()
        for k in range(edges_per):
            off = 1 if k == 0 else rng.integers(2, 500, size=len(ids))
            j = np.arange(len(ids)) + off
            ok = j < len(ids)
            rows.update(zip(ids[ok].tolist(), ids[j[ok]].tolist(), strict=True))
        store.insert_edges(
            [(a, b, float(rng.uniform(0, 0.3)), 0.5 if b == a + 1 else 0.0, 1, 0, now)
             for a, b in rows])
    return None
