"""Lived replay for ``bench locomo`` (issue #16): a conversation played turn by turn through
the app's own turn path, so the Hebbian graph forms as it would while a user talks.

Per turn t, with message x_t and the next turn of the same session x_{t+1} standing in for
the answer (no model is needed), the engine calls the Assistant makes per turn:

1. **Recall** (Assistant `_initial_recall`): `MemoryEngine.retrieve` with the ``hela``
   profile, the query vector = x_t's own embedding, at the turn's time; the relevance gate
   (`gate.RelevanceGate`); at most `max_memories` within `token_budget`
   (`memory.fit_budget`).  This is the co-active set A.
2. **Re-retrieval over what follows** (Assistant `_propose`): query text x_t + x_{t+1},
   vector = the normalised blend (1-b)·v(x_{t+1}) + b·v(x_t), the same gate and budget: set B.
3. **Store** x_t (`MemoryEngine.add_episode`, as `_persist` does after the answer).
4. **Learn** with the variant's rule (below), then `record_access` for A ∪ B.

The variants (each one row of the same run; ``hela-lived`` is the default rule):

- ``indicator`` — the published rule (the app's until 0.12): one step per distinct co-active
  set (A, then B when it differs), w ← (1-λ)w + η for every pair of the set.
- ``coact`` — one step over K = A ∪ B ∪ {x_t}: Δ_ij = η·a_i·a_j, a = the activation
  strength in the set (`formulas.activation_strength`; the turn itself has a = 1).
- ``used`` — the app's rule since 0.12: one step over U ∪ {x_t}, U = the memories of A ∪ B
  the next turn picks up (`formulas.picked_up` ≥ 1: it says a content word of the memory
  that x_t did not): Δ = η.
- ``pmi`` — as ``used``, Δ_ij = η·min(1, n̄/√(n_i·n_j)) (`formulas.pmi_delta`), n = how often
  each memory was active so far: hubs learn less.
- ``anti`` — as ``used``, and every other co-active pair is weakened by ρ·η
  (`formulas.unused_penalty`).
- ``star`` — as ``used``, but only the turn is linked to what it used (no links among the
  used memories themselves).
- ``used-oneshot`` — ``used`` with η = 1 (the weight cap): one co-use links fully.
- ``forget`` — ``used``, plus the app's idle forgetting pass (`forgetting.forget`) before
  every session after the first, at that session's time: archived memories leave retrieval,
  so what forgetting costs shows up as missed evidence.

A `Rule` may also carry its own η and λ (ablations).  `personal_probes` runs the same replay
on ``bench personal`` dialogues and scores their probes retrieval-only.

Questions are asked afterwards (by `locomo.run_locomo`) on the graph the conversation built;
a lived store does not learn from the questions, so every question sees the same graph.
Idle consolidation between sessions is not run (it needs a model); idle forgetting runs in
the ``forget`` variant only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from .. import forgetting
from .. import formulas as F
from ..config import Settings
from ..edges import used_by_answer
from ..events import Recall
from ..gate import RelevanceGate
from ..memory import MemoryEngine, NewEpisode, fit_budget
from ..store import Store, key_text

RHO = 0.5  # anti: an unused co-active pair loses ρ·η


@dataclass(frozen=True)
class Rule:
    """One learning-rule variant of the lived replay."""

    kind: str  # "indicator" | "coact" | "used" | "pmi" | "anti" | "star"
    eta: float | None = None  # None: the settings' η
    min_picked: int = 1  # used: the answer picks up at least this many of a memory's words
    lam: float | None = None  # None: the settings' λ (decay per Hebbian step)
    forget: bool = False  # an idle forgetting pass before each session after the first


RULES: dict[str, Rule] = {
    "hela-lived-indicator": Rule("indicator"),
    "hela-lived-coact": Rule("coact"),
    "hela-lived-used": Rule("used"),
    "hela-lived-pmi": Rule("pmi"),
    "hela-lived-anti": Rule("anti"),
    "hela-lived-star": Rule("star"),
    # one co-use links as strongly as an edge may be (η = the default weight cap, 1.0)
    "hela-lived-used-oneshot": Rule("used", eta=1.0),
    # the default rule, and the app's idle forgetting between sessions (what it costs)
    "hela-lived-forget": Rule("used", forget=True),
}
DEFAULT_RULE = "hela-lived-used"  # what ``hela-lived`` replays (see docs/benchmarks.md, #16)
LIVED = ("hela-lived", *RULES)


def rule_of(method: str) -> str:
    """The variant a lived method replays (``hela-lived`` is the default rule)."""
    return DEFAULT_RULE if method == "hela-lived" else method


def _pairs(ids: Sequence[int]) -> list[tuple[int, int]]:
    s = sorted(set(ids))
    return [(a, b) for i, a in enumerate(s) for b in s[i + 1:]]


def used_memories(active: Sequence[Recall], message: str, answer: str,
                  text_of: Callable[[int], str], min_picked: int = 1) -> set[int]:
    """The memories of `active` whose content the answer picks up (`edges.used_by_answer`,
    the app's own reading of what a turn used)."""
    return used_by_answer(((r.episode_id, text_of(r.episode_id)) for r in active),
                          message, answer, min_picked)


def rule_deltas(rule: Rule, eta: float, turn_id: int, active: Sequence[Recall],
                used: set[int], activity: Callable[[int], float], n_mean: float
                ) -> dict[tuple[int, int], float]:
    """Δ per pair for one turn under `rule` (not ``indicator``, which is the app's own path).

    `active`: A ∪ B (each memory once, best score kept); `used`: those the answer picked up;
    `activity(i)`: how often memory i was active before (the turn itself: 0).
    """
    out: dict[tuple[int, int], float] = {}
    if rule.kind == "coact":
        strength = dict(zip([r.episode_id for r in active],
                            F.activation_strength([r.score for r in active]), strict=True))
        strength[turn_id] = 1.0
        for a, b in _pairs(list(strength)):
            out[(a, b)] = F.coactivation_delta(strength[a], strength[b], eta)
        return out
    together = used | {turn_id}
    pairs = ([(min(turn_id, u), max(turn_id, u)) for u in sorted(used)] if rule.kind == "star"
             else _pairs(list(together)))
    for a, b in pairs:
        if rule.kind == "pmi":
            out[(a, b)] = F.pmi_delta(eta, activity(a) + 1, activity(b) + 1, n_mean)
        else:
            out[(a, b)] = eta
    if rule.kind == "anti":
        for pair in _pairs([r.episode_id for r in active] + [turn_id]):
            out.setdefault(pair, F.unused_penalty(eta, RHO))
    return out


def _merge(a: list[Recall], b: list[Recall]) -> list[Recall]:
    best: dict[int, Recall] = {}
    for r in a + b:
        if r.episode_id not in best or r.score > best[r.episode_id].score:
            best[r.episode_id] = r
    return list(best.values())


def select(gate: RelevanceGate, settings: Settings, message: str, ranked: list[Recall],
           qv: np.ndarray, cost: Callable[[str], int]) -> list[Recall]:
    """What the app puts in the prompt (Assistant `_select`): the memories the relevance gate
    admits, in rank order, at most `max_memories` within `token_budget`."""
    admitted = gate.admit(message, ranked, qv).admitted
    return fit_budget(admitted, settings.max_memories, settings.token_budget,
                      lambda r: cost(r.text))


class LivedReplay:
    """Plays episodes into `engine` one turn at a time, learning with `rule`."""

    def __init__(self, engine: MemoryEngine, rule: Rule, settings: Settings,
                 cost: Callable[[str], int]):
        self.engine = engine
        self.rule = rule
        self.settings = settings
        self.cost = cost
        self.gate = RelevanceGate(engine, settings.gate)
        self.texts: dict[int, str] = {}
        self.turns = self.updates = self.used = self.archived = 0

    def _select(self, message: str, ranked: list[Recall], qv: np.ndarray) -> list[Recall]:
        return select(self.gate, self.settings, message, ranked, qv, self.cost)

    def _recall(self, message: str, answer: str, vec: np.ndarray, ans_vec: np.ndarray | None,
                at: float) -> tuple[list[Recall], list[Recall], np.ndarray | None]:
        eng = self.engine
        first = self._select(message, eng.retrieve(message, profile="hela", query_vec=vec,
                                                   now=at), vec)
        if ans_vec is None:
            return first, [], None
        b = self.settings.blend_user_message
        q = (1.0 - b) * ans_vec + b * vec
        q = (q / max(float(np.linalg.norm(q)), 1e-9)).astype(np.float32)
        second = self._select(message, eng.retrieve(f"{message} {answer}", profile="hela",
                                                    query_vec=q, now=at), q)
        return first, second, q

    def play(self, episodes: Sequence[NewEpisode]) -> list[int]:
        """Replay `episodes` (with embeddings) in order; returns their ids."""
        ids: list[int] = []
        for i, ep in enumerate(episodes):
            if self.rule.forget and i and ep.conversation_id != episodes[i - 1].conversation_id:
                self.forget(float(ep.created_at or 0.0))
            nxt = episodes[i + 1] if i + 1 < len(episodes) else None
            if nxt is not None and nxt.conversation_id != ep.conversation_id:
                nxt = None  # the session ended: no answer follows
            ids.append(self.turn(ep, nxt))
        return ids

    def forget(self, at: float) -> None:
        """The app's idle forgetting pass (`forgetting.forget`, default rule) at time `at`,
        as the scheduler runs it while the app sits idle between sessions."""
        self.archived += len(forgetting.forget(self.engine, now=at).archived)

    def turn(self, ep: NewEpisode, nxt: NewEpisode | None) -> int:
        """One turn: recall, re-retrieval over the answer, store, learn, record access."""
        eng = self.engine
        at = float(ep.created_at or 0.0)
        vec = np.asarray(ep.embedding, dtype=np.float32)
        answer = nxt.user_text if nxt is not None else ""
        ans_vec = None if nxt is None else np.asarray(nxt.embedding, dtype=np.float32)
        first, second, q2 = self._recall(ep.user_text, answer, vec, ans_vec, at)
        eid = eng.add_episode(ep)
        self.texts[eid] = ep.user_text
        active = _merge(first, second)
        used = used_memories(active, ep.user_text, answer, lambda e: self.texts.get(e, ""),
                             self.rule.min_picked)
        self.turns += 1
        self.used += len(used)
        eta = self.settings.hela.eta if self.rule.eta is None else self.rule.eta
        if self.rule.kind == "indicator":  # the published rule: a step per distinct set
            seen: set[tuple[int, ...]] = set()
            for s in (first, second):
                key = tuple(sorted(r.episode_id for r in s))
                if len(key) >= 2 and key not in seen:
                    seen.add(key)
                    eng.hebbian_update(key, now=at, deltas=dict.fromkeys(_pairs(key), eta))
                    self.updates += 1
        else:
            counts = eng.index.view("count")
            n_mean = float(counts[counts > 0].mean()) if (counts > 0).any() else 1.0

            def activity(e: int) -> float:
                row = eng.index.pos.get(e)
                return float(counts[row]) if row is not None else 0.0

            deltas = rule_deltas(self.rule, eta, eid, active, used, activity, n_mean)
            eng.hebbian_update((), now=at, deltas=deltas)
            self.updates += 1
        eng.record_access(first, vec, now=at)
        if q2 is not None:
            eng.record_access(second, q2, now=at)
        return eid


def with_conversations(store: Store, sid: str, eps: Sequence[tuple[int, NewEpisode]]
                       ) -> list[NewEpisode]:
    """One conversation row per session in `store`; the episodes pointing at theirs."""
    conv_ids: dict[int, int] = {}
    for session, e in eps:
        if session not in conv_ids:
            conv_ids[session] = store.add_conversation(f"{sid} session {session}",
                                                       at=e.created_at)
    return [replace(e, conversation_id=conv_ids[s]) for s, e in eps]


def replay_methods(methods: Sequence[str], ids: Sequence[int], sid: str,
                   eps: Sequence[tuple[int, NewEpisode]], emb, settings: Settings,
                   path_of: Callable[[str], Path]) -> dict[str, MemoryEngine]:
    """An engine per lived method of `methods`, each rule replayed once into its own store
    (``hela-lived`` shares its rule's); `ids` are the ids the base store gave the episodes."""
    vecs = dict(zip(ids, emb.embed([key_text(e.user_text) for _, e in eps]), strict=True))
    out: dict[str, MemoryEngine] = {}
    for m in methods:
        if m not in LIVED:
            continue
        rule = rule_of(m)
        if rule not in out:
            lam = RULES[rule].lam
            own = settings if lam is None else replace(settings, hela=replace(settings.hela,
                                                                              lam=lam))
            eng = MemoryEngine(Store(path_of(rule)), emb, own)
            episodes = [replace(e, embedding=vecs[i]) for i, e in
                        zip(ids, with_conversations(eng.store, sid, eps), strict=True)]
            if LivedReplay(eng, RULES[rule], own, emb.count_tokens).play(episodes) != list(ids):
                raise RuntimeError("a lived replay stored its turns under other ids")
            out[rule] = eng
        out[m] = out[rule]
    return out


def personal_probes(dialogues: Sequence[dict], embedder, settings: Settings | None = None,
                    methods: Sequence[str] = ("hela-cold", "hela-lived"),
                    workdir: Path | None = None) -> dict[str, dict[str, dict]]:
    """Retrieval-only probes of ``bench personal`` dialogues (no model): per method and probe
    kind, how many probes had every evidence turn among the memories the app would put in
    the prompt (`select`), asked a week after the last session.  ``hela-cold`` stores the
    user's turns as they are; each ``hela-lived*`` method replays them (the next user turn
    of the session stands in for the answer)."""
    import tempfile

    from .personal import PROBE_DELAY, TURN_GAP, _timestamp

    settings = settings or Settings()
    out: dict[str, dict[str, dict]] = {m: {} for m in methods}
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        for n, d in enumerate(dialogues):
            eps: list[tuple[int, NewEpisode]] = []
            where: dict[tuple[int, int], int] = {}
            for si, sess in enumerate(d["sessions"]):
                t0 = _timestamp(sess["date"], str(d.get("id")))
                for ti, text in enumerate(sess["turns"]):
                    where[(si, ti)] = len(eps)
                    eps.append((si, NewEpisode(text, "", created_at=t0 + ti * TURN_GAP)))
            cold = MemoryEngine(Store(Path(tmp) / f"{n}-cold.sqlite3"), embedder, settings)
            ids = cold.add_episodes(with_conversations(cold.store, str(n), eps))
            def path_of(rule: str, n: int = n) -> Path:
                return Path(tmp) / f"{n}-{rule}.sqlite3"

            engines = {"hela-cold": cold, **replay_methods(methods, ids, str(n), eps, embedder,
                                                           settings, path_of)}
            t_probe = max(float(e.created_at or 0.0) for _, e in eps) + PROBE_DELAY
            for p in d["probes"]:
                if not p.get("evidence"):
                    continue
                want = {ids[where[(si, ti)]] for si, ti in p["evidence"]}
                qv = embedder.embed_one(p["ask"])
                for m in methods:
                    eng = engines[m]
                    got = select(RelevanceGate(eng, settings.gate), settings, p["ask"],
                                 eng.retrieve(p["ask"], query_vec=qv, now=t_probe), qv,
                                 embedder.count_tokens)
                    row = out[m].setdefault(p["kind"], {"n": 0, "in_prompt": 0})
                    row["n"] += 1
                    row["in_prompt"] += int(want <= {r.episode_id for r in got})
            for e in {id(e): e for e in engines.values()}.values():
                e.store.close()
    return out

