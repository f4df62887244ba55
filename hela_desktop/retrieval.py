"""The retrieval profiles' ranking (Qt-free): each turns activations into `Recall`s.

The engine (:class:`~hela_desktop.memory.MemoryEngine`) computes the activations (cosine,
BM25, decay) over its index; these functions spread them, rank them and explain each
result.  Every formula is in :mod:`hela_desktop.formulas`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from . import formulas as F
from .config import HelaParams, StreamingParams
from .events import Recall
from .memory_index import MemoryIndex, topk
from .store import Store


class SpreadEdges(NamedTuple):
    """The edges leaving the spreading sources, one entry per (source, neighbour)."""

    src: np.ndarray  # source rows
    dst: np.ndarray  # neighbour rows
    weight: np.ndarray  # effective weights
    learned: np.ndarray  # their learned (Hebbian) parts; the rest is the prior
    counts: np.ndarray  # how many Hebbian steps co-activated each pair


# (source rows, λ, cap) -> the edges leaving those rows
EdgeSpread = Callable[[list[int], float, float], SpreadEdges]


def dense(index: MemoryIndex, cos: np.ndarray, k: int, excl: list[int]) -> list[Recall]:
    """The ``dense`` baseline: plain cosine."""
    c = cos.astype(np.float64)
    if excl:
        c[excl] = -np.inf
    return [Recall(int(index.ids[i]), float(c[i]), semantic=float(c[i])) for i in topk(c, k)]


@dataclass
class Spread:
    """The edge spreading each row received: the amount, the part of it the learned
    (Hebbian) weights sent, and the edge that sent most (its contribution, source id, edge
    index in the `SpreadEdges`)."""

    amt: dict[int, float] = field(default_factory=dict)
    learned: dict[int, float] = field(default_factory=dict)
    best: dict[int, tuple[float, int, int]] = field(default_factory=dict)

    def source(self, row: int) -> int | None:
        b = self.best.get(row)
        return b[1] if b else None


def _attribute(ids: np.ndarray, e: SpreadEdges, factor: np.ndarray) -> Spread:
    """Who sent what along edges `e`: S(j) += factor·w for each edge (factor = β·S_base of
    its source), split into the learned part (factor·learned) and the rest (the prior)."""
    out = Spread()
    contrib, learned = factor * e.weight, factor * e.learned
    for k, (s_r, n_r) in enumerate(zip(e.src.tolist(), e.dst.tolist(), strict=True)):
        c = float(contrib[k])
        out.amt[n_r] = out.amt.get(n_r, 0.0) + c
        out.learned[n_r] = out.learned.get(n_r, 0.0) + float(learned[k])
        best = out.best.get(n_r)
        if best is None or c > best[0]:
            out.best[n_r] = (c, int(ids[s_r]), k)
    return out


def lift_cause(score: float, edges: float, learned: float, context: float, entry: float
               ) -> str:
    """What lifted a memory into the top-k by spreading: the smallest part of its `score`
    without which it would have stayed below `entry` (the best score left out) —
    ``"learned link"`` (the learned part of its links), ``"link"`` (its links, prior and
    learned), ``"context"`` (its conversation's activation), or ``""`` (no single one)."""
    for cause, part in (("learned link", learned), ("link", edges), ("context", context)):
        if part > 0 and score - part <= entry:
            return cause
    return ""


def _explain_lift(extra: dict, score: float, edges: float, learned: float, context: float,
                  entry: float) -> None:
    """For a memory spreading lifted into the top-k: ``entry`` (the best score left out)
    and ``lifted_by`` (`lift_cause`) into `extra`."""
    if np.isfinite(entry):
        extra.update(entry=entry, lifted_by=lift_cause(score, edges, learned, context, entry))


def _explain_spread(i: int, e: SpreadEdges | None, sp: Spread, extra: dict) -> None:
    """Write the numbers of the link that sent row `i` most of its spread into `extra`:
    ``link`` (its effective weight), ``link_learned`` (its learned part), ``link_count``
    (how often the pair was co-activated), ``learned`` (the spread the learned parts of all
    its links sent)."""
    best = sp.best.get(i)
    if e is None or best is None:
        return
    k = best[2]
    extra.update(link=float(e.weight[k]), link_learned=float(e.learned[k]),
                 link_count=int(e.counts[k]), learned=sp.learned.get(i, 0.0))


def hela_paper(index: MemoryIndex, p: HelaParams, acts: tuple[np.ndarray, ...],
               cos: np.ndarray, k: int, excl: list[int], *, spread: bool,
               edge_spread: EdgeSpread) -> list[Recall]:
    """The published HeLa-Mem ranking (profile ``hela-paper``); `acts` = (S_base, sim, kw,
    decay) and `p` has the paper's θ and β."""
    base, sim, kw, decay = acts
    if excl:
        base[excl] = -np.inf
    top_base = topk(base, k)
    total = base.copy()
    sp, e = Spread(), None
    if spread and p.beta > 0:
        sources = [int(i) for i in topk(base, p.max_sources) if base[i] > p.theta]
        if sources:
            e = edge_spread(sources, p.lam, p.weight_cap)
            if len(e.src):
                total = F.spread_activation(base, e.src, e.dst, e.weight, p.beta)
                if excl:
                    total[excl] = -np.inf
                sp = _attribute(index.ids, e, p.beta * base[e.src])
    base_set = set(int(i) for i in top_base)
    ranked = topk(total, k + 1)
    entry = float(total[ranked[k]]) if len(ranked) > k else -np.inf
    lifted = [int(i) for i in ranked[:k] if int(i) not in base_set][: p.m]

    def recall(i: int, path: str) -> Recall:
        extra = {"base": float(base[i]), "cos": float(cos[i])}
        _explain_spread(i, e, sp, extra)
        if path == "associative":
            _explain_lift(extra, float(total[i]), sp.amt.get(i, 0.0), sp.learned.get(i, 0.0),
                          0.0, entry)
        return Recall(
            episode_id=int(index.ids[i]), score=float(total[i]),
            semantic=float(sim[i]), keyword=float(kw[i]), recency=float(decay[i]),
            spread=float(sp.amt.get(i, 0.0)), spread_from=sp.source(i),
            path=path, extra=extra,
        )

    return _ranked([recall(int(i), "base") for i in top_base]
                   + [recall(i, "associative") for i in lifted])


def _ranked(out: list[Recall]) -> list[Recall]:
    out.sort(key=lambda r: -r.score)
    return out


def _context_boost(index: MemoryIndex, p: HelaParams, pool: list[int], base: np.ndarray,
                   total: np.ndarray) -> dict[int, float]:
    """Context spreading: episodes of one conversation share its activation (adds to
    `total`); returns the boost per row."""
    conv = index.view("conv")
    members: dict[int, list[int]] = {}
    for i in pool:
        c = int(conv[i])
        if c >= 0:
            members.setdefault(c, []).append(i)
    amt: dict[int, float] = {}
    if len(members) > 1:
        groups = list(members)
        act = np.array([F.context_activation(base[members[g]], p.context_top) for g in groups])
        z = F.standardize(act)
        for g, zg in zip(groups, z, strict=True):
            for i in members[g]:
                total[i] += p.context_weight * zg
                amt[i] = float(p.context_weight * zg)
    return amt


def _edge_boost(index: MemoryIndex, p: HelaParams, pool: list[int], base: np.ndarray,
                total: np.ndarray, touched: set[int], edge_spread: EdgeSpread
                ) -> tuple[Spread, SpreadEdges | None]:
    """Edge spreading S(j) += β·Σ_i S_base(i)·w_ij from pool sources above θ (adds to
    `total`, marks the rows reached in `touched`)."""
    sources = [i for i in pool[: p.max_sources] if base[i] > p.theta]
    if not sources:
        return Spread(), None
    e = edge_spread(sources, p.lam, p.weight_cap)
    if not len(e.src):
        return Spread(), None
    factor = p.beta * base[e.src]
    np.add.at(total, e.dst, factor * e.weight)
    touched.update(int(i) for i in e.dst)
    return _attribute(index.ids, e, factor), e


def _top_total(total: np.ndarray, base: np.ndarray, pool: list[int], touched: set[int],
               k: int) -> list[int]:
    """The top-k rows by total activation.  Rows outside `touched` keep total = base,
    below every pool row: only `touched` is ranked unless an outside row could compete."""
    cand = np.fromiter(touched, dtype=np.int64, count=len(touched))
    top = [int(cand[j]) for j in topk(total[cand], k)] if len(cand) else []
    if len(pool) < len(total) and (len(top) < k or total[top[-1]] < base[pool[-1]]):
        top = topk(total, k)  # an outside row could compete: rank them all
    return top


def hela_hybrid(index: MemoryIndex, p: HelaParams, parts: dict[str, np.ndarray], k: int,
                excl: list[int], *, spread: bool, edge_spread: EdgeSpread) -> list[Recall]:
    """The ``hela`` profile: hybrid base activation (`parts`, from
    ``MemoryEngine.hybrid_base``), context and edge spreading, dual path."""
    base = parts["base"]
    if excl:
        base[excl] = -np.inf
    # one partial sort serves the top-k, the context pool and the spreading sources
    pool = topk(base, max(p.context_pool, k) if spread else k)
    top_base = pool[:k]
    total = base.copy()
    touched = set(pool)  # rows whose total may differ from base
    ctx_amt: dict[int, float] = {}
    sp, e = Spread(), None
    if spread:
        if p.context_weight > 0 and pool:
            ctx_amt = _context_boost(index, p, pool, base, total)
        if p.beta > 0:
            sp, e = _edge_boost(index, p, pool, base, total, touched, edge_spread)
        if excl:
            total[excl] = -np.inf
    base_set = set(top_base)
    ranked = _top_total(total, base, pool, touched, k + 1)
    entry = float(total[ranked[k]]) if len(ranked) > k else -np.inf
    lifted = [i for i in ranked[:k] if i not in base_set][: p.m]

    def recall(i: int, path: str) -> Recall:
        edges, ctx = sp.amt.get(i, 0.0), ctx_amt.get(i, 0.0)
        extra = {"base": float(base[i]), "relevance": float(parts["relevance"][i]),
                 "speaker": float(parts["speaker"][i]), "context": ctx, "edges": edges,
                 "cos": float(parts["cos"][i])}
        _explain_spread(i, e, sp, extra)
        if path == "associative":
            _explain_lift(extra, float(total[i]), edges, sp.learned.get(i, 0.0), ctx, entry)
        return Recall(
            episode_id=int(index.ids[i]), score=float(total[i]),
            semantic=float(parts["cos"][i]), keyword=float(parts["bm25"][i]),
            recency=float(parts["decay"][i]), spread=float(edges + ctx),
            spread_from=sp.source(i), path=path, extra=extra,
        )

    return _ranked([recall(i, "base") for i in top_base]
                   + [recall(i, "associative") for i in lifted])


def streaming(index: MemoryIndex, sp: StreamingParams, store: Store, cos: np.ndarray,
              q: np.ndarray, cap: int, now: float, excl: list[int]) -> list[Recall]:
    """The ``streaming`` profile: cos² gated boosts, softmax with temperature, MMR."""
    c = cos.astype(np.float64)
    if excl:
        c[excl] = -np.inf
    cand = topk(c, max(sp.candidates, cap))
    cand = [int(i) for i in cand if np.isfinite(c[i])]
    if not cand:
        return []
    ids = [int(index.ids[i]) for i in cand]
    counts = index.view("count")
    last = index.view("last")[cand]
    hours = (now - np.nan_to_num(last, nan=now)) / F.SECONDS_PER_HOUR
    rec = F.recency(hours, never=np.isnan(last), scale=sp.recency_hours)
    mean_count = float(counts.mean()) if len(counts) else 0.0
    freq = F.frequency(counts[cand], mean_count)
    emo = index.view("importance")[cand]
    cents = np.zeros((len(cand), len(q)), dtype=np.float32)
    for j, eid in enumerate(ids):
        ce = index.centroids.get(eid)
        if ce is not None:
            cents[j] = ce[0]
    assoc = F.association(q, cents)
    static = (sp.w_recency * rec + sp.w_frequency * freq + sp.w_emotion * emo
              + sp.w_association * assoc)
    pair = _co_retrievals(store, ids)
    emb = index.view("emb")[cand]
    selected: list[int] = []  # positions in cand
    conn = np.zeros(len(cand))
    out: list[Recall] = []
    avail = np.ones(len(cand), dtype=bool)
    max_sim = np.zeros(len(cand))
    while len(selected) < min(cap, len(cand)):
        boost = static + sp.w_connection * conn
        score = F.streaming_score(c[cand], boost)
        value = np.where(avail, F.mmr_value(score, max_sim, sp.diversity), -np.inf)
        prob = F.softmax(value, sp.temperature)
        j = int(np.argmax(prob))
        if not avail[j]:
            break
        avail[j] = False
        selected.append(j)
        out.append(Recall(
            episode_id=ids[j], score=float(score[j]), semantic=float(max(c[cand[j]], 0) ** 2),
            recency=float(rec[j]), spread=float(sp.w_connection * conn[j]),
            extra={"frequency": float(freq[j]), "emotion": float(emo[j]),
                   "association": float(assoc[j]), "connection": float(conn[j]),
                   "probability": float(prob[j]), "cos": float(c[cand[j]])},
        ))
        max_sim = np.maximum(max_sim, emb @ emb[j])
        sel_id = ids[j]
        for jj, other in enumerate(ids):
            key = (min(sel_id, other), max(sel_id, other))
            if key in pair:
                cnt, upd = pair[key]
                conn[jj] += F.connection(cnt, (now - upd) / F.SECONDS_PER_HOUR, sp.connection_hours)
    return out


def _co_retrievals(store: Store, ids: list[int]) -> dict[tuple[int, int], tuple[int, float]]:
    """(count, updated_at) of the co-retrieved pairs among `ids`, for the connection term."""
    return {key: (row.count, row.updated_at) for key, row in store.edges_between(ids).items()
            if row.count > 0}


def fit_budget(recalls: Sequence[Recall], cap: int, budget: int,
               cost: Callable[[Recall], int]) -> list[Recall]:
    """Keep memories in order while the cap and the token budget allow (skipping ones that
    do not fit, so a long memory does not block shorter ones behind it)."""
    out: list[Recall] = []
    used = 0
    for r in recalls:
        if len(out) >= cap:
            break
        t = cost(r)
        if used + t > budget:
            continue
        r.tokens = t
        used += t
        out.append(r)
    return out
