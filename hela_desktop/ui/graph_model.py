"""The graph as the view sees it: arrays built from a ``graph_snapshot`` dict (no Qt).

A snapshot is ``{"nodes": [{"id", "kind", "label", "text", "created_at", "access_count",
"last_access", "pinned", "last_recall"}], "edges": [(src, dst, weight)], "learned":
{(src, dst): learned part}}`` — what ``MemoryEngine.graph_snapshot`` returns
(``edges.GraphSnapshot.as_dict``; an edge's weight is its prior plus its learned part).  `snapshot_from_store` builds the same dict from a
`Store` directly (used before the engine is available and for synthetic tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import formulas as F
from ..facts import STOPWORDS, asks, is_statement, sentences
from ..words import one_line

EDGE_CLASSES = (0.0, 0.2, 0.5)  # lower bounds of the weak / medium / strong prior classes
# an edge counts (and is drawn) as learned once its learned part, decayed, is at least this:
# half of what one co-use adds at the default η = 0.02, so it fades back to a plain
# link when the two memories stop being used together
LEARNED_MIN = 0.01
# lower bounds of a learned edge's learned part (weak / medium / strong): at the default
# η = 0.02 a first co-activation gives 0.02, about 5 give 0.1 and about 17 give 0.3, so a
# link visibly thickens as the two memories keep being used together
LEARNED_CLASSES = (0.0, 0.1, 0.3)
MAX_DRAWN_EDGES = 12000  # beyond this the weakest edges are left out (large graphs)


KNOWLEDGE_KINDS = {"user_model": "about you", "fact": "fact", "persona": "about HeLa"}


def knowledge_kind_words(kind: str | None) -> str:
    """A knowledge item's kind as the window says it: "about you" (``user_model``),
    "fact", "about HeLa" (``persona``)."""
    k = kind or "knowledge"
    return KNOWLEDGE_KINDS.get(k, k.replace("_", " "))


def short_label(text: str, n: int = 40) -> str:
    """First line of a memory, shortened for labels: at most `n` characters, ended with
    "…" after a whole word when one ends in the second half (in any script); a sentence's
    own stop or comma before the "…" is dropped ("walks…", not "walks.…")."""
    line = one_line(text or "")
    if line.lower().startswith("user: "):
        line = line[6:]
    if len(line) <= n:
        return line
    cut = line[: n - 1]
    if line[n - 1] != " " and cut.rfind(" ") >= n // 2:  # not in the middle of a word
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip().rstrip(".,;:!?。、，") + "…"


def told_first(rows: list[int], text_of, share: int) -> list[int]:
    """`rows` (the most linked first) with what the user told before what they asked: up
    to `share` statements, then up to `share` questions, then what neither tells nor asks
    ("Thanks, bye"), each in the order given (in a big graph the rest are not read)."""
    told: list[int] = []
    asked: list[int] = []
    other: list[int] = []
    for r in rows:
        text = text_of(r)
        (told if is_statement(text) else asked if any(asks(s) for s in sentences(text))
         else other).append(r)
        if min(len(told), len(asked)) >= share:
            break
    return told[:share] + (asked + other)[:share]


def says_something(label: str) -> bool:
    """Does a label cut short ("…") still say something: three words or more, two of them
    more than small words, fifteen letters or more ("My driving test…"), not a one- or
    two-word stub ("Ahmed's…", "Is Zara…", "I have a…", "What do you…": QA passes 42c/42d
    saw those say nothing beside their dots)?  A label written whole always does; one in a
    script written without spaces does when it keeps a few letters."""
    text = label.strip()
    if not text.endswith("…"):
        return bool(text)
    stem = text[:-1].strip()
    words = stem.split()
    if len(words) == 1 and not stem.isascii():
        return len(stem) >= 6
    content = [w for w in words if (k := w.strip(".,;:!?\"'“”‘’()").casefold().replace("’", "'"))
               not in STOPWORDS and k not in _SMALL]
    return len(words) >= 3 and len(content) >= 2 and len(stem) >= 15


# small words beyond `facts.STOPWORDS` that say nothing at a label's start ("We're going to…")
_SMALL = frozenset("we're i've i'd i'll you're they're it's that's there's going gonna just "
                   "really also very so got get write tell give make".split())


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
            "label": f"{knowledge_kind_words(k.kind)}: {k.text}", "text": k.text,
            "created_at": k.created_at, "access_count": 0, "last_access": k.updated_at,
            "pinned": False, "last_recall": None, "sources": list(k.sources),
        })
        w = float(min(1.0, 0.3 + 0.2 * max(0.0, k.strength)))
        snap["edges"].extend((nid, int(e), w) for e in k.sources if int(e) in present)
    return snap


def snapshot_from_store(store, limit: int | None = None, lam: float = 0.005) -> dict:
    """A graph snapshot read straight from the SQLite store (episodes + edges), built by
    `edges.graph_snapshot` like the engine's: the newest `limit` live episodes (with or
    without a vector), every edge between them (none left out), weight = decayed Hebbian
    weight + structural prior, capped at 1; plus the knowledge nodes."""
    from ..edges import graph_snapshot

    eps = store.list_episodes(limit=limit or 1_000_000)
    snap = graph_snapshot(store, lam=lam, cap=1.0, episodes=eps, min_weight=None)
    return add_knowledge(snap.as_dict(), store)


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
    learned: np.ndarray = field(default_factory=lambda: np.zeros(0))  # learned part of weight
    edge_weight: dict = field(default_factory=dict)  # (min id, max id) -> weight

    @classmethod
    def from_snapshot(cls, snap: dict) -> GraphData:
        nodes = {int(n["id"]): n for n in snap.get("nodes", [])}
        ids = np.fromiter(nodes.keys(), dtype=np.int64, count=len(nodes))
        index = {int(i): r for r, i in enumerate(ids)}
        kinds = np.array([nodes[int(i)].get("kind", "episode") for i in ids], dtype=object)
        parts = snap.get("learned") or {}
        src, dst, w, lp, ew = [], [], [], [], {}
        for e in snap.get("edges", []):
            a, b, wt = int(e[0]), int(e[1]), float(e[2])
            ra, rb = index.get(a), index.get(b)
            if ra is None or rb is None or ra == rb:
                continue
            src.append(ra)
            dst.append(rb)
            w.append(wt)
            lp.append(parts.get((a, b), 0.0) if parts else 0.0)
            ew[(min(a, b), max(a, b))] = wt
        return cls(
            ids=ids,
            kinds=kinds,
            nodes=nodes,
            index=index,
            src=np.asarray(src, dtype=np.int64),
            dst=np.asarray(dst, dtype=np.int64),
            weight=np.asarray(w, dtype=np.float64),
            learned=np.asarray(lp, dtype=np.float64),
            edge_weight=ew,
        )

    def __len__(self) -> int:
        return len(self.ids)

    def edge_list(self) -> list[tuple[int, int, float]]:
        return [(int(self.ids[a]), int(self.ids[b]), float(w))
                for a, b, w in zip(self.src, self.dst, self.weight)]

    def neighbours(self, node_id: int) -> list[tuple[int, float, float]]:
        """(neighbour id, effective weight, its learned part), strongest first; the rest of
        the weight is the prior (the link made when a memory was written)."""
        r = self.index.get(int(node_id))
        if r is None:
            return []
        out = []
        for a, b, w, lp in zip(self.src.tolist(), self.dst.tolist(), self.weight.tolist(),
                               self.learned.tolist(), strict=True):
            if r in (a, b):
                out.append((int(self.ids[b if a == r else a]), float(w), float(lp)))
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

    def is_learned(self) -> np.ndarray:
        """Which edges count as learned (drawn with the learned overlay, counted as learned
        in the stats and the details pane): learned part ≥ `LEARNED_MIN`."""
        return self.learned >= LEARNED_MIN

    def learned_share(self) -> np.ndarray:
        """The learned share of each edge's weight (0: a prior-only edge)."""
        return np.divide(self.learned, self.weight, out=np.zeros(len(self.weight)),
                         where=self.weight > 0)

    def edge_classes(self, visible: np.ndarray | None = None,
                     most: int = MAX_DRAWN_EDGES) -> list[np.ndarray]:
        """Edge rows to draw, by class: first every edge in a link class by its weight
        (`EDGE_CLASSES`), then the learned edges (`is_learned`) once more, in a learned class
        by their learned part (`LEARNED_CLASSES`), drawn over the link: a link keeps its
        strength and shows what was learned on top.  Only edges between `visible` nodes (a
        bool mask; None: all); beyond `most` rows the weakest links are left out first."""
        w = self.weight
        learned = self.is_learned()
        keep = np.ones(len(w), dtype=bool) if visible is None else \
            visible[self.src] & visible[self.dst]
        out = []
        for values, bounds, among in ((w, EDGE_CLASSES, np.ones(len(w), dtype=bool)),
                                      (self.learned, LEARNED_CLASSES, learned)):
            for n, lo in enumerate(bounds):
                hi = bounds[n + 1] if n + 1 < len(bounds) else np.inf
                out.append(np.nonzero(keep & among & (values >= lo) & (values < hi))[0])
        excess = sum(len(r) for r in out) - most
        for n, rows in enumerate(out):  # large graph: drop the weakest edges first
            if excess <= 0:
                break
            if len(rows):
                kept = max(0, len(rows) - excess)
                order = np.argsort(-w[rows], kind="stable")[:kept]
                excess -= len(rows) - kept
                out[n] = np.sort(rows[order])
        return out

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


# ------------------------------------------------------------- topics ---------------
STICKY = 1.5  # a memory leaves the topic it was in for one linked this many times as strongly


def communities(n: int, src: np.ndarray, dst: np.ndarray, weight: np.ndarray, *,
                iters: int = 60, seed: int = 0, start: np.ndarray | None = None) -> np.ndarray:
    """Groups of densely linked memories: weighted label propagation, vectorised.

    Every node starts in its own group; in each round a random half of the nodes takes
    the group with the largest total edge weight among its neighbours (ties: the smaller
    group id), until nothing changes.  Given `start` (a group per node, -1: none), each
    node starts in the group it had and leaves it only for one that weighs `STICKY` times
    as much: a graph one memory away from the last keeps its topics (started afresh,
    taking one memory away moved a third of the others to other groups, which often do
    not settle in a small dense graph: QA pass 28b saw most dots change colour after a
    regenerate).  Returns a group per node, numbered by size (0 = the largest; equal
    sizes: the group of the lower node first).
    """
    labels = np.arange(n, dtype=np.int64)
    if n == 0 or len(src) == 0:
        return labels
    warm = start is not None and len(start) == n
    if warm:
        start = np.asarray(start, dtype=np.int64)
        for g in np.unique(start[start >= 0]):
            rows = np.nonzero(start == g)[0]
            labels[rows] = rows[0]  # (a group is named by its first node)
    a = np.concatenate([src, dst]).astype(np.int64)
    b = np.concatenate([dst, src]).astype(np.int64)
    w = np.concatenate([weight, weight]).astype(np.float64)
    rng = np.random.default_rng(seed)
    for _ in range(iters):  # (stops early once fewer than 0.2 % of the nodes move)
        key = a * n + labels[b]
        uk, inv = np.unique(key, return_inverse=True)
        tot = np.bincount(inv, weights=w)
        node, lab = uk // n, uk % n
        # per node: the label with the largest total (ties: smallest label)
        order = np.lexsort((lab, -tot, node))
        first = np.ones(len(order), dtype=bool)
        first[1:] = node[order][1:] != node[order][:-1]
        best_node, best_lab = node[order][first], lab[order][first]
        want = labels[best_node] != best_lab
        if warm:  # only for a clearly heavier group
            here = best_node * n + labels[best_node]
            at = np.minimum(np.searchsorted(uk, here), len(uk) - 1)
            held = np.where(uk[at] == here, tot[at], 0.0)
            want &= tot[order][first] > STICKY * held
        if want.sum() <= max(0, n // 500):
            break
        move = want & (rng.random(len(best_node)) < 0.5)
        labels = labels.copy()
        labels[best_node[move]] = best_lab[move]
    # renumber by size, largest first
    uniq, inv, counts = np.unique(labels, return_inverse=True, return_counts=True)
    first_member = np.full(len(uniq), n, dtype=np.int64)
    np.minimum.at(first_member, inv, np.arange(n))
    rank = np.lexsort((first_member, -counts))
    new_id = np.empty(len(uniq), dtype=np.int64)
    new_id[rank] = np.arange(len(uniq))
    return new_id[inv]


def name_communities(groups: np.ndarray, texts: list[str], *, top: int = 12, min_size: int = 3,
                     knowledge: dict[int, str] | None = None) -> dict[int, str]:
    """A short name for each of the `top` largest groups with at least `min_size` members:
    the distilled knowledge most of it links to (`knowledge`: group -> text), else its two
    most distinctive words (frequent in the group, rare outside it)."""
    from ..memory import keywords

    sizes = np.bincount(groups) if len(groups) else np.zeros(0, dtype=np.int64)
    chosen = [g for g in range(min(top, len(sizes))) if sizes[g] >= min_size]
    if not chosen:
        return {}
    # numbers ("2024", "155": dates and counts in notes) name nothing a person can place
    doc_words = [{w for w in keywords(t) if not w.isdigit()} - {"user", "assistant"}
                 for t in texts]
    overall: dict[str, int] = {}
    for ws in doc_words:
        for word in ws:
            overall[word] = overall.get(word, 0) + 1
    inside_of: dict[int, dict[str, int]] = {g: {} for g in chosen}
    for r, g in enumerate(groups.tolist()):
        inside = inside_of.get(g)
        if inside is not None:
            for word in doc_words[r]:
                inside[word] = inside.get(word, 0) + 1
    names = {}
    for g in chosen:
        if knowledge and g in knowledge:
            names[g] = short_label(knowledge[g], 26)
            continue
        inside = inside_of[g]
        size, total = int(sizes[g]), len(texts)
        # tf-idf: common in the group, rare elsewhere
        scored = sorted(((c / size * np.log((total + 1) / (overall[wd] + 1)), wd)
                         for wd, c in inside.items() if c >= 2), reverse=True)
        if scored:
            names[g] = " · ".join(wd for _, wd in scored[:2])
    return names


def stable_slots(groups: np.ndarray, prev: np.ndarray, n_slots: int,
                 min_size: int = 3) -> dict[int, int]:
    """Topic colour slots that stay put as the graph grows: {group: slot}.

    `groups` is the group of each row (0 the largest), `prev` the slot each row had before
    (-1: none, or a new memory).  Shown are the groups below `n_slots` with at least
    `min_size` memories.  Each keeps the slot most of its memories had (the largest overlap
    is settled first; a slot goes to one group only), and the others take the free slots,
    largest group first.  Numbering groups by size alone had repainted two topics whenever
    one outgrew the other: the colours the user had learned moved between turns."""
    groups = np.asarray(groups, dtype=np.int64)
    prev = np.asarray(prev, dtype=np.int64)
    sizes = np.bincount(groups[groups >= 0]) if len(groups) else np.zeros(0, dtype=np.int64)
    shown = [g for g in range(min(n_slots, len(sizes))) if sizes[g] >= min_size]
    pairs, counts = np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64)
    if len(prev) == len(groups) and shown:
        keep = (prev >= 0) & np.isin(groups, shown)  # (counted in numpy: on the GUI thread)
        pairs, counts = np.unique(np.stack([groups[keep], prev[keep]], axis=1), axis=0,
                                  return_counts=True)
    overlap = {(int(g), int(sl)): int(c) for (g, sl), c in zip(pairs, counts, strict=True)}
    out: dict[int, int] = {}
    for (g, sl), _ in sorted(overlap.items(), key=lambda kv: (-kv[1], kv[0])):
        if g not in out and sl not in out.values() and sl < n_slots:
            out[g] = sl
    free = [sl for sl in range(n_slots) if sl not in out.values()]
    for g in shown:
        if g not in out:
            out[g] = free.pop(0)
    return out


def weighted_degree(n: int, src: np.ndarray, dst: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Sum of edge weights at each node (how central a memory is)."""
    return (np.bincount(src, weights=weight, minlength=n)
            + np.bincount(dst, weights=weight, minlength=n)) if n else np.zeros(0)


TOPIC_MIN = 3  # memories a topic needs to be coloured and named
# topics found afresh are taken when their modularity is this much higher: one topic of
# all 58 memories (0) against five (0.43) in QA pass 38's store; not a regenerate's 0.43
# against 0.55 (QA pass 28b's graph), which would recolour a third of the dots
SPLIT_GAIN = 0.2


def _topics(groups: np.ndarray) -> int:
    """How many groups of at least `TOPIC_MIN` memories (coloured topics) `groups` has."""
    return int((np.bincount(groups) >= TOPIC_MIN).sum()) if len(groups) else 0


def topics_for(data: GraphData, start: np.ndarray | None = None) -> tuple[np.ndarray, dict[int, str]]:
    """Groups (one per node row, by size) and names of the largest ones, for a graph;
    `start`: the topic each row was in before (-1: none), where the groups start from."""
    groups = communities(len(data), data.src, data.dst, data.weight, start=start)
    if start is not None and len(groups) >= 12 and np.bincount(groups).max() * 2 > len(groups):
        # a graph grown one memory at a time keeps its first topics, which take in every
        # memory after them (a topic is left only for one much heavier): QA passes 37 and
        # 38 saw all 50 to 79 dots one green, where the graph itself holds five topics.
        # When one topic holds most memories, they are found afresh, and taken if that
        # finds more and parts the graph clearly better (`formulas.modularity`); the
        # colours still follow most of each topic's memories (`stable_slots`).  Otherwise
        # a graph keeps its topics (found afresh each time, a regenerate recoloured a third
        # of the dots, QA pass 28b)
        fresh = communities(len(data), data.src, data.dst, data.weight)
        if _topics(fresh) > _topics(groups) and F.modularity(
                fresh, data.src, data.dst, data.weight) > F.modularity(
                groups, data.src, data.dst, data.weight) + SPLIT_GAIN:
            groups = fresh
    texts = [str(data.nodes[int(i)].get("text") or data.nodes[int(i)].get("label") or "")
             for i in data.ids]
    knowledge: dict[int, str] = {}
    for r in np.nonzero(data.kinds == "knowledge")[0]:
        knowledge.setdefault(int(groups[r]), texts[r])
    return groups, name_communities(groups, texts, knowledge=knowledge)


def edge_near(xy: np.ndarray, src: np.ndarray, dst: np.ndarray, rows: np.ndarray,
              point: tuple[float, float], pixel: tuple[float, float],
              within: float = 4.0) -> int | None:
    """The edge row (of `rows`, those drawn) whose segment passes nearest `point`, within
    `within` pixels (`pixel`: the view's size of one pixel, x and y); None for none."""
    if not len(rows):
        return None
    scale = np.array([1 / pixel[0], 1 / pixel[1]])
    a, b = xy[src[rows]] * scale, xy[dst[rows]] * scale
    p = np.asarray(point) * scale
    ab = b - a
    t = np.clip(np.einsum("ij,ij->i", p - a, ab) / np.maximum(np.einsum("ij,ij->i", ab, ab),
                                                              1e-12), 0.0, 1.0)
    d = np.hypot(*(a + ab * t[:, None] - p).T)
    k = int(np.argmin(d))
    return int(rows[k]) if d[k] <= within else None


def edge_words(data: GraphData, row: int) -> str:
    """A link as its tooltip says it: the two memories, and its weight made when they were
    written and learned since (QA pass 35: hovering a link showed nothing)."""
    a, b = int(data.ids[data.src[row]]), int(data.ids[data.dst[row]])
    learned = float(data.learned[row])
    prior = max(0.0, float(data.weight[row]) - learned)
    parts = [f"made when written {prior:.2f}"] if prior > 0 else []
    parts += [f"learned {learned:.2f}"] if learned >= LEARNED_MIN else []
    label = {i: short_label(str(data.nodes[i].get("label") or data.nodes[i].get("text") or ""))
             for i in (a, b)}
    return (f"Link #{a} – #{b}: {label[a]} – {label[b]}\n"
            + (" · ".join(parts) or f"weight {float(data.weight[row]):.2f}"))

