"""The engine's in-memory index of the retrievable episodes (Qt-free, no SQL)."""

from __future__ import annotations

from typing import Any

import numpy as np

HALF_PRECISION_FROM = 20_000  # pools at least this large are scanned in float16


class MemoryIndex:
    """Growable arrays of the retrievable episodes (row i <-> ids[i])."""

    def __init__(self, dim: int):
        self.dim = dim
        self._n = 0
        cap = 1024
        self.ids = np.zeros(cap, dtype=np.int64)
        self.emb = np.zeros((cap, dim), dtype=np.float32)
        self.created = np.zeros(cap, dtype=np.float64)
        self.count = np.zeros(cap, dtype=np.float64)
        self.last = np.full(cap, np.nan, dtype=np.float64)
        self.importance = np.zeros(cap, dtype=np.float64)
        self.conv = np.full(cap, -1, dtype=np.int64)  # conversation id, -1: none
        self.speaker = np.full(cap, -1, dtype=np.int64)  # speaker code, -1: unknown
        self.pos: dict[int, int] = {}
        self.centroids: dict[int, tuple[np.ndarray, int]] = {}
        self._version = 0  # bumped by every change of the embeddings
        self._half: tuple[int, Any] | None = None  # (version, float16 torch copy), large pools

    def __len__(self) -> int:
        return self._n

    def similarity(self, q: np.ndarray) -> np.ndarray:
        """cos(q, every row) as float32 — q and the rows are unit vectors; for a matrix of
        vectors as columns (d × m), every row against each, (n × m), in one scan.

        A full scan is memory-bound (100k × 384 float32 = 150 MB per query), so large pools
        are scanned from a float16 copy with torch (half the bytes; about 2× faster on a
        2-core CPU; the error, ~1e-3 in cosine, does not change rankings in practice).
        """
        n = self._n
        if n < HALF_PRECISION_FROM:
            return self.emb[:n] @ q
        try:
            import torch
        except ImportError:  # pragma: no cover - torch comes with sentence-transformers
            return self.emb[:n] @ q
        if self._half is None or self._half[0] != self._version:
            self._half = (self._version, torch.from_numpy(self.emb[:n]).to(torch.float16))
        qt = torch.from_numpy(np.ascontiguousarray(q, dtype=np.float32)).to(torch.float16)
        return torch.matmul(self._half[1], qt).float().numpy()

    def _grow(self, need: int) -> None:
        cap = len(self.ids)
        if need <= cap:
            return
        new = max(need, cap * 2)
        for name in ("ids", "created", "count", "importance"):
            a = getattr(self, name)
            b = np.zeros(new, dtype=a.dtype)
            b[:cap] = a
            setattr(self, name, b)
        last = np.full(new, np.nan)
        last[:cap] = self.last
        self.last = last
        for name in ("conv", "speaker"):
            a = getattr(self, name)
            b = np.full(new, -1, dtype=np.int64)
            b[:cap] = a
            setattr(self, name, b)
        emb = np.zeros((new, self.dim), dtype=np.float32)
        emb[:cap] = self.emb
        self.emb = emb
        self._version += 1

    def add(self, eid: int, vec: np.ndarray, created: float, count: float = 0,
            last: float | None = None, importance: float = 0.0, conv: int | None = None,
            speaker: int = -1) -> None:
        if eid in self.pos:
            i = self.pos[eid]
        else:
            self._grow(self._n + 1)
            i = self._n
            self._n += 1
            self.pos[eid] = i
        self.ids[i] = eid
        self.emb[i] = vec
        self._version += 1
        self.created[i] = created
        self.count[i] = count
        self.last[i] = np.nan if last is None else last
        self.importance[i] = importance
        self.conv[i] = -1 if conv is None else conv
        self.speaker[i] = speaker

    def remove(self, eid: int) -> None:
        i = self.pos.pop(eid, None)
        if i is None:
            return
        j = self._n - 1
        if i != j:  # move the last row into the hole
            moved = int(self.ids[j])
            for name in ("ids", "created", "count", "last", "importance", "conv", "speaker"):
                a = getattr(self, name)
                a[i] = a[j]
            self.emb[i] = self.emb[j]
            self.pos[moved] = i
        self._n -= 1
        self._version += 1
        self.centroids.pop(eid, None)

    # views over the live rows
    def view(self, name: str) -> np.ndarray:
        return getattr(self, name)[: self._n]


def topk(values: np.ndarray, k: int) -> list[int]:
    """Row indices of the k largest finite values, best first."""
    n = len(values)
    if n == 0 or k <= 0:
        return []
    k = min(k, n)
    part = np.argpartition(-values, k - 1)[:k]
    part = part[np.argsort(-values[part], kind="stable")]
    return part[np.isfinite(values[part])].tolist()
