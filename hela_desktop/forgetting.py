"""Adaptive forgetting that loses nothing by accident: archive, restore, purge (Qt-free).

**The rule.**  A live episode (not archived, not deleted) is archived when *all* hold:

1. its connectivity is low: its association degree ``A(v)`` (``formulas.beyond_chain``) is
   below ``ForgettingParams.max_degree`` (default 0.6 — a lone semantic or name link of
   0.5 with nothing else counts as isolated).  A(v) sums the effective edge weights (prior
   + decayed Hebbian weight, capped) to non-deleted neighbours, except that a link to the
   turn right before or after it in its chat counts only for what it carries beyond the
   temporal prior (0.5): every turn has those links, so they say nothing about whether
   anything else associates to it (counted whole, two of them kept every turn in the middle
   of a chat forever).  Archived neighbours still count (their edges are kept), so
   archiving one memory never makes its neighbours look isolated: no cascade;
2. it is stale: not accessed (``last_access``, or ``created_at`` if never recalled) for more
   than ``stale_days`` days (default 30);
3. it is not pinned;
4. no live knowledge depends on it: it is not a source (``knowledge_sources``) of a
   knowledge item that is neither superseded nor archived.

Degrees are computed once per pass; since archived neighbours keep counting, a second pass
over an unchanged store archives nothing more.

**Archiving** sets ``archived_at`` and ``archive_reason`` (the numbers behind each condition)
and removes the episode from the engine's in-memory index: it leaves retrieval and the graph
view.  Its edges stay in the ``edges`` table, so :func:`restore` brings it back *with* them.
Archived episodes are browsed with ``store.list_episodes(only_archived=True)``.
**Purging** (:func:`purge`, ``hela-desktop forget --purge``, ``memories delete --for-good``,
Delete for good in the Archive tab) deletes archived and deleted episodes for good: foreign
keys cascade to their edges and provenance links, a distilled item left with no source
(unless the user wrote or edited it) goes too, and the keyword index and the write-ahead
log are rewritten so the words do not linger in the file (`Store.scrub`).

Every run that writes logs a summary to the ``activity`` table (job ``forget``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field

from . import formulas as F
from .backups import erase_in_backups
from .config import HelaParams
from .edges import effective_weights
from .facts import is_statement
from .prompt import shorten
from .store import Store, episode_text

JOB = "forget"
SECONDS_PER_DAY = 86400.0


@dataclass
class ForgettingParams:
    """Constants of the forgetting rule (see the module docstring)."""

    max_degree: float = 0.6  # archive only below this association degree A(v)
    stale_days: float = 30.0  # …and only when not accessed for longer than this
    # a memory in which the user stated something (a fact about them, not a request or small
    # talk) is kept much longer: an allergy mentioned once is not chatter
    fact_stale_days: float = 365.0
    max_per_pass: int | None = None  # cap on archives per pass (None: no cap)


@dataclass
class ForgettingReport:
    """What one pass archived (or would archive) and why, and what it kept."""

    dry_run: bool = False
    checked: int = 0
    archived: list[dict] = field(default_factory=list)  # {episode_id, reason, degree, idle_days, label}
    purged: list[int] = field(default_factory=list)
    purged_knowledge: list[int] = field(default_factory=list)  # distilled only from purged ones
    kept_pinned: int = 0
    kept_knowledge: int = 0
    kept_connected: int = 0
    kept_recent: int = 0
    yielded: bool = False
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> dict:
        d = self.to_dict()
        d["archived"] = [a["episode_id"] for a in self.archived]
        d["seconds"] = round(self.seconds, 3)
        return d


def _store_and_engine(engine_or_store):
    if isinstance(engine_or_store, Store):
        return engine_or_store, None
    return engine_or_store.store, engine_or_store


def connectivity(store: Store, hela: HelaParams) -> dict[int, float]:
    """The association degree A(v) of every episode (``formulas.beyond_chain``): its links to
    non-deleted episodes, each link to the turn right before or after it in its chat counted
    only for what it carries beyond the temporal prior.  Archived neighbours are included:
    their edges are kept, so archiving never makes a neighbour look isolated and forgetting
    does not cascade from pass to pass."""
    rows = store.all_edges(archived=True)
    if not rows:
        return {}
    chain = store.chat_chain()
    # a temporal link is there when the pair is next to each other in a chat and its prior
    # (the largest of its temporal, semantic and name priors) reaches the temporal prior
    temporal = hela.temporal_edge
    weights = F.beyond_chain(
        effective_weights(rows, store.hebbian_step(), hela.lam, hela.weight_cap),
        [temporal > 0 and r[3] >= temporal and (int(r[0]), int(r[1])) in chain for r in rows],
        temporal)
    deg: dict[int, float] = {}
    for r, w in zip(rows, weights, strict=True):
        for v in (int(r[0]), int(r[1])):
            deg[v] = deg.get(v, 0.0) + float(w)
    return deg


def knowledge_protected(store: Store) -> set[int]:
    """Episodes that live knowledge depends on (sources of non-superseded, non-archived items)."""
    return store.knowledge_protected()

def plan_forgetting(store: Store, hela: HelaParams, params: ForgettingParams | None = None,
                    *, now: float | None = None) -> ForgettingReport:
    """Apply the rule without writing: the report lists what would be archived and why."""
    p = params or ForgettingParams()
    now = time.time() if now is None else now
    deg = connectivity(store, hela)
    protected = knowledge_protected(store)
    rep = ForgettingReport(dry_run=True)
    rows = store.forgetting_candidates()
    for eid, pinned, seen_at, user_text, assistant_text in rows:
        rep.checked += 1
        d = float(deg.get(eid, 0.0))
        idle_days = max(0.0, (now - float(seen_at)) / SECONDS_PER_DAY)
        if pinned:
            rep.kept_pinned += 1
            continue
        if eid in protected:
            rep.kept_knowledge += 1
            continue
        if d >= p.max_degree:
            rep.kept_connected += 1
            continue
        stale = p.fact_stale_days if is_statement(user_text or "") else p.stale_days
        if idle_days <= stale:
            rep.kept_recent += 1
            continue
        if p.max_per_pass is not None and len(rep.archived) >= p.max_per_pass:
            break
        label = shorten(user_text or assistant_text or "", 60)  # (a word not cut: "…")
        reason = (f"association degree {d:.2f} < {p.max_degree:g}; not accessed for "
                  f"{_span(idle_days)} (more than {_span(stale)}); not pinned; no knowledge "
                  "depends on it")
        rep.archived.append(dict(episode_id=eid, reason=reason, degree=round(d, 4),
                                 idle_days=round(idle_days, 2), label=label))
    return rep


def _span(days: float) -> str:
    """A stretch of time in words: "90 days", "1 day", "5 hours", "under an hour" (QA pass
    35: "not accessed for 0 days (> 0)")."""
    if days >= 1:
        n = round(days)
        return f"{n} day{'s' if n != 1 else ''}"
    hours = int(days * 24)
    return f"{hours} hour{'s' if hours != 1 else ''}" if hours else "under an hour" \
        if days > 0 else "0 days"


def forget(engine_or_store, *, hela: HelaParams | None = None,
           params: ForgettingParams | None = None, dry_run: bool = False, purge: bool = False,
           now: float | None = None, store: Store | None = None,
           should_yield: Callable[[], bool] | None = None) -> ForgettingReport:
    """One forgetting pass: archive what the rule selects (one transaction), then log it.

    `engine_or_store`: a `MemoryEngine` (archived episodes also leave its in-memory index,
    so retrieval and the graph view drop them at once) or a bare `Store`.  `store`: the
    connection to write through (default: the engine's).  `purge`: afterwards delete *all*
    archived and deleted episodes for good (as `purge` does).  `dry_run`: write nothing, report what would happen.
    """
    t0 = time.perf_counter()
    st, engine = _store_and_engine(engine_or_store)
    store = store or st
    hela = hela or (engine.hela if engine is not None else HelaParams())
    rep = plan_forgetting(store, hela, params, now=now)
    rep.dry_run = dry_run
    if should_yield is not None and should_yield():
        rep.yielded = True
        rep.archived = []
        return rep
    ids = [a["episode_id"] for a in rep.archived]
    if purge:
        already = store.removed_ids()
        rep.purged = sorted(set(already) | set(ids))
    if dry_run:
        rep.seconds = time.perf_counter() - t0
        return rep
    at = time.time()
    with store.transaction():
        store.archive_episodes([(a["episode_id"], a["reason"]) for a in rep.archived], at)
        if purge and rep.purged:
            rep.purged_knowledge = store.purge_episodes(rep.purged)
        rep.seconds = time.perf_counter() - t0
        store.log_activity(JOB, rep.summary())
    if rep.purged:
        store.scrub()
    if engine is not None:
        with engine._lock:
            for eid in set(ids) | set(rep.purged):
                engine.index.remove(eid)
            engine._kw_cache.clear()
    return rep


def archived_episodes(store: Store, *, limit: int = 1000, offset: int = 0) -> list[dict]:
    """Archived episodes for a browser tab, newest archive first, with the reason why.

    Each: ``{"id", "text", "created_at", "archived_at", "reason", "edges"}`` (``edges``: how
    many edges wait in the table for a restore).
    """
    return [dict(id=r.id, text=episode_text(r.user_text, r.assistant_text),
                 created_at=r.created_at, archived_at=r.archived_at, reason=r.reason or "",
                 edges=r.edges) for r in store.archived_episodes(limit=limit, offset=offset)]


def purge(engine_or_store, ids: Iterable[int] | None = None, *, backups: bool = True
          ) -> list[int]:
    """Delete archived and deleted episodes for good (all of them, or those of `ids` that
    are archived or deleted; a live one is never touched: delete it first).

    Edges and provenance links go with them (foreign-key cascade), and so does a distilled
    item left with no source that the user did not write or edit; the keyword index and the
    write-ahead log are then rewritten without their words (`Store.scrub`), and they are
    erased from the automatic backups too (`backups.erase_in_backups`; ``backups=False``:
    the caller does that itself, e.g. on another thread).  Returns the episode ids
    deleted.
    """
    store, engine = _store_and_engine(engine_or_store)
    with store.transaction():
        todo = store.removed_ids(None if ids is None else [int(i) for i in ids])
        gone = store.purge_episodes(todo)
        store.log_activity(JOB, {"purged": todo, "purged_knowledge": gone})
    if todo:
        store.scrub()
        if backups:
            erase_in_backups(store.path)  # and from the automatic backups (`backups`)
    if engine is not None:
        with engine._lock:
            for eid in todo:
                engine.index.remove(eid)
    return todo


def restore(engine_or_store, ids: Iterable[int], *, now: float | None = None) -> list[int]:
    """Un-archive episodes: back in retrieval (if an engine is given) with all their edges,
    their last use as it was, and brought back `now` (by hand, a memory is needed: the
    next idle pass must not archive it again as stale; `Store.mark_restored`).

    Returns the ids that were archived and are now restored.
    """
    store, engine = _store_and_engine(engine_or_store)
    want = [int(i) for i in ids]
    archived = set(store.archived_ids(want))
    done = [i for i in want if i in archived]
    at = time.time() if now is None else now
    with store.transaction():
        store.unarchive_episodes(done)
        store.mark_restored(done, at)
        if done:
            store.log_activity(JOB, {"restored": done})
    if engine is not None and done:
        with engine._lock:
            reindex = getattr(engine, "_reindex_one", None)
            if reindex is None:
                engine.reload_index()
            else:
                for i in done:
                    reindex(i)
            engine._kw_cache.clear()
    return done
