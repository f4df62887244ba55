"""Reflective consolidation: distil busy hubs of the Hebbian graph into semantic knowledge.

The HeLa-Mem "reflective agent", made to work with a small local model (Qt-free).

1. **Hubs.**  Weighted degree over *effective* edge weights (prior + lazily decayed Hebbian
   weight, capped; see :meth:`MemoryEngine.effective_weight`), over live episodes only:
   ``D(v) = Σ_j w_vj``.  A hub has ``D(v) > δ_hub`` (``ConsolidationParams.hub_degree``)
   and, since semantic priors make dense graphs where almost every node passes a fixed
   bar, also lies in the top 20% of degrees (``hub_quantile``).
2. **Clusters.**  A hub with its strongest neighbours, at most ``cluster_size`` episodes.
   Hubs are taken by falling degree; a hub already inside a cluster of this pass is skipped
   (a greedy cover), and at most ``max_clusters`` clusters are distilled per pass.
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
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field

import numpy as np

from . import formulas as F
from .config import HelaParams
from .events import Recall
from .knowledge import KINDS, retrieve_knowledge
from .store import Store, from_blob, new_uid, to_blob

log = logging.getLogger(__name__)

JOB = "consolidate"
DONE_PREFIX = "consolidate.done."


@dataclass
class ConsolidationParams:
    """Constants of reflective consolidation (documented in ``docs/consolidation.md``)."""

    hub_degree: float = 1.5  # δ_hub: a hub has weighted degree D(v) > this …
    hub_quantile: float = 0.8  # … and is in the top 20% of degrees (0: no relative bar)
    cluster_size: int = 6  # hub + up to 5 strongest neighbours
    min_cluster: int = 2  # a hub needs at least one neighbour
    member_min_weight: float = 0.2  # a neighbour joins the cluster only over an edge this strong
    max_overlap: float = 0.5  # skip a hub whose cluster is more than this share already covered
    max_clusters: int | None = 16  # clusters distilled per pass (None: all)
    max_items: int = 2  # items the grammar allows per cluster
    max_chars: int = 90  # longest item text the grammar allows (after the forced prefix)
    max_tokens: int = 96  # completion budget per cluster
    memory_chars: int = 220  # each episode is cut to this many characters in the prompt
    temperature: float = 0.0  # greedy: reruns give the same items
    duplicate_threshold: float = 0.90  # cosine at/above which an item repeats an old one
    contradict_threshold: float = 0.75  # cosine at/above which an item may update an old one
    min_words: int = 3  # shortest acceptable item, in words after the forced prefix
    lock_timeout: float = 0.5  # seconds to wait for the model before yielding


# ---------------------------------------------------------------------- the graph ------
def weighted_degrees(store: Store, hela: HelaParams, rows: list[tuple] | None = None
                     ) -> tuple[dict[int, float], dict[int, list[tuple[float, int]]]]:
    """D(v) = Σ_j w_vj over effective weights, for every episode with an edge.

    Returns (degree by episode id, neighbours by episode id as (weight, id) sorted by falling
    weight).  `rows`: (src, dst, weight, prior, count, step, ...) edges to count; default
    ``store.all_edges()``, the edges between live (not archived, not deleted) episodes.
    """
    rows = store.all_edges() if rows is None else rows
    deg: dict[int, float] = {}
    nbrs: dict[int, list[tuple[float, int]]] = {}
    if not rows:
        return deg, nbrs
    step = store.hebbian_step()
    arr = np.asarray([(r[2], r[3], r[5]) for r in rows], dtype=np.float64)
    weff = np.minimum(hela.weight_cap,
                      arr[:, 1] + F.decayed_weight(arr[:, 0], hela.lam, step - arr[:, 2]))
    for (a, b, *_), w in zip(rows, weff):
        w = float(w)
        if w <= 0:
            continue
        nbrs.setdefault(a, []).append((w, b))
        nbrs.setdefault(b, []).append((w, a))
    for v, lst in nbrs.items():
        lst.sort(key=lambda t: (-t[0], t[1]))
        deg[v] = F.weighted_degree([w for w, _ in lst])
    return deg, nbrs


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
    digest = hashlib.sha1(";".join(c.signature for c in clusters).encode()).hexdigest()[:16]
    return clusters, len(hubs), digest


def is_done(store: Store, cluster: Cluster) -> bool:
    return store.get_meta(DONE_PREFIX + cluster.signature) is not None


# ---------------------------------------------------------------------- the model ------
SYSTEM = (
    "You turn related conversation memories into short lasting knowledge. "
    "kind user_model: a trait or preference of the user, written about the user in third "
    "person. kind fact: a fact about the world or people in the user's life. kind persona: "
    "how the assistant should behave. replaces: true only if it corrects something said "
    "earlier."
)
# A one-shot example given as an earlier exchange (the small model copies an example that
# sits in the system prompt, but follows one given as a previous turn).
EXAMPLE_MEMORIES = ("- User: I drink coffee every morning. Assistant: Nice routine.\n"
                    "- User: Coffee keeps me awake at work. Assistant: Good.")
EXAMPLE_ANSWER = ('{"items": [{"kind": "user_model", "text": "The user drinks coffee every '
                  'morning.", "replaces": false}]}')

PREFIX = {"user_model": "The user ", "fact": "", "persona": "The assistant "}


def grammar_text(max_items: int = 2, max_chars: int = 90) -> str:
    """The GBNF grammar of one distillation answer."""
    more = ' ( ", " item )?' * max(0, max_items - 1)
    return (
        f'root ::= "{{\\"items\\": [" item{more} "]}}"\n'
        'item ::= "{\\"kind\\": \\"" ( um | fa | pe ) ", \\"replaces\\": " ( "true" | "false" ) "}"\n'
        'um ::= "user_model\\", \\"text\\": \\"The user " body "\\""\n'
        'fa ::= "fact\\", \\"text\\": \\"" body "\\""\n'
        'pe ::= "persona\\", \\"text\\": \\"The assistant " body "\\""\n'
        f'body ::= [^"\\\\\\x00-\\x1f]{{4,{int(max_chars)}}}\n'
    )


_GRAMMARS: dict[tuple[int, int], object] = {}


def _grammar(max_items: int, max_chars: int):
    key = (max_items, max_chars)
    if key not in _GRAMMARS:
        from llama_cpp import LlamaGrammar

        _GRAMMARS[key] = LlamaGrammar.from_string(grammar_text(max_items, max_chars),
                                                  verbose=False)
    return _GRAMMARS[key]


def cluster_prompt(texts: list[str], memory_chars: int = 220, *,
                   example: bool = True) -> list[dict]:
    """Chat messages asking for the knowledge in one cluster (stable part first: the system
    prompt and the example exchange are the same for every cluster, so llama.cpp reuses
    their KV cache)."""
    lines = []
    for t in texts:
        t = " ".join(t.split())
        lines.append("- " + (t[:memory_chars].rstrip() + "…" if len(t) > memory_chars else t))
    shot = [{"role": "user", "content": f"Memories:\n{EXAMPLE_MEMORIES}\n\nAnswer:"},
            {"role": "assistant", "content": EXAMPLE_ANSWER}] if example else []
    return [{"role": "system", "content": SYSTEM + ("" if example else " Answer with JSON only.")},
            *shot,
            {"role": "user", "content": "Memories:\n" + "\n".join(lines) + "\n\nAnswer:"}]


class Yielded(Exception):
    """The model call was stopped because the user came back (nothing is written)."""


def distil(llm, texts: list[str], params: ConsolidationParams | None = None, *,
           should_yield: Callable[[], bool] | None = None,
           example: bool = True) -> tuple[list[dict], str]:
    """Ask the local model for knowledge items in `texts` (one cluster); grammar-constrained.

    `llm` is a :class:`~hela_desktop.llm.LocalLLM`; the call goes through its llama.cpp
    completion (``llm.complete(prompt, grammar=...)``) with the model's chat template.
    Returns (parsed raw items, raw output); raises ValueError when nothing can be parsed,
    `Yielded` when `should_yield()` turned true during generation (checked every token).
    The caller must hold the model lock.
    """
    from llama_cpp import StoppingCriteriaList

    p = params or ConsolidationParams()
    prompt = llm.render(cluster_prompt(texts, p.memory_chars, example=example))
    fired = []

    def stop(_ids, _logits) -> bool:
        if should_yield is not None and should_yield():
            fired.append(True)
            return True
        return False

    out = llm.complete(
        prompt, grammar=_grammar(p.max_items, p.max_chars), max_tokens=p.max_tokens,
        temperature=p.temperature, top_k=40, top_p=0.95, repeat_penalty=1.0, seed=1234,
        stopping_criteria=StoppingCriteriaList([stop]))
    if fired:
        raise Yielded("the user is back")
    text = out["choices"][0]["text"]
    return parse_items(text), text


_ITEM_RE = re.compile(
    r'\{"kind": "(user_model|fact|persona)", "text": "([^"\\]*)", "replaces": (true|false)\}')


def parse_items(text: str) -> list[dict]:
    """Items from a (possibly truncated) grammar-shaped answer; ValueError if none."""
    try:
        data = json.loads(text)
        items = data["items"] if isinstance(data, dict) else None
    except (ValueError, KeyError, TypeError):
        items = None
    if not isinstance(items, list):  # truncated at max_tokens: keep the complete items
        items = [{"kind": k, "text": t, "replaces": r == "true"} for k, t, r in _ITEM_RE.findall(text)]
    good = [i for i in items if isinstance(i, dict) and i.get("kind") in KINDS
            and isinstance(i.get("text"), str)]
    if not good:
        raise ValueError(f"no knowledge item in model output {text[:120]!r}")
    return good


_ROLE = re.compile(r"\b(user|assistant)\s*:\s*", re.IGNORECASE)
_SPACES = re.compile(r"\s+")


def grounded(text: str, context: str | list[str]) -> bool:
    """Is the statement supported by the user's own words (`context`: their texts)?  See
    ``knowledge.support``: enough of its content words must stand in them, and it may not
    speak in the assistant's voice.  This also catches the small model's habit of copying
    the prompt's example instead of the memories."""
    from .knowledge import is_grounded

    return is_grounded(text, [context] if isinstance(context, str) else context)


def clean_items(items: list[dict], min_words: int = 3,
                context: str | None = None) -> tuple[list[dict], list[dict]]:
    """(kept, rejected): normalised texts; too short, role-tagged, repeated or (given the
    cluster's `context` text) ungrounded items dropped."""
    kept, rejected, seen = [], [], set()
    for it in items:
        kind = it["kind"]
        text = _SPACES.sub(" ", str(it["text"])).strip()
        prefix = PREFIX[kind].strip()
        body = text[len(prefix):].strip() if prefix and text.startswith(prefix) else text
        body = _ROLE.sub("", body).strip(" .,;:-")
        reason = None
        if len(re.findall(r"[^\W_]+", body)) < min_words:
            reason = "too short"
        elif not re.search(r"[A-Za-z]", body):
            reason = "no words"
        text = (f"{prefix} {body}" if prefix else body[:1].upper() + body[1:]).strip() + "."
        key = re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()
        if reason is None and context is not None and not grounded(body, context):
            reason = "not grounded in the memories"
        if reason is None and key in seen:
            reason = "repeated"
        entry = {"kind": kind, "text": text, "replaces": bool(it.get("replaces"))}
        if reason:
            rejected.append({**entry, "reason": reason})
        else:
            seen.add(key)
            kept.append(entry)
    return kept, rejected


# ---------------------------------------------------------------------- merging -------
_NEG = re.compile(r"\b(not|no|never|none|nobody|nothing|neither|nor|anymore|no longer|"
                  r"stopped|quit|quitted|gave up)\b|n't\b", re.IGNORECASE)


def negated(text: str) -> bool:
    """Does the statement contain a negation ("not", "no longer", "n't", "stopped", ...)?"""
    return bool(_NEG.search(text))


def _newest_source(store: Store, episode_ids: Iterable[int]) -> float:
    ids = list(episode_ids)
    if not ids:
        return 0.0
    q = ",".join("?" * len(ids))
    r = store.conn.execute(f"SELECT MAX(created_at) FROM episodes WHERE id IN ({q})", ids).fetchone()
    return float(r[0] or 0.0)


def _item_sources_newest(store: Store, kid: int) -> float:
    r = store.conn.execute(
        "SELECT MAX(e.created_at) FROM knowledge_sources s JOIN episodes e ON e.id = s.episode_id "
        "WHERE s.knowledge_id = ?", (kid,)).fetchone()
    return float(r[0] or 0.0)


def _live_items(store: Store, kind: str) -> tuple[list[int], list[str], np.ndarray | None]:
    rows = store.conn.execute(
        "SELECT id, text, embedding FROM knowledge WHERE kind = ? AND superseded_by IS NULL "
        "AND archived_at IS NULL AND embedding IS NOT NULL ORDER BY id", (kind,)).fetchall()
    if not rows:
        return [], [], None
    return [r[0] for r in rows], [r[1] for r in rows], np.vstack([from_blob(r[2]) for r in rows])


def _link_sources(store: Store, kid: int, sources: Iterable[int]) -> None:
    store.conn.executemany(
        "INSERT OR IGNORE INTO knowledge_sources(knowledge_id, episode_id) VALUES (?, ?)",
        [(kid, int(e)) for e in sources])


def _insert_item(store: Store, kind: str, text: str, vec: np.ndarray, embedder: str | None,
                 now: float, sources: list[int]) -> int:
    cur = store.conn.execute(
        "INSERT INTO knowledge(uid, kind, text, embedding, embedder, created_at, updated_at, "
        "strength) VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
        (new_uid(), kind, text, to_blob(vec), embedder, now, now))
    kid = int(cur.lastrowid)
    _link_sources(store, kid, sources)
    return kid


def merge_item(store: Store, item: dict, vec: np.ndarray, sources: list[int], *,
               params: ConsolidationParams, embedder_name: str | None = None,
               now: float | None = None) -> dict:
    """Add one cleaned item: new, strengthen a repeat, or supersede what it updates.

    Runs inside the caller's transaction.  Returns ``{"action": "added" | "strengthened" |
    "superseded" | "stale", "knowledge_id", "other_id", "similarity", ...}``.
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
        flips = negated(text) != negated(best_text)
        update = flips or (item.get("replaces") and sim < params.duplicate_threshold)
        if update:
            if _newest_source(store, sources) < _item_sources_newest(store, best):
                return {**res, "action": "stale", "knowledge_id": None}
            kid = _insert_item(store, kind, text, vec, embedder_name, now, sources)
            store.conn.execute("UPDATE knowledge SET superseded_by = ?, updated_at = ? WHERE id = ?",
                               (kid, now, best))
            rule = "negation differs" if flips else "model marked replaces"
            return {**res, "action": "superseded", "knowledge_id": kid, "rule": rule}
        if sim >= params.duplicate_threshold:
            store.conn.execute(
                "UPDATE knowledge SET strength = strength + 1, updated_at = ? WHERE id = ?",
                (now, best))
            _link_sources(store, best, sources)
            return {**res, "action": "strengthened", "knowledge_id": best}
    kid = _insert_item(store, kind, text, vec, embedder_name, now, sources)
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


def _episode_texts(store: Store, ids: list[int]) -> list[str]:
    """The user's words of each episode: the only source knowledge is distilled from."""
    eps = store.episodes(ids)
    return [eps[i].key for i in ids if i in eps and eps[i].key]


def consolidate(engine, llm, *, store: Store | None = None,
                params: ConsolidationParams | None = None, dry_run: bool = False,
                should_yield: Callable[[], bool] | None = None,
                model_lock: threading.Lock | None = None,
                on_cluster: Callable[[dict], None] | None = None,
                now: float | None = None) -> ConsolidationReport:
    """One consolidation pass over the current graph.

    `engine`: the `MemoryEngine` (its embedder and HeLa parameters are used).  `llm`: a
    loaded `LocalLLM`.  `store`: the connection to write through (default ``engine.store``;
    a background thread passes its own `Store` on the same file).  `should_yield`: checked
    before every cluster; when it returns True the pass stops (``report.yielded``) and the
    rest is done next time.  `model_lock`: held around each model call and cluster
    transaction (chat never runs at the same time); if it cannot be taken within
    ``params.lock_timeout`` seconds the pass yields.  `on_cluster`: called after each cluster
    commits, with its detail dict.  `dry_run`: everything is computed, model included, then
    rolled back; nothing is written.
    """
    p = params or ConsolidationParams()
    store = store or engine.store
    t0 = time.perf_counter()
    rep = ConsolidationReport(dry_run=dry_run)
    clusters, rep.hubs, rep.graph_hash = plan_clusters(store, engine.hela, p)
    rep.clusters = len(clusters)
    todo = []
    for c in clusters:
        if is_done(store, c):
            rep.already_done += 1
        else:
            todo.append(c)
    limit = len(todo) if p.max_clusters is None else min(len(todo), p.max_clusters)
    emb_name = getattr(engine.embedder, "name", None)
    model_name = getattr(llm, "name", "model")
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
                                  now, should_yield)
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
                 should_yield=None) -> dict:
    texts = _episode_texts(store, c.members)
    detail = {"hub": c.hub, "degree": c.degree, "members": c.members,
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
    kept, rejected = clean_items(raw_items, p.min_words, context="\n".join(texts))
    if not kept and rejected and all(r["reason"].startswith("not grounded") for r in rejected):
        # the small model copied the example instead of reading: ask once more without it
        tm = time.perf_counter()
        try:
            retry, raw2 = distil(llm, texts, p, should_yield=should_yield, example=False)
            kept, rejected2 = clean_items(retry, p.min_words, context="\n".join(texts))
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
                res = merge_item(store, kept[i], vecs[i], c.members, params=p,
                                 embedder_name=emb_name, now=now)
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
        cur = store.conn.execute("DELETE FROM meta WHERE key LIKE ?", (DONE_PREFIX + "%",))
    return cur.rowcount


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

    engine: object
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
    pending = sum(1 for c in clusters if not is_done(store, c))
    if not pending and not dry_run:
        with store.transaction():
            store.log_activity(JOB, {"hubs": hubs, "clusters": len(clusters),
                                     "already_done": len(clusters)})
    return hubs, len(clusters), pending
