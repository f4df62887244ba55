"""The swap policy: when a live re-retrieval changes a turn's memories, and how (Qt-free).

Every few generated tokens the turn re-retrieves from the recent output (`propose`, on the
retrieval thread).  A proposal becomes a `Swap` only when it pays (`plan_swap`):

* hysteresis: a newcomer must beat the memory it displaces by the swap margin, measured in
  the ranking's own score range (`score_range`), plus more the more the swap costs;
* a memory is only dropped when a newcomer takes its place, and a newcomer takes the place
  of the memory it displaces (the others keep theirs), so in splice mode its line is
  written into the old line's KV positions and the rest of the cache stays where it is
  (`place`: the longest newcomers first, each into the tightest place it fits);
* its price is the pause it causes, from the model's measured prefill and shift costs.

With prefetch on, the new lines are evaluated on the model's side context while the main
thread keeps generating.  The generation loops apply a swap (`swap_context` for the local
model; a new request for a server) and record it (`hela_desktop.turn.Turn.record_swap`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .events import Recall
from .kvcache import Prepared, common_prefix
from .memory import fit_budget

if TYPE_CHECKING:
    from .llm import LocalLLM
    from .turn import Turn

Spans = dict[int, tuple[int, int]]  # episode id -> [start, end) of its line in the context
MAX_SWAP_PAUSE_S = 0.5  # no swap that would pause an answer longer (unless budget 100)
LATE_TOKENS = 32  # a proposal is dropped when it comes more tokens than this (or than
# the lookback window) after it was asked for


@dataclass
class Swap:
    """A swap the policy wants: the new active set, its prompt and how to get there."""

    active: list[Recall]
    added: list[Recall]
    dropped: list[int]
    query_vec: np.ndarray
    retrieve_ms: float
    prompt: list[int]
    edits: list[tuple[int, int, list[int]]] | None  # in-place KV edits (splice mode)
    shift: bool  # the edits do not fit in place: the cache's tail moves
    seconds: float  # expected time, from the model's measured prefill and shift costs
    prepared: Prepared | None = None  # the new lines, already evaluated beside generation


@dataclass
class Proposal:
    """A re-retrieval's result: the ranking, the set it selects, its query and its time."""

    ranked: list[Recall]
    candidate: list[Recall]
    query_vec: np.ndarray
    retrieve_ms: float


def score_range(ranked: list[Recall]) -> float:
    """Best minus median score of a ranking: the scale swap gains are measured in, so the
    same margin works for every profile (z-scores, cos², similarities)."""
    scores = sorted((r.score for r in ranked if np.isfinite(r.score)), reverse=True)
    if len(scores) < 2:
        return 1.0
    return max(scores[0] - scores[len(scores) // 2], 1e-9)


def prefetching(turn: Turn) -> bool:
    """Whether swapped-in lines are evaluated beside generation (splice mode, prefetch on,
    and a memory block to splice into)."""
    s = turn.settings
    return s.swap_prefetch and s.swap_mode == "splice" and turn.frame is not None


def can_splice(turn: Turn, active: list[Recall]) -> bool:
    return turn.settings.swap_mode == "splice" and bool(active) and turn.llm.can_shift


def propose(turn: Turn, window: str, active: list[Recall], prompt: list[int],
            n_generated: int) -> Swap | None:
    """Re-retrieve from the recent output and plan a swap (runs on the retrieval thread).

    With prefetch on, the swap's new memory lines are evaluated here too, on the model's
    side context, while the main thread keeps generating.  Returns None when the active
    set should stay.
    """
    s, engine, abandon = turn.settings, turn.engine, turn.parts.abandon
    t = time.perf_counter()
    gen_vec = engine.embed_query(window)
    if abandon.is_set():
        return None
    b = s.blend_user_message
    q = (1.0 - b) * gen_vec + b * turn.user_vec
    q = (q / max(float(np.linalg.norm(q)), 1e-9)).astype(np.float32)
    ranked = engine.retrieve(f"{turn.asked} {window}", query_vec=q, now=turn.now)
    candidate = turn.select(ranked, q)
    ms = (time.perf_counter() - t) * 1000
    if abandon.is_set() or {r.episode_id for r in active} == {
            r.episode_id for r in candidate}:
        return None
    swap = plan_swap(turn, Proposal(ranked, candidate, q, ms), active, n_generated, prompt)
    if swap is not None and swap.edits is not None and prefetching(turn):
        _prefetch(turn, swap)
    return swap


def _prefetch(turn: Turn, swap: Swap) -> None:
    """Evaluate the swap's new lines on the side context (local model only)."""
    from .llm import LocalLLM

    llm = turn.llm
    if not isinstance(llm, LocalLLM) or swap.edits is None:
        return
    try:
        swap.prepared = llm.prepare(swap.edits, abort=turn.parts.abandon.is_set)
    except Exception:  # noqa: BLE001 - the swap can still be made on the main context
        swap.prepared = None
        llm.invalidate_side()
    if swap.prepared is not None:  # only copying cells is left for the main thread
        swap.seconds = llm.swap_seconds(0, swap.shift)


def _newcomers(turn: Turn, p: Proposal, active: list[Recall]
               ) -> tuple[list[Recall], list[int], dict[int, float], float]:
    """The newcomers that fit (memory cap, token budget) and beat the weakest memory they
    would displace by the margin; with the outgoing ids, the scores and the score range."""
    s = turn.settings
    old_ids = [r.episode_id for r in active]
    new_ids = {r.episode_id for r in p.candidate}
    score = {r.episode_id: r.score for r in p.ranked}
    outgoing = [i for i in old_ids if i not in new_ids]
    weakest_out = max((score.get(i, -np.inf) for i in outgoing), default=-np.inf)
    spread = score_range(p.ranked)
    incoming = [r for r in p.candidate if r.episode_id not in set(old_ids)
                and (r.score - weakest_out) / spread > s.swap_margin]
    keep = [r for r in active if r.episode_id in new_ids]
    budget_left = s.token_budget - sum(turn.memory_cost(r) for r in keep)
    room = s.max_memories - len(keep)
    added = []
    for r in incoming:
        c = turn.memory_cost(r)
        if room <= 0 or c > budget_left:
            continue
        r.tokens = c
        added.append(r)
        budget_left -= c
        room -= 1
    return added, outgoing, score, spread


def plan_swap(turn: Turn, p: Proposal, active: list[Recall], n_generated: int,
              current_prompt: list[int]) -> Swap | None:
    """Turn a proposal into a swap, or None to keep the current set (see the module)."""
    s = turn.settings
    added, outgoing, score, spread = _newcomers(turn, p, active)
    if not added:
        return None
    # a memory is only dropped when a newcomer takes its place
    dropped = sorted(outgoing, key=lambda i: score.get(i, 0.0))[: len(added)]
    gone = set(dropped)
    survivors = [r for r in active if r.episode_id not in gone]
    fitted = fit_budget(survivors + added, s.max_memories, s.token_budget, turn.memory_cost)
    added = [r for r in added if r in fitted]
    if not added:
        return None
    spans = line_spans(turn, active)
    splice = spans if spans is not None and can_splice(turn, active) else None
    where = place(turn, added, dropped, splice)
    new_active: list[Recall] = []
    for r in active:
        if r.episode_id not in gone:
            new_active.append(r)
        elif r.episode_id in where:
            new_active.append(where[r.episode_id])
    new_active += [r for r in added if r not in where.values()]
    prompt = turn.assemble(new_active)
    edits, shift, seconds, pause = _price(turn, active, added, dropped, where, splice, prompt,
                                          current_prompt, n_generated)
    # cost-aware: a swap's gain, in units of the ranking's score range, must pay for the
    # pause it causes, counted in prefill tokens (a cache shift as the tokens it takes as
    # long as)
    cost = pause / max(turn.llm.prefill_s_now(), 1e-6)
    if dropped:
        gain = (min(r.score for r in added)
                - max(score.get(i, -np.inf) for i in dropped)) / spread
        if gain <= s.swap_margin + s.swap_cost_weight * cost / 100.0:
            return None
    return Swap(new_active, added, dropped, p.query_vec, p.retrieve_ms, prompt, edits, shift,
                seconds)


def _price(turn: Turn, active: list[Recall], added: list[Recall], dropped: list[int],
           where: dict[int, Recall], spans: Spans | None, prompt: list[int],
           current_prompt: list[int], n_generated: int
           ) -> tuple[list[tuple[int, int, list[int]]] | None, bool, float, float]:
    """How to make the swap and what it costs: (edits, shift, seconds, pause).

    In splice mode each dropped line is replaced in place (its newcomer, or nothing) and
    the other newcomers are appended after the last line; otherwise the context is
    re-evaluated from the first changed token."""
    llm = turn.llm
    if spans is None:
        n_eval = len(prompt) - common_prefix(current_prompt, prompt) + n_generated
        seconds = n_eval * llm.prefill_s_now()
        return None, False, seconds, seconds
    edits = [(*spans[i], turn.line_tokens(where[i]) if i in where else []) for i in dropped]
    rest = [t for r in added if r not in where.values() for t in turn.line_tokens(r)]
    if rest:
        end = spans[active[-1].episode_id][1]
        edits.append((end, end, rest))
    shift = any(len(new) > llm.room(a, b) for a, b, new in edits)
    seconds = llm.swap_seconds(sum(len(new) for _, _, new in edits), shift)
    # prefetched, the answer only pauses to copy the cells in and re-run a token
    pause = llm.swap_seconds(0, shift) if prefetching(turn) else seconds
    return edits, shift, seconds, pause


def line_spans(turn: Turn, active: list[Recall]) -> Spans | None:
    """Where each memory line sits in the current context, as [start, end) indices."""
    if turn.frame is None or not active:
        return None
    spans, pos = {}, len(turn.frame[0])
    for r in active:
        n = len(turn.line_tokens(r))
        spans[r.episode_id] = (pos, pos + n)
        pos += n
    return spans


def place(turn: Turn, added: list[Recall], dropped: list[int],
          spans: Spans | None) -> dict[int, Recall]:
    """Which newcomer takes which dropped memory's place: in splice mode the longest
    newcomers first, each into the tightest place it fits without moving the cache."""
    free = list(dropped)
    if spans is None:
        return dict(zip(free, added, strict=False))
    where = {}
    for r in sorted(added, key=lambda r: -len(turn.line_tokens(r))):
        if not free:
            break
        need = len(turn.line_tokens(r))
        rooms = {i: turn.llm.room(*spans[i]) for i in free}
        fits = [i for i in free if rooms[i] >= need]
        best = (min(fits, key=rooms.__getitem__) if fits
                else max(free, key=rooms.__getitem__))
        where[best] = r
        free.remove(best)
    return where


# ---- when: re-retrieval, and what a turn records of a swap --------------------------------
def reretrieval_due(turn: Turn, n_generated: int) -> bool:
    every = turn.settings.reretrieve_every
    return (turn.pending is None and n_generated % every == 0
            and n_generated - turn.last_swap_at >= every)

def reretrieve(turn: Turn, window: str, n_generated: int) -> None:
    """Start a re-retrieval from the recent output (`propose`, on the retrieval
    thread); its proposal is taken by `take_proposal`."""
    from .swap import propose

    turn.parts.abandon.clear()
    turn.pending_at = n_generated
    turn.pending = turn.parts.pool.submit(propose, turn, window, list(turn.active),
                                          turn.prompt, n_generated)
    if not turn.settings.async_retrieval:
        turn.pending.result()

def take_proposal(turn: Turn, n_generated: int, *, late: bool = True,
                  max_pause: float | None = None) -> Swap | None:
    """The pending proposal, once it is ready, if it may still be made: not too late
    (`late`: a busy machine made it come a whole lookback window after it was asked
    for) and within the time budget (swaps may pause the answer for at most this share
    of the time spent generating it so far; `max_pause`: nor longer than that at once).
    """
    s = turn.settings
    if turn.pending is None or not (turn.pending.done() or not s.async_retrieval):
        return None
    swap, turn.pending = turn.pending.result(), None
    if swap is None:
        return None
    if late and n_generated - turn.pending_at > max(s.lookback_tokens, LATE_TOKENS):
        turn.state.late_swaps += 1  # the proposal (and its prefetch) came too late
        return None
    gen_s = time.perf_counter() - turn.t_gen0 - turn.swap_s
    if (turn.swap_s + swap.seconds > s.swap_time_budget * gen_s
            or (max_pause is not None and swap.seconds > max_pause
                and s.swap_time_budget < 100.0)):
        turn.state.deferred_swaps += 1
        return None
    return swap

def record_swap(turn: Turn, swap: Swap, n_generated: int) -> list[int]:
    """The turn now answers with the swap's memory set; returns its ids."""
    state = turn.state
    # what the layout promises: at most memory block + user message + generated tokens
    state.swap_bounds.append(len(swap.prompt) - state.stable_prefix + n_generated)
    state.swap_full.append(len(swap.prompt) + n_generated)
    turn.active, turn.prompt = swap.active, swap.prompt
    turn.swaps += 1
    for r in swap.added:
        turn.used.setdefault(r.episode_id, (r, swap.query_vec))
    ids = [r.episode_id for r in turn.active]
    turn.sets_seen.append(ids)
    turn.spans.append([n_generated, n_generated, ids])
    turn.last_swap_at = n_generated
    return ids

def record_pause(turn: Turn, n_eval: int, seconds: float, shifted: bool) -> None:
    """What a swap cost: tokens evaluated and the time the answer paused."""
    turn.swap_s += seconds
    turn.state.swap_prefill.append(n_eval)
    turn.state.swap_seconds.append(seconds)
    turn.state.swap_shifted.append(shifted)


def swap_context(llm: LocalLLM, swap: Swap, prompt: list[int], generated: list[int],
                 mirror: bool) -> int:
    """Bring the local model's context to the swap's memory set; returns tokens evaluated.

    ``exact``: re-evaluate from the first changed token (longest cached prefix kept):
    at most the memory block, the user message and the generated tokens.
    ``splice``: edit the KV cache in place — each new line is evaluated in the place
    of the line it replaces; tokens after it keep the context they were written in.
    `mirror`: the side context reloads after a re-evaluation (prefetch on).
    """
    target = swap.prompt + generated
    if swap.edits is not None and llm.cached_tokens == prompt + generated:
        n = llm.replace(swap.edits, swap.prepared)
        if llm.cached_tokens == target:
            return n
    n = llm.sync(target)
    if mirror:
        llm.mirror()
    return n


__all__ = ["Swap", "Proposal", "propose", "plan_swap", "place", "line_spans", "score_range",
           "swap_context", "prefetching", "can_splice", "reretrieval_due", "reretrieve",
           "take_proposal", "record_swap", "record_pause"]
