"""Reflective consolidation: distil busy hubs of the Hebbian graph into semantic knowledge.

The HeLa-Mem "reflective agent", made to work with a small local model (Qt-free).

1. **Hubs.**  Weighted degree over *effective* edge weights (prior + lazily decayed Hebbian
   weight, capped; see :mod:`hela_desktop.edges`), over live episodes only:
   ``D(v) = Σ_j w_vj``.  A hub has ``D(v) > δ_hub`` (``ConsolidationParams.hub_degree``)
   and, since semantic priors make dense graphs where almost every node passes a fixed
   bar, also lies in the top 20% of degrees (``hub_quantile``).
2. **Clusters.**  A hub with its strongest neighbours, at most ``cluster_size`` episodes.
   Hubs are taken by falling degree; a hub already inside a cluster of this pass is skipped
   (a greedy cover), and at most ``max_clusters`` clusters are distilled per pass.  A
   member the user corrected later ("Actually the trip is in June, not May.",
   `knowledge.corrections`) gives its place to the correction.
3. **Distillation.**  One grammar-constrained completion per cluster
   (:func:`distil`): the GBNF grammar forces ``{"items": [...]}`` with one or two items
   ``{"kind": user_model|fact|persona, "text": ..., "replaces": true|false}``; user-model
   texts are forced to start with "The user ", persona texts with "The assistant ".  The
   prompt has a one-shot example (as an earlier exchange); if every item comes back
   ungrounded (the model copied the example), the cluster is asked once more without it.
   Greedy decoding (temperature 0) makes reruns repeatable.
   Items that are too short, role-tagged or repeated are dropped (:func:`clean_items`).
4. **Merging** (:func:`merge_item`), against live items of the same kind, by embedding
   cosine ``s`` to the most similar one:

   - *update / contradiction* — ``s ≥ contradict_threshold`` and either exactly one of the
     two texts is negated ("not", "no longer", "n't", "never", ...) or the model set
     ``replaces`` (and ``s < duplicate_threshold``): the new item is stored and the old one
     gets ``superseded_by`` = new id (kept, out of retrieval).  An update only wins when its
     newest source episode is not older than the old item's newest source; otherwise it is
     dropped as *stale*.
   - *repeat* — ``s ≥ duplicate_threshold``: the old item is strengthened
     (``strength += 1``, ``updated_at``) and gains the new provenance links.
   - otherwise a new item.

   An old item drawn from a memory the user corrected later (`knowledge.outdated`) is not
   used for answers; a new item at least ``contradict_threshold`` similar replaces it.
5. **Atomicity and resume.**  Each cluster is one transaction: its items, its provenance
   links and a marker ``meta['consolidate.done.<signature>']`` (signature = hash of the
   cluster's member ids) commit together.  A job killed mid-way loses nothing: committed
   clusters are skipped next time, the interrupted one is redone.  Invalid model output
   skips the cluster (logged) and marks it, so a broken cluster is not retried forever
   with the same model.  Every pass logs a summary to the ``activity`` table.

API: :class:`ConsolidationParams`, :func:`plan_clusters`, :func:`distil`,
:func:`consolidate` (one pass), :func:`consolidated_variant` (LoCoMo), :func:`plan_pass`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
import time
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .config import HelaParams
from .consolidate_params import ConsolidationParams
from .consolidate_prompt import (
    EXAMPLE_ANSWER,
    EXAMPLE_MEMORIES,
    PREFIX,
    SYSTEM,
    Yielded,
    clean_items,
    cluster_prompt,
    distil,
    grammar_text,
    grounded,
    parse_items,
)
from .edges import weighted_degrees
from .events import Recall
from .knowledge import corrections, list_knowledge, outdated, retrieve_knowledge, vouchers
from .store import Store

log = logging.getLogger(__name__)

__all__ = [
    "DONE_PREFIX", "EXAMPLE_ANSWER", "EXAMPLE_MEMORIES", "JOB", "PREFIX", "SYSTEM", "Cluster",
    "ConsolidatedRetriever", "ConsolidationParams", "ConsolidationReport", "Yielded",
    "clean_items", "cluster_prompt", "consolidate", "consolidated_variant", "distil",
    "grammar_text", "grounded", "is_done", "merge_item", "negated", "parse_items",
    "plan_clusters", "reset_markers", "weighted_degrees",
]

JOB = "consolidate"
DONE_PREFIX = "consolidate.done."


# ---------------------------------------------------------------------- the graph ------
@dataclass
class Cluster:
    """A hub and its strongest neighbours."""

    hub: int
    degree: float
    members: list[int]  # hub first, then neighbours by falling edge weight

    @property
    def signature(self) -> str:
        ids = ",".join(str(i) for i in sorted(self.members))
        return hashlib.sha1(ids.encode()).hexdigest()[:16]


def plan_clusters(store: Store, hela: HelaParams,
                  params: ConsolidationParams | None = None) -> tuple[list[Cluster], int, str]:
    """All clusters of the current graph, by falling hub degree (greedy cover).

    Returns (clusters, number of hubs, graph state hash).  The hash names the plan: it
    changes when the hubs or their clusters change.
    """
    p = params or ConsolidationParams()
    deg, nbrs = weighted_degrees(store, hela)
    bar = p.hub_degree
    if p.hub_quantile > 0 and deg:
        bar = max(bar, float(np.quantile(np.fromiter(deg.values(), float), p.hub_quantile)))
    hubs = sorted((v for v, d in deg.items() if d > bar), key=lambda v: (-deg[v], v))
    covered: set[int] = set()
    clusters: list[Cluster] = []
    for h in hubs:
        if h in covered:
            continue
        strong = [n for w, n in nbrs.get(h, []) if w >= p.member_min_weight]
        members = [h] + strong[: p.cluster_size - 1]
        if len(members) < p.min_cluster:
            continue
        if sum(m in covered for m in members) > p.max_overlap * len(members):
            continue
        covered.update(members)
        clusters.append(Cluster(h, round(deg[h], 4), members))
    clusters = _with_corrections(store, clusters, p)
    digest = hashlib.sha1(";".join(c.signature for c in clusters).encode()).hexdigest()[:16]
    return clusters, len(hubs), digest


def _with_corrections(store: Store, clusters: list[Cluster], p: ConsolidationParams
                      ) -> list[Cluster]:
    """Each member the user corrected later gives its place to the correction
    (`knowledge.corrections`): the model never sees "… a trip to Japan in May …" beside
    "Actually the trip is in June, not May." (it distilled the old month), and what is
    distilled is drawn from the correction.  The cluster's signature changes with its
    members, so a cluster distilled before the correction is distilled again."""
    corr = corrections(store, {m for c in clusters for m in c.members})
    out = []
    for c in clusters:
        members = list(dict.fromkeys(corr.get(m, m) for m in c.members))
        if len(members) >= p.min_cluster:
            out.append(Cluster(members[0], c.degree, members) if corr else c)
    return out


def is_done(store: Store, cluster: Cluster) -> bool:
    return store.get_meta(DONE_PREFIX + cluster.signature) is not None


# ---------------------------------------------------------------------- merging -------
_NEG = re.compile(r"\b(not|no|never|none|nobody|nothing|neither|nor|anymore|no longer|"
                  r"stopped|quit|quitted|gave up)\b|n't\b", re.IGNORECASE)


def negated(text: str) -> bool:
    """Does the statement contain a negation ("not", "no longer", "n't", "stopped", ...)?"""
    return bool(_NEG.search(text))


def _live_items(store: Store, kind: str) -> tuple[list[int], list[str], np.ndarray | None]:
    items = store.live_knowledge(kind)
    if not items:
        return [], [], None
    return [k.id for k in items], [k.text for k in items], np.vstack([k.embedding for k in items])


def merge_item(store: Store, item: dict, vec: np.ndarray, sources: list[int], *,
               params: ConsolidationParams, embedder_name: str | None = None,
               now: float | None = None, outdated_ids: AbstractSet[int] = frozenset()
               ) -> dict:
    """Add one cleaned item: new, strengthen a repeat, or supersede what it updates.

    An old item in `outdated_ids` (drawn from a memory the user corrected later,
    `knowledge.outdated`) is never strengthened: a new item about as close replaces it
    (rule "a source was corrected"), so the old fact cannot come back with the
    correction's provenance.  Runs inside the caller's transaction.  Returns ``{"action":
    "added" | "strengthened" | "superseded" | "stale", "knowledge_id", "other_id",
    "similarity", ...}``.
    """
    now = time.time() if now is None else now
    kind, text = item["kind"], item["text"]
    ids, texts, mat = _live_items(store, kind)
    best, sim, best_text = None, -1.0, ""
    if mat is not None:
        cos = mat @ np.asarray(vec, dtype=np.float32)
        j = int(np.argmax(cos))
        best, sim = ids[j], float(cos[j])
        best_text = texts[j]
    res = {"kind": kind, "text": text, "similarity": round(sim, 4), "other_id": best}
    if best is not None and sim >= params.contradict_threshold:
        if best in outdated_ids:
            kid = store.add_knowledge(kind, text, vec, embedder_name, now, sources)
            store.supersede_knowledge(best, kid, now)
            return {**res, "action": "superseded", "knowledge_id": kid,
                    "rule": "a source was corrected"}
        flips = negated(text) != negated(best_text)
        update = flips or (item.get("replaces") and sim < params.duplicate_threshold)
        if update:
            if store.newest_created(sources) < store.newest_source_time(best):
                return {**res, "action": "stale", "knowledge_id": None}
            kid = store.add_knowledge(kind, text, vec, embedder_name, now, sources)
            store.supersede_knowledge(best, kid, now)
            rule = "negation differs" if flips else "model marked replaces"
            return {**res, "action": "superseded", "knowledge_id": kid, "rule": rule}
        if sim >= params.duplicate_threshold:
            store.strengthen_knowledge(best, now)
            store.link_knowledge_sources(best, sources)
            return {**res, "action": "strengthened", "knowledge_id": best}
    kid = store.add_knowledge(kind, text, vec, embedder_name, now, sources)
    return {**res, "action": "added", "knowledge_id": kid}


# ---------------------------------------------------------------------- one pass ------
@dataclass
class ConsolidationReport:
    """What one pass did (or would do, with ``dry_run``)."""

    dry_run: bool = False
    graph_hash: str = ""
    hubs: int = 0
    clusters: int = 0  # clusters in the plan
    already_done: int = 0  # skipped: processed by an earlier (possibly killed) pass
    distilled: int = 0  # clusters the model answered validly
    failed: int = 0  # clusters with invalid model output (skipped)
    added: int = 0
    strengthened: int = 0
    superseded: int = 0
    stale: int = 0
    rejected: int = 0
    remaining: int = 0  # clusters left for a later pass (limit or yield)
    yielded: bool = False
    seconds: float = 0.0
    model_seconds: float = 0.0
    details: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> dict:
        """The activity-log summary (without per-item details)."""
        d = self.to_dict()
        d.pop("details")
        d["seconds"] = round(self.seconds, 2)
        d["model_seconds"] = round(self.model_seconds, 2)
        return d


class _Rollback(Exception):
    pass


def _user_words(store: Store, ids: list[int]) -> dict[int, str]:
    """Episode id -> its user's words (those with words)."""
    eps = store.episodes(ids)
    return {i: eps[i].key for i in ids if i in eps and eps[i].key}


def _episode_texts(store: Store, ids: list[int]) -> list[str]:
    """The user's words of each episode: the only source knowledge is distilled from."""
    return list(_user_words(store, ids).values())


def consolidate(engine, llm, *, store: Store | None = None,
                params: ConsolidationParams | None = None, dry_run: bool = False,
                should_yield: Callable[[], bool] | None = None,
                model_lock: threading.Lock | None = None,
                on_cluster: Callable[[dict], None] | None = None,
                now: float | None = None, redo: bool = False) -> ConsolidationReport:
    """One consolidation pass over the current graph.

    `engine`: the `MemoryEngine` (its embedder and HeLa parameters are used).  `llm`: a
    loaded `LocalLLM`.  `store`: the connection to write through (default ``engine.store``;
    a background thread passes its own `Store` on the same file).  `should_yield`: checked
    before every cluster; when it returns True the pass stops (``report.yielded``) and the
    rest is done next time.  `model_lock`: held around each model call and cluster
    transaction (chat never runs at the same time); if it cannot be taken within
    ``params.lock_timeout`` seconds the pass yields.  `on_cluster`: called after each cluster
    commits, with its detail dict.  `dry_run`: everything is computed, model included, then
    rolled back; nothing is written.  `redo`: clusters already processed are taken again
    (a dry run's preview of ``consolidate --redo``; a real redo resets the markers first).
    """
    p = params or ConsolidationParams()
    store = store or engine.store
    t0 = time.perf_counter()
    rep = ConsolidationReport(dry_run=dry_run)
    clusters, rep.hubs, rep.graph_hash = plan_clusters(store, engine.hela, p)
    rep.clusters = len(clusters)
    todo = []
    for c in clusters:
        if is_done(store, c) and not redo:  # (`redo`: a dry run's preview of a redo)
            rep.already_done += 1
        else:
            todo.append(c)
    limit = len(todo) if p.max_clusters is None else min(len(todo), p.max_clusters)
    emb_name = getattr(engine.embedder, "name", None)
    model_name = getattr(llm, "name", "model")
    edited = store.knowledge_edited_ids()
    corrected = frozenset(outdated(store, (k for k in list_knowledge(store) if k.id not in edited)))
    done = 0
    for c in todo[:limit]:
        if should_yield is not None and should_yield():
            rep.yielded = True
            break
        if model_lock is not None and not model_lock.acquire(timeout=p.lock_timeout):
            rep.yielded = True
            break
        try:
            detail = _one_cluster(store, engine, llm, c, p, rep, dry_run, emb_name, model_name,
                                  now, should_yield, corrected)
        except Yielded:
            rep.yielded = True
            break
        finally:
            if model_lock is not None:
                model_lock.release()
        done += 1
        rep.details.append(detail)
        if on_cluster is not None:
            on_cluster(detail)
    rep.remaining = len(todo) - done
    rep.seconds = time.perf_counter() - t0
    if not dry_run:
        with store.transaction():
            if rep.remaining == 0 and not rep.yielded:
                store.set_meta("consolidate.last_hash", rep.graph_hash)
            store.log_activity(JOB, rep.summary())
    return rep


def _one_cluster(store, engine, llm, c: Cluster, p: ConsolidationParams,
                 rep: ConsolidationReport, dry_run: bool, emb_name, model_name, now,
                 should_yield=None, corrected: AbstractSet[int] = frozenset()) -> dict:
    texts = _episode_texts(store, c.members)
    detail: dict[str, Any] = {"hub": c.hub, "degree": c.degree, "members": c.members,
              "signature": c.signature, "items": [], "status": "ok"}
    tm = time.perf_counter()
    try:
        raw_items, raw = distil(llm, texts, p, should_yield=should_yield)
    except ValueError as exc:
        raw_items, raw = None, str(exc)
    rep.model_seconds += time.perf_counter() - tm
    marker_key = DONE_PREFIX + c.signature
    if raw_items is None:
        log.warning("consolidate: cluster around #%s skipped, invalid model output: %s",
                    c.hub, raw[:200])
        rep.failed += 1
        detail["status"] = "invalid"
        detail["raw"] = raw[:300]
        if not dry_run:
            with store.transaction():
                store.set_meta(marker_key, json.dumps(
                    {"at": time.time(), "status": "invalid", "model": model_name}))
        return detail
    kept, rejected = clean_items(raw_items, p.min_words, context="\n".join(texts),
                                   max_chars=p.max_chars)
    if not kept and rejected and all(r["reason"].startswith("not grounded") for r in rejected):
        # the small model copied the example instead of reading: ask once more without it
        tm = time.perf_counter()
        try:
            retry, raw2 = distil(llm, texts, p, should_yield=should_yield, example=False)
            kept, rejected2 = clean_items(retry, p.min_words, context="\n".join(texts),
                                             max_chars=p.max_chars)
            rejected += rejected2
            detail["retried"] = True
        except ValueError:
            pass
        rep.model_seconds += time.perf_counter() - tm
    rep.rejected += len(rejected)
    detail["rejected"] = rejected
    vecs = engine.embedder.embed([k["text"] for k in kept]) if kept else []
    # within-cluster dedupe by meaning
    uniq: list[int] = []
    for i in range(len(kept)):
        if all(float(vecs[i] @ vecs[j]) < p.duplicate_threshold for j in uniq):
            uniq.append(i)
        else:
            rep.rejected += 1
            rejected.append({**kept[i], "reason": "repeated"})
    rep.distilled += 1
    try:
        with store.transaction():
            for i in uniq:
                res = merge_item(store, kept[i], vecs[i],
                                 vouchers(kept[i]["text"], _user_words(store, c.members)), params=p,
                                 embedder_name=emb_name, now=now, outdated_ids=corrected)
                detail["items"].append(res)
                setattr(rep, res["action"], getattr(rep, res["action"]) + 1)
            store.set_meta(marker_key, json.dumps(
                {"at": time.time(), "status": "ok", "model": model_name,
                 "items": [r["knowledge_id"] for r in detail["items"]]}))
            if dry_run:
                raise _Rollback
    except _Rollback:
        pass
    return detail


def reset_markers(store: Store) -> int:
    """Forget which clusters were processed (the next pass redoes all of them)."""
    with store.transaction():
        return store.delete_meta_prefix(DONE_PREFIX)


# ---------------------------------------------------------------------- LoCoMo -------
@dataclass
class ConsolidatedRetriever:
    """Retrieval for the consolidated LoCoMo variant: knowledge items, then episodes.

    ``retrieve(question)`` returns up to ``k_knowledge`` knowledge recalls (cosine ≥
    ``min_knowledge_score``; ``kind="knowledge"``, ``episode_id`` = knowledge id,
    ``extra["sources"]`` = source episode ids) followed by the episodes of the engine's
    profile.  ``covered(recalls)`` gives the episode ids they cover: an episode covers
    itself, a knowledge item covers its source episodes.  Knowledge ids and episode ids are
    different id spaces: key costs and coverage by ``(r.kind, r.episode_id)``.
    """

    engine: Any  # a MemoryEngine
    k: int = 10
    k_knowledge: int = 3
    min_knowledge_score: float = 0.3
    profile: str | None = None
    report: ConsolidationReport | None = None

    def retrieve(self, question: str, *, now: float | None = None, k: int | None = None,
                 query_vec: np.ndarray | None = None) -> list[Recall]:
        """Knowledge first (compact, distilled), then top-(k − knowledge used) episodes.

        `k`: total slots (default ``self.k``); pass a large k to rank candidates for a
        token-budget fit instead.
        """
        k = self.k if k is None else k
        q = self.engine.embed_query(question) if query_vec is None else query_vec
        know = retrieve_knowledge(self.engine, q, self.k_knowledge,
                                  min_score=self.min_knowledge_score)
        # the engine embeds the question itself unless given a vector (its hela profile
        # then strips speaker names first), so episodes rank exactly as without knowledge
        eps = self.engine.retrieve(question, profile=self.profile, k=max(1, k - len(know)),
                                   now=now, query_vec=query_vec, with_text=False)
        return know + eps

    @staticmethod
    def covered(recalls: list[Recall]) -> list[int]:
        """Episode ids covered by `recalls`, in order, without repeats."""
        out: dict[int, None] = {}
        for r in recalls:
            if r.kind == "knowledge":
                for e in r.extra.get("sources", []):
                    out[int(e)] = None
            else:
                out[int(r.episode_id)] = None
        return list(out)

    def __call__(self, question: str, now: float | None = None) -> list[int]:
        return self.covered(self.retrieve(question, now=now))


def consolidated_variant(engine, llm, *, k: int = 10, k_knowledge: int = 3,
                         params: ConsolidationParams | None = None, profile: str | None = None,
                         max_passes: int = 50, should_yield: Callable[[], bool] | None = None,
                         on_cluster: Callable[[dict], None] | None = None) -> ConsolidatedRetriever:
    """Consolidate an ingested engine completely, then return a `ConsolidatedRetriever`.

    For LoCoMo: ingest one conversation into `engine` (and run its questions' Hebbian
    warm-up if the benchmark does), call this once, then for every question
    ``retriever(question, now)`` gives the covered episode ids; map them to dia_ids and
    score evidence recall as for the other methods.  Passes repeat (each bounded by
    ``params.max_clusters``) until no cluster is left or `max_passes` is reached.
    """
    p = params or ConsolidationParams()
    total = ConsolidationReport()
    t0 = time.perf_counter()
    for _ in range(max_passes):
        rep = consolidate(engine, llm, params=p, should_yield=should_yield, on_cluster=on_cluster)
        for name in ("distilled", "failed", "added", "strengthened", "superseded", "stale",
                     "rejected"):
            setattr(total, name, getattr(total, name) + getattr(rep, name))
        total.model_seconds += rep.model_seconds
        total.hubs, total.clusters, total.graph_hash = rep.hubs, rep.clusters, rep.graph_hash
        total.remaining, total.yielded = rep.remaining, rep.yielded
        if rep.remaining == 0 or rep.yielded:
            break
    total.seconds = time.perf_counter() - t0
    return ConsolidatedRetriever(engine, k=k, k_knowledge=k_knowledge, profile=profile,
                                 report=total)


# ---------------------------------------------------------------------- command line -
def plan_pass(store: Store, hela: HelaParams, params: ConsolidationParams, *,
              redo: bool = False, dry_run: bool = False) -> tuple[int, int, int]:
    """What ``hela-desktop consolidate`` checks before it loads a model: (hubs, clusters,
    clusters not yet processed).  `redo` (unless `dry_run`) first forgets which clusters
    were processed.  With nothing left to do (and not `dry_run`) the pass is logged here,
    as one that found every cluster done."""
    if redo and not dry_run:
        reset_markers(store)
    clusters, hubs, _ = plan_clusters(store, hela, params)
    # a dry run of a redo changes nothing: every cluster counts as pending in its preview
    pending = sum(1 for c in clusters if redo or not is_done(store, c))
    if not pending and not dry_run:
        with store.transaction():
            store.log_activity(JOB, {"hubs": hubs, "clusters": len(clusters),
                                     "already_done": len(clusters)})
    return hubs, len(clusters), pending
