"""The retrieval profiles' ranking (Qt-free): each turns activations into `Recall`s.

The engine (:class:`~hela_desktop.memory.MemoryEngine`) computes the activations (cosine,
BM25, decay) over its index; these functions spread them, rank them and explain each
result.  Every formula is in :mod:`hela_desktop.formulas`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from . import formulas as F
from .config import HelaParams, StreamingParams
from .events import Recall
from .memory_index import MemoryIndex, topk
from .store import Store

# (source rows, neighbour rows, effective weights) of the edges leaving the given rows
EdgeSpread = Callable[[list[int], float, float], tuple[np.ndarray, np.ndarray, np.ndarray]]


def dense(index: MemoryIndex, cos: np.ndarray, k: int, excl: list[int]) -> list[Recall]:
    """The ``dense`` baseline: plain cosine."""
    c = cos.astype(np.float64)
    if excl:
        c[excl] = -np.inf
    return [Recall(int(index.ids[i]), float(c[i]), semantic=float(c[i])) for i in topk(c, k)]


def _attribute(ids: np.ndarray, s_arr: np.ndarray, n_arr: np.ndarray, contrib: np.ndarray
               ) -> tuple[dict[int, float], dict[int, tuple[float, int]]]:
    """(spread received by each row, (largest contribution, its source id) by row)."""
    amt: dict[int, float] = {}
    src: dict[int, tuple[float, int]] = {}
    for s_r, n_r, c in zip(s_arr, n_arr, contrib, strict=True):
        amt[int(n_r)] = amt.get(int(n_r), 0.0) + float(c)
        best = src.get(int(n_r))
        if best is None or c > best[0]:
            src[int(n_r)] = (float(c), int(ids[s_r]))
    return amt, src


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
    spread_amt: dict[int, float] = {}
    spread_src: dict[int, tuple[float, int]] = {}
    if spread and p.beta > 0:
        sources = [int(i) for i in topk(base, p.max_sources) if base[i] > p.theta]
        if sources:
            s_arr, n_arr, w_arr = edge_spread(sources, p.lam, p.weight_cap)
            if len(s_arr):
                total = F.spread_activation(base, s_arr, n_arr, w_arr, p.beta)
                if excl:
                    total[excl] = -np.inf
                spread_amt, spread_src = _attribute(index.ids, s_arr, n_arr,
                                                    p.beta * base[s_arr] * w_arr)
    base_set = set(int(i) for i in top_base)
    lifted = [int(i) for i in topk(total, k) if int(i) not in base_set][: p.m]

    def recall(i: int, path: str) -> Recall:
        src = spread_src.get(i)
        return Recall(
            episode_id=int(index.ids[i]), score=float(total[i]),
            semantic=float(sim[i]), keyword=float(kw[i]), recency=float(decay[i]),
            spread=float(spread_amt.get(i, 0.0)), spread_from=src[1] if src else None,
            path=path, extra={"base": float(base[i]), "cos": float(cos[i])},
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
                ) -> tuple[dict[int, float], dict[int, tuple[float, int]]]:
    """Edge spreading S(j) += β·Σ_i S_base(i)·w_ij from pool sources above θ (adds to
    `total`, marks the rows reached in `touched`)."""
    sources = [i for i in pool[: p.max_sources] if base[i] > p.theta]
    if not sources:
        return {}, {}
    s_arr, n_arr, w_arr = edge_spread(sources, p.lam, p.weight_cap)
    if not len(s_arr):
        return {}, {}
    contrib = p.beta * base[s_arr] * w_arr
    np.add.at(total, n_arr, contrib)
    touched.update(int(i) for i in n_arr)
    return _attribute(index.ids, s_arr, n_arr, contrib)


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
    spread_amt: dict[int, float] = {}
    spread_src: dict[int, tuple[float, int]] = {}
    if spread:
        if p.context_weight > 0 and pool:
            ctx_amt = _context_boost(index, p, pool, base, total)
        if p.beta > 0:
            spread_amt, spread_src = _edge_boost(index, p, pool, base, total, touched,
                                                 edge_spread)
        if excl:
            total[excl] = -np.inf
    base_set = set(top_base)
    lifted = [i for i in _top_total(total, base, pool, touched, k) if i not in base_set][: p.m]

    def recall(i: int, path: str) -> Recall:
        src = spread_src.get(i)
        return Recall(
            episode_id=int(index.ids[i]), score=float(total[i]),
            semantic=float(parts["cos"][i]), keyword=float(parts["bm25"][i]),
            recency=float(parts["decay"][i]),
            spread=float(spread_amt.get(i, 0.0) + ctx_amt.get(i, 0.0)),
            spread_from=src[1] if src else None, path=path,
            extra={"base": float(base[i]), "relevance": float(parts["relevance"][i]),
                   "speaker": float(parts["speaker"][i]), "context": ctx_amt.get(i, 0.0),
                   "edges": spread_amt.get(i, 0.0), "cos": float(parts["cos"][i])},
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
