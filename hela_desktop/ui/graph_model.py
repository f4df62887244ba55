"""The graph as the view sees it: arrays built from a ``graph_snapshot`` dict (no Qt).

A snapshot is ``{"nodes": [{"id", "kind", "label", "text", "created_at", "access_count",
"last_access", "pinned", "last_recall"}], "edges": [(src, dst, weight)]}`` — what
``MemoryEngine.graph_snapshot`` returns.  `snapshot_from_store` builds the same dict from a
`Store` directly (used before the engine is available and for synthetic tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


def short_label(text: str, n: int = 40) -> str:
    """First line of a memory, shortened for labels."""
    line = " ".join((text or "").split())
    if line.lower().startswith("user: "):
        line = line[6:]
    return line if len(line) <= n else line[: n - 1].rstrip() + "…"


def add_knowledge(snap: dict, store) -> dict:
    """Add distilled knowledge as nodes (negative ids: ``-knowledge_id``) linked to the
    episodes they were distilled from, unless the snapshot already has knowledge nodes."""
    if any(n.get("kind") == "knowledge" for n in snap.get("nodes", [])):
        return snap
    try:
        from ..knowledge import list_knowledge

        items = list_knowledge(store)
    except Exception:  # noqa: BLE001 - older stores / module absent: episodes only
        return snap
    present = {int(n["id"]) for n in snap["nodes"]}
    for k in items:
        nid = -int(k.id)
        snap["nodes"].append({
            "id": nid, "kind": "knowledge", "knowledge_kind": k.kind,
            "label": f"{k.kind.replace('_', ' ')}: {k.text}", "text": k.text,
            "created_at": k.created_at, "access_count": 0, "last_access": k.updated_at,
            "pinned": False, "last_recall": None, "sources": list(k.sources),
        })
        w = float(min(1.0, 0.3 + 0.2 * max(0.0, k.strength)))
        snap["edges"].extend((nid, int(e), w) for e in k.sources if int(e) in present)
    return snap


def snapshot_from_store(store, limit: int | None = None, lam: float = 0.005) -> dict:
    """A graph snapshot read straight from the SQLite store (episodes + edges).

    Edge weight shown = decayed Hebbian weight + structural prior, capped at 1.
    """
    from ..formulas import decayed_weight

    eps = store.list_episodes(limit=limit or 1_000_000)
    ids = {e.id for e in eps}
    step = store.hebbian_step()
    nodes = [
        {
            "id": e.id,
            "kind": "episode",
            "label": short_label(e.user_text or e.text),
            "text": e.text,
            "created_at": e.created_at,
            "access_count": e.access_count,
            "last_access": e.last_access,
            "pinned": e.pinned,
            "last_recall": e.last_recall,
        }
        for e in eps
    ]
    edges = []
    for src, dst, w, prior, _count, estep, _at in store.all_edges():
        if src in ids and dst in ids:
            eff = float(decayed_weight(w, lam, step - estep)) + float(prior)
            edges.append((src, dst, min(1.0, eff)))
    return add_knowledge({"nodes": nodes, "edges": edges}, store)


@dataclass
class GraphData:
    """Node and edge arrays in a fixed node order (index = row in `ids`)."""

    ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    kinds: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=object))
    nodes: dict = field(default_factory=dict)  # id -> node dict
    index: dict = field(default_factory=dict)  # id -> row
    src: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    dst: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    weight: np.ndarray = field(default_factory=lambda: np.zeros(0))
    edge_weight: dict = field(default_factory=dict)  # (min id, max id) -> weight

    @classmethod
    def from_snapshot(cls, snap: dict) -> GraphData:
        nodes = {int(n["id"]): n for n in snap.get("nodes", [])}
        ids = np.fromiter(nodes.keys(), dtype=np.int64, count=len(nodes))
        index = {int(i): r for r, i in enumerate(ids)}
        kinds = np.array([nodes[int(i)].get("kind", "episode") for i in ids], dtype=object)
        src, dst, w, ew = [], [], [], {}
        for e in snap.get("edges", []):
            a, b, wt = int(e[0]), int(e[1]), float(e[2])
            ra, rb = index.get(a), index.get(b)
            if ra is None or rb is None or ra == rb:
                continue
            src.append(ra)
            dst.append(rb)
            w.append(wt)
            ew[(min(a, b), max(a, b))] = wt
        return cls(
            ids=ids,
            kinds=kinds,
            nodes=nodes,
            index=index,
            src=np.asarray(src, dtype=np.int64),
            dst=np.asarray(dst, dtype=np.int64),
            weight=np.asarray(w, dtype=np.float64),
            edge_weight=ew,
        )

    def __len__(self) -> int:
        return len(self.ids)

    def edge_list(self) -> list[tuple[int, int, float]]:
        return [(int(self.ids[a]), int(self.ids[b]), float(w))
                for a, b, w in zip(self.src, self.dst, self.weight)]

    def neighbours(self, node_id: int) -> list[tuple[int, float]]:
        """(neighbour id, weight), strongest first."""
        r = self.index.get(int(node_id))
        if r is None:
            return []
        out = [(int(self.ids[b]), float(w)) for a, b, w in zip(self.src, self.dst, self.weight) if a == r]
        out += [(int(self.ids[a]), float(w)) for a, b, w in zip(self.src, self.dst, self.weight) if b == r]
        return sorted(out, key=lambda t: -t[1])

    def neighbourhood(self, ids, hops: int = 1) -> set[int]:
        """Rows of `ids` and of nodes within `hops` edges of them."""
        rows = {self.index[i] for i in ids if i in self.index}
        frontier = set(rows)
        for _ in range(hops):
            if not frontier or not len(self.src):
                break
            f = np.fromiter(frontier, dtype=np.int64)
            nxt = set(self.dst[np.isin(self.src, f)].tolist()) | set(self.src[np.isin(self.dst, f)].tolist())
            frontier = nxt - rows
            rows |= nxt
        return rows

    def strengthened(self, old: GraphData, eps: float = 1e-4) -> list[tuple[int, int]]:
        """Edges (id pairs) whose weight grew since `old`, or that are new between old nodes."""
        out = []
        for key, w in self.edge_weight.items():
            before = old.edge_weight.get(key)
            if before is None:
                if key[0] in old.index and key[1] in old.index:
                    out.append(key)
            elif w > before + eps:
                out.append(key)
        return out
