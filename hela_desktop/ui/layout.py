"""Force-directed layout of the Hebbian graph (numpy; no Qt, no all-pairs forces).

Fruchterman–Reingold with the grid cutoff of the original paper: nodes repel only
within ``cutoff·k`` of each other (neighbour pairs come from a k-d tree, or a numpy
cell grid when scipy is missing), edges pull with a force that grows with their
weight, and a weak gravity keeps components together.  A step costs
O(N + pairs + E); a temperature caps how far a node moves and cools as the layout
settles, so a calm graph costs nothing once `settled` is true.
"""

from __future__ import annotations

import numpy as np

try:  # scipy ships with sentence-transformers; the grid fallback keeps us independent.
    from scipy.spatial import cKDTree
except ImportError:  # pragma: no cover - exercised only without scipy
    cKDTree = None


def _grid_pairs(pos: np.ndarray, r: float) -> np.ndarray:
    """All index pairs (i < j) closer than r, via a uniform cell grid (numpy only)."""
    n = len(pos)
    if n < 2:
        return np.zeros((0, 2), dtype=np.int64)
    cells = np.floor((pos - pos.min(axis=0)) / r).astype(np.int64)
    width = int(cells[:, 1].max()) + 3
    keys = cells[:, 0] * width + cells[:, 1]
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]
    uniq, start, count = np.unique(skeys, return_index=True, return_counts=True)
    out = []
    for dx, dy in ((0, 0), (1, -1), (1, 0), (1, 1), (0, 1)):
        target = uniq + dx * width + dy
        loc = np.searchsorted(uniq, target)
        loc = np.minimum(loc, len(uniq) - 1)
        ok = uniq[loc] == target
        a_cells = np.nonzero(ok)[0]
        b_cells = loc[ok]
        ca, cb = count[a_cells], count[b_cells]
        tot = ca * cb
        if tot.sum() == 0:
            continue
        rep = np.repeat(np.arange(len(a_cells)), tot)
        within = np.arange(tot.sum()) - np.repeat(np.cumsum(tot) - tot, tot)
        ia = start[a_cells][rep] + within // cb[rep]
        ib = start[b_cells][rep] + within % cb[rep]
        i, j = order[ia], order[ib]
        if dx == 0 and dy == 0:
            keep = i < j
            i, j = i[keep], j[keep]
        out.append(np.stack([i, j], axis=1))
    if not out:
        return np.zeros((0, 2), dtype=np.int64)
    pairs = np.concatenate(out)
    d = pos[pairs[:, 0]] - pos[pairs[:, 1]]
    return pairs[np.einsum("ij,ij->i", d, d) < r * r]


class ForceLayout:
    """Positions for a growing graph; call `set_graph` on changes and `step` per frame."""

    def __init__(self, k: float = 1.0, cutoff: float = 2.0, gravity: float = 0.04,
                 seed: int = 0, max_pairs_per_node: int = 40, attraction: float = 1.0,
                 far_scale: float = 0.1):
        self.k = float(k)
        self.cutoff = float(cutoff)
        self.gravity = float(gravity)
        self.max_pairs_per_node = max_pairs_per_node
        self.attraction = attraction
        self.attraction_power = 0.0  # 0: linear (ForceAtlas2-like, shows clusters); 1: FR d²/k
        self.far_scale = far_scale
        self.rng = np.random.default_rng(seed)
        self.ids = np.zeros(0, dtype=np.int64)
        self.index: dict[int, int] = {}
        self.pos = np.zeros((0, 2), dtype=np.float64)
        self.src = np.zeros(0, dtype=np.int64)
        self.dst = np.zeros(0, dtype=np.int64)
        self.weight = np.zeros(0, dtype=np.float64)
        self.pinned = np.zeros(0, dtype=bool)
        self.temperature = 1.0
        self.max_temperature = 1.0
        self.min_temperature = 0.002
        self.cooling = 0.96
        self.last_move = np.inf
        self.pair_count = 0
        self.skin = 0.4  # Verlet list: pairs found within (cutoff + skin)·k are reused
        self._pairs: np.ndarray | None = None  # until some node may have crossed the skin
        self._pi = self._pj = self._pij = np.zeros(0, dtype=np.int64)
        self._edge_sd = np.zeros(0, dtype=np.int64)
        self._moved = 0.0
        self._seeded = False  # positions kept from last time (`seed`): new nodes settle gently

    # ---- structure ------------------------------------------------------------------
    def set_graph(self, ids, edges) -> None:
        """Nodes `ids` and edges ``[(src_id, dst_id, weight), ...]``; known nodes keep
        their place, new ones start next to their placed neighbours."""
        ids = np.asarray(list(ids), dtype=np.int64)
        old_index, old_pos = self.index, self.pos
        new_index = {int(i): n for n, i in enumerate(ids)}
        pos = np.full((len(ids), 2), np.nan)
        for n, i in enumerate(ids):
            o = old_index.get(int(i))
            if o is not None:
                pos[n] = old_pos[o]
        src, dst, w = [], [], []
        for e in edges:
            a, b = new_index.get(int(e[0])), new_index.get(int(e[1]))
            if a is None or b is None or a == b:
                continue
            src.append(a)
            dst.append(b)
            w.append(float(e[2]))
        self.src = np.asarray(src, dtype=np.int64)
        self.dst = np.asarray(dst, dtype=np.int64)
        self.weight = np.clip(np.asarray(w, dtype=np.float64), 0.0, None)
        missing = np.nonzero(np.isnan(pos[:, 0]))[0]
        if len(missing):
            placed = ~np.isnan(pos[:, 0])
            radius = self.k * max(1.0, np.sqrt(len(ids)) * 1.1)
            for n in missing.tolist():  # few per update once the graph exists
                nb = np.concatenate([self.dst[self.src == n], self.src[self.dst == n]])
                nb = nb[placed[nb]] if len(nb) else nb
                if len(nb):
                    pos[n] = pos[nb].mean(axis=0) + self.rng.normal(0, 0.5 * self.k, 2)
                else:
                    ang = self.rng.uniform(0, 2 * np.pi)
                    rad = radius * np.sqrt(self.rng.uniform(0, 1))
                    pos[n] = (rad * np.cos(ang), rad * np.sin(ang))
                placed[n] = True
        self.ids, self.index, self.pos = ids, new_index, pos
        self.pinned = np.zeros(len(ids), dtype=bool)
        self._pairs = None
        self._edge_sd = np.concatenate([self.src, self.dst])
        if len(missing):
            many = len(missing) > 0.2 * max(len(ids), 1) and not self._seeded
            self.reheat(1.0 if many else 0.3)
        self._seeded = False

    def seed(self, ids, pos) -> None:
        """Start from kept positions (the graph as it was when the app last closed): the
        next `set_graph` keeps them, places new nodes beside their neighbours and warms the
        layout only a little, so the kept ones stay about where they were."""
        if len(self.ids):
            return  # only before anything is laid out
        ids = np.asarray(ids, dtype=np.int64)
        self.ids, self.pos = ids, np.asarray(pos, dtype=np.float64).reshape(len(ids), 2)
        self.index = {int(i): n for n, i in enumerate(ids)}
        self.temperature = self.min_temperature * self.k
        self._seeded = True

    def reheat(self, amount: float = 0.3) -> None:
        """Let the layout move again (after a change), by `amount` of full temperature."""
        self.temperature = max(self.temperature, amount * self.max_temperature * self.k)

    @property
    def settled(self) -> bool:
        return self.temperature <= self.min_temperature * self.k * 1.01

    # ---- forces ---------------------------------------------------------------------
    def neighbour_pairs(self) -> np.ndarray:
        """Index pairs within the repulsion cutoff plus the skin (a Verlet list: rebuilt only
        after nodes have moved far enough that a new pair could have come within reach)."""
        if self._pairs is not None and self._moved < 0.5 * self.skin * self.k:
            return self._pairs
        self._moved = 0.0
        r = (self.cutoff + self.skin) * self.k
        if cKDTree is not None:
            pairs = cKDTree(self.pos).query_pairs(r, output_type="ndarray")
        else:
            pairs = _grid_pairs(self.pos, r)
        cap = self.max_pairs_per_node * len(self.pos)
        if len(pairs) > cap:  # very dense start: sample, repulsion will spread it out
            pairs = pairs[self.rng.choice(len(pairs), cap, replace=False)]
        self._pairs = pairs
        self._pi = np.ascontiguousarray(pairs[:, 0])
        self._pj = np.ascontiguousarray(pairs[:, 1])
        self._pij = np.concatenate([self._pi, self._pj])
        return pairs

    def step(self) -> float:
        """One iteration; returns the largest move, in units of k."""
        n = len(self.pos)
        if n == 0:
            self.last_move = 0.0
            return 0.0
        k = self.k
        pos = self.pos
        fx = np.zeros(n)
        fy = np.zeros(n)
        if n > 1:
            pairs = self.neighbour_pairs()
            self.pair_count = len(pairs)
            if len(pairs):
                i, j = self._pi, self._pj
                x, y = pos[:, 0], pos[:, 1]
                dx = x[i] - x[j]
                dy = y[i] - y[j]
                dist = np.sqrt(np.maximum(dx * dx + dy * dy, 1e-4 * k * k))
                # FR repulsion k²/d, tapered to zero at the cutoff so nodes do not jitter:
                # per unit vector, k²/d·(1 - d/c) = k²/d² - k²/(c·d) along (dx, dy)/d
                inv = 1.0 / dist
                w = (k * k) * inv * inv * np.maximum(0.0, 1.0 - dist * (1.0 / (self.cutoff * k)))
                ij = self._pij
                fx += np.bincount(ij, np.concatenate([dx * w, -dx * w]), n)
                fy += np.bincount(ij, np.concatenate([dy * w, -dy * w]), n)
            if len(self.src):
                x, y = pos[:, 0], pos[:, 1]
                dx = x[self.dst] - x[self.src]
                dy = y[self.dst] - y[self.src]
                # attraction ∝ d^(1+power), stronger for heavier edges
                mag = self.attraction * (0.2 + self.weight) / k
                if self.attraction_power:
                    mag = mag * (np.sqrt(dx * dx + dy * dy) / k) ** self.attraction_power
                sd = self._edge_sd
                fx += np.bincount(sd, np.concatenate([dx * mag, -dx * mag]), n)
                fy += np.bincount(sd, np.concatenate([dy * mag, -dy * mag]), n)
            if n > 64:
                gx, gy = self._far_field()
                fx += gx
                fy += gy
        centre = pos.mean(axis=0)
        fx -= self.gravity * (pos[:, 0] - centre[0])
        fy -= self.gravity * (pos[:, 1] - centre[1])
        fx[self.pinned] = 0.0
        fy[self.pinned] = 0.0
        length = np.sqrt(fx * fx + fy * fy) + 1e-12
        move = np.minimum(length, self.temperature)
        pos[:, 0] += fx / length * move
        pos[:, 1] += fy / length * move
        self.temperature = max(self.temperature * self.cooling, self.min_temperature * k)
        self.last_move = float(move.max()) / k
        self._moved += 2.0 * float(move.max())  # two nodes may approach each other
        return self.last_move

    def _far_field(self) -> tuple[np.ndarray, np.ndarray]:
        """Repulsion from distant nodes, Barnes–Hut style on one coarse grid: every node
        feels the k²/d push of each occupied cell's centre of mass (O(N + C²))."""
        pos, k = self.pos, self.k
        n = len(pos)
        g = int(np.clip(np.sqrt(n) / 3.0, 3, 20))
        lo = pos.min(axis=0)
        span = np.maximum(np.ptp(pos, axis=0), 1e-9)
        cell = np.minimum((((pos - lo) / span) * g).astype(np.int64), g - 1)
        key = cell[:, 0] * g + cell[:, 1]
        mass = np.bincount(key, minlength=g * g).astype(np.float64)
        occupied = np.nonzero(mass)[0]
        m = mass[occupied]
        cx = np.bincount(key, pos[:, 0], g * g)[occupied] / m
        cy = np.bincount(key, pos[:, 1], g * g)[occupied] / m
        dx = cx[:, None] - cx[None, :]
        dy = cy[:, None] - cy[None, :]
        soft = (span.max() / g) ** 2
        inv = self.far_scale * (k * k) * m[None, :] / (dx * dx + dy * dy + soft)
        fcx = np.zeros(g * g)
        fcy = np.zeros(g * g)
        fcx[occupied] = (dx * inv).sum(axis=1)
        fcy[occupied] = (dy * inv).sum(axis=1)
        return fcx[key], fcy[key]

    def run(self, iterations: int) -> None:
        """Several steps at once (initial placement)."""
        for _ in range(iterations):
            self.step()

    def positions(self) -> np.ndarray:
        """A copy of the (N, 2) positions, in node order."""
        return self.pos.copy()
