"""The Hebbian graph as everyone reads it (Qt-free): effective weights, the merge rules,
degrees, and the one graph snapshot.

An edge stores a learned Hebbian ``weight`` (written at Hebbian step ``step``, decaying
lazily) and a structural ``prior`` (temporal adjacency, semantic prior, shared name; never
decays).  The weight in use is ``formulas.effective_weight``: min(cap, prior +
weight·(1-λ)^(steps since written)); this module is its one caller, for the engine
(spreading, the graph view), consolidation (hubs), forgetting (connectivity) and the view
(the graph before the engine is loaded).

:func:`graph_snapshot` builds :class:`GraphSnapshot` — nodes (episodes) and edges with
their effective weights and learned parts — in one place; each caller passes its own caps (node set, weight
cap, smallest edge kept).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from . import facts, language
from . import formulas as F
from .config import HelaParams
from .kin import KIN_WORDS
from .store import EdgeRow, Episode, Store
from .words import LIST_MARK, one_line, spelled_numbers

Edge = tuple[int, int, float]  # (src, dst, effective weight), src < dst


# ---------------------------------------------------------------- weights -----------
def effective_weights(rows: Sequence[Sequence], step: int, lam: float, cap: float
                      ) -> np.ndarray:
    """The effective weight of each stored edge `rows` ((src, dst, weight, prior, count,
    step, ...), e.g. `EdgeRow`) at Hebbian step `step`."""
    return edge_parts(rows, step, lam, cap)[0]


def edge_parts(rows: Sequence[Sequence], step: int, lam: float, cap: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """(effective weight, learned part) of each stored edge `rows` at Hebbian step `step`:
    the learned part is what the decayed Hebbian weight adds over the prior, after the cap
    (``formulas.learned_part``); the rest of the effective weight is the prior."""
    if not len(rows):
        return np.zeros(0, dtype=np.float64), np.zeros(0, dtype=np.float64)
    arr = np.asarray([(r[2], r[3], r[5]) for r in rows], dtype=np.float64)
    steps = step - arr[:, 2]
    return (F.effective_weight(arr[:, 0], arr[:, 1], steps, lam, cap),
            F.learned_part(arr[:, 0], arr[:, 1], steps, lam, cap))


def effective_weight(weight: float, prior: float, edge_step: int, step: int, lam: float,
                     cap: float) -> float:
    """The effective weight of one edge written at `edge_step`, read at `step`."""
    return float(F.effective_weight(weight, prior, step - edge_step, lam, cap))


# ---------------------------------------------------------------- merging -----------
def add_link(links: dict[tuple[int, int], float], a: int, b: int, prior: float) -> None:
    """Add a structural link a–b to `links` ((min, max) -> prior): a pair linked twice
    keeps the larger prior."""
    key = (min(a, b), max(a, b))
    links[key] = max(links.get(key, 0.0), prior)


def merge_edge(old: Sequence, new: Sequence, step: int, lam: float
               ) -> tuple[float, float, int, int, float]:
    """One edge known twice (a store's and an import's), as (weight, prior, count, step,
    updated_at): the Hebbian weight stronger at `step` (with the step it was written at),
    the larger prior, count and time.  The store's edge kept whole when it is the file's or
    a later state of it (written no earlier, used no less often, its prior no smaller: QA
    pass 35, an old export imported again made its links one step younger each time, the
    file's steps being moved to the store's clock)."""
    w_o, p_o, c_o, s_o, u_o = old
    w_n, p_n, c_n, s_n, u_n = new
    if u_o >= u_n and c_o >= c_n and p_o >= p_n:
        return (w_o, p_o, c_o, s_o, u_o)
    take_new = F.merge_learned(w_o, step - s_o, w_n, step - s_n, lam)
    w, s = (w_n, s_n) if take_new else (w_o, s_o)
    return (w, max(p_o, p_n), max(c_o, c_n), s, max(u_o, u_n))


def hebbian_rows(deltas: Mapping[tuple[int, int], float],
                 existing: Mapping[tuple[int, int], EdgeRow], step: int, now: float,
                 p: HelaParams) -> list[tuple[int, int, float, float, int, int, float]]:
    """The edge rows one Hebbian step writes: for every pair (a, b), a < b, with change Δ,
    w ← (1-λ)w + Δ (capped, never below 0), count + 1, written at `step`.  A new pair starts
    at Δ; a pair with Δ ≤ 0 and no edge yet writes nothing.  The app's rule is Δ = η for
    every pair of the co-activated set (:func:`coactive_deltas`)."""
    rows = []
    for (a, b), d in deltas.items():
        old = existing.get((a, b))
        if old is None:
            if d <= 0:
                continue
            w, prior, count = d, 0.0, 1
        else:
            w = F.hebbian_update(old.weight, p.lam, d, step - old.step, p.weight_cap)
            prior, count = old.prior, old.count + 1
        rows.append((a, b, w, prior, count, step, now))
    return rows


def coactive_deltas(active: Iterable[int], eta: float) -> dict[tuple[int, int], float]:
    """Δ = η for every pair (a, b), a < b, of the co-activated set."""
    ids = sorted(set(int(i) for i in active))
    return {(a, b): eta for a_i, a in enumerate(ids) for b in ids[a_i + 1:]}


# words that tell how something is said, not what: an answer saying "actually" uses no
# memory for it ("No, your trip to Japan in May is actually June." was listed as using
# "Actually Tomas quit his job…", QA pass 27)
# (and "news": "The above-mentioned news is not related…" used "Good news: Karim has
# outgrown his sesame allergy.", QA pass 45e)
TELLING_WORDS = frozenset("actually correction misspoke anymore instead really news".split())
# words too general for an answer that says one to have drawn on a memory that does (QA
# pass 33: "…were first created" used a climbing note's "her first try", and a wrong answer
# about a tortoise went without "it uses none of the memories")
GENERAL_WORDS = frozenset("""first last new old time times day days way thing things want
wants make made take lot little big best better love loved try tried help use used need
needs see look go going went come came say said tell told many called named morning
evening afternoon night week weeks month months""".split())


_NUMBER = re.compile(r"\d+")


def _content(text: str) -> set[str]:
    """Content words, and every number however short: "Joost is 9 years old." used "My
    son Joost is 9." (a keyword needs two characters; QA pass 28 saw that answer marked as
    using none of its memories)."""
    # ("may" in lower case is the verb, not the month: "…a steak pie may be…" used "My
    # dentist appointment is on 12 May.", QA pass 50b)
    # (a death in other words is the same word: "…your husband's death." used "My husband
    # Seamus passed away in 2019.", QA pass 51a)
    # (a relation in any of its words: "Your mother visits…" used "My mum Lakshmi … visits
    # on Sundays.", QA pass 55a: "it uses none of the memories")
    words = set(facts.keywords(re.sub(r"\bmay\b", " ", text)))
    # (and a number spelt out as its figure: "2 puffs" used "…two puffs before running",
    # QA pass 55e)
    return words | {facts.KIN[w] for w in words if w in facts.KIN} | set(
        _NUMBER.findall(text)) | spelled_numbers(text) | ({"died"} if _DEATH.search(text) else set())


_MINE = re.compile(r"\b(?:my|our)\b", re.IGNORECASE)
_DEATH = re.compile(r"\b(?:died|dies|death|passed\s+(?:away|on))\b", re.IGNORECASE)


def used_by_answer(memories: Iterable[tuple[int, str]], message: str, answer: str,
                   min_picked: int = 1) -> set[int]:
    """The memories (id, text) an answer drew on: it says at least `min_picked` content
    words of the memory that the message did not, in any form (`formulas.picked_up`), or the message
    restates the memory and the answer speaks of it (`formulas.restated`: a yes-or-no
    question about it).  What a turn *used*, not merely recalled: the app links these (and
    the new memory) after each answer, so two memories recalled together by chance are not
    linked.  `TELLING_WORDS` and `GENERAL_WORDS` are not the memory's content.  A question
    for a value ("Which city does my brother Jonas live in?") restates the memory that
    holds it but for the value: only an answer that says it used it (QA pass 34: "Your
    brother Jonas lives in Dresden." was said to use "My brother Jonas lives in
    Leipzig.")."""
    if not answer:
        return set()
    # (a list's own numbering is no number said: "1. Sunscreen" used "I have type 1
    # diabetes…", QA pass 46a)
    q, a = _content(message), _content(LIST_MARK.sub(" ", answer))
    said = {facts.stem(w) for w in q}  # ("lives" is the message's "live")
    # (a message that only tells restates what it corrects: an answer that echoes it used
    # nothing, QA pass 35b: "Actually the Krakow trip is in April, not March." said its
    # reply used "Our trip to Krakow is in March.")
    restating = not _asks_for_value(message) and not facts.only_tells(message)
    texts = {int(i): text for i, text in memories}
    words = [(i, _content(text) - TELLING_WORDS - GENERAL_WORDS) for i, text in texts.items()]
    out, by_shared, in_form, shared = set(), set(), set(), _stems(_shared(words))
    for i, m in words:
        qm = q | {w for w in m if facts.stem(w) in said} | _relation_of_named(texts[i], message)
        if _by_chance(texts[i], m, qm, a, answer, message):
            continue
        if F.picked_up(m, qm, a) >= min_picked or (restating and any(
                F.restated(p, qm, a) for p in _parts(texts[i], m))):
            out.add(i)
            # (only through a word most of them hold, "Lotte"?  In any form: "Saturdays")
            if F.picked_up(_stems(m) - shared, _stems(qm), _stems(a)) < min_picked:
                by_shared.add(i)
        elif F.picked_up(_stems(_long(m)), _stems(qm), _stems(_long(a))) >= min_picked:
            in_form.add(i)
    # a word most of the memories hold (the one they are all of, "Lotte") tells which
    # was used only when no other word does (QA pass 35: "Lotte is 7 years old." was said
    # to use "Lotte loves drawing horses." too); "Her name is Lotte." still uses them all
    if out - by_shared:
        return out - by_shared
    # no word as the memory says it: one in another form ("veterinary" of "veterinarian",
    # QA pass 35b) tells what it used
    return out or in_form


def _by_chance(text: str, m: set[str], q: set[str], a: set[str], answer: str,
               message: str) -> bool:
    """Does the answer share with the memory `text` (content words `m`) only one everyday
    word, the message nothing, and the memory names someone or somewhere the answer does
    not?  A word in common by chance, no use (QA pass 50: "…see a doctor if it persists."
    to a headache was said to use "My sister Ana is a doctor in Porto.")."""
    taken = (m & a) - q
    if len(taken) != 1 or m & q or not language.is_common_word(next(iter(taken))):
        return False
    # (not when the message asks of their own life: "What instrument is my kid learning?"
    # answered "…the trumpet." used "My daughter Kiana just picked up the trumpet…",
    # `bench personal`; "my visitor in May" and "…using a wheelchair…")
    if _MINE.search(message):
        return False
    named = set(facts._named(text))
    return bool(named) and not named & set(facts.stems(answer))


def _long(words: set[str]) -> set[str]:
    """The words of six letters or more: another form of a short word says little ("make"
    of "making", "help" of "helping": `bench personal` saw three answers that used nothing
    read as using memories through them)."""
    return {w for w in words if len(w) >= 6}


def _parts(text: str, m: set[str]) -> list[set[str]]:
    """The content words `m` of a memory, and of each of its sentences when it has several:
    a question may restate one of them ("Is Sam a vet?" of "I'm a developer at Ledgerly.
    My partner Sam is a vet.", QA pass 51b: "Sam is a vet." was said to use none)."""
    parts = facts.sentences(text)
    return [m] + ([_content(x) - TELLING_WORDS - GENERAL_WORDS for x in parts]
                  if len(parts) > 1 else [])


_RELATION_NAMED = re.compile(r"\b(?i:my|our)\s+((?i:[a-z-]+))\s+([A-Z][\w'’-]*)")


def _relation_of_named(text: str, message: str) -> set[str]:
    """The relation words `text` sets before a name the message says ("partner" of "My
    partner Sam…" to "Is Sam a vet?"): the message names that one too."""
    said = set(re.findall(r"[\w'’-]+", message))
    return {r.lower() for r, name in _RELATION_NAMED.findall(text)
            if name in said and r.lower() in KIN_WORDS}


def _stems(words: set[str]) -> set[str]:
    return {facts.stem(w) for w in words}


def _shared(words: list[tuple[int, set[str]]]) -> set[str]:
    """The words at least two of the memories hold, and at least half of them."""
    seen = Counter(w for _i, m in words for w in m)
    return {w for w, n in seen.items() if n >= max(2, (len(words) + 1) // 2)}


_FOR_VALUE = frozenset("what what's whats which where where's who who's whose when when's "
                       "how".split())


def _asks_for_value(message: str) -> bool:
    """Does a sentence of `message` ask for a value ("Which city…?", "Where does…?"), not
    for a yes or no ("Does Pixel like long walks?")?"""
    for s in facts.sentences(message):
        words = [w for w in re.findall(r"[a-z']+", s.lower().replace("’", "'"))
                 if w not in facts.LINK_WORDS]
        if s.rstrip().endswith("?") and words and words[0] in _FOR_VALUE:
            return True
    return False


# ---------------------------------------------------------------- the snapshot ------
@dataclass
class GraphNode:
    """An episode as the graph shows it."""

    id: int
    label: str
    text: str
    created_at: float
    access_count: int = 0
    last_access: float | None = None
    pinned: bool = False
    last_recall: dict | None = None
    kind: str = "episode"

    @classmethod
    def of(cls, e: Episode) -> GraphNode:
        label = one_line((e.user_text or e.assistant_text).strip())  # ("Felix — Felix…")
        return cls(id=e.id, label=label[:60], text=e.text, created_at=e.created_at,
                   access_count=e.access_count, last_access=e.last_access, pinned=e.pinned,
                   last_recall=e.last_recall)

    def as_dict(self) -> dict:
        return dict(vars(self))  # shallow, like the dicts the view always had


@dataclass
class GraphSnapshot:
    """Nodes and edges (with effective weights) of the graph at one moment.

    `learned`: the learned (Hebbian) part of an edge's effective weight, by (src, dst), for
    the edges that have one; the rest of each weight is its prior (semantic, name or
    temporal link made when a memory was written).
    """

    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    learned: dict[tuple[int, int], float] = field(default_factory=dict)

    def neighbours(self) -> dict[int, list[tuple[float, int]]]:
        """Episode id -> its neighbours as (weight, id), by falling weight (then id)."""
        nbrs: dict[int, list[tuple[float, int]]] = {}
        for a, b, w in self.edges:
            nbrs.setdefault(a, []).append((w, b))
            nbrs.setdefault(b, []).append((w, a))
        for lst in nbrs.values():
            lst.sort(key=lambda t: (-t[0], t[1]))
        return nbrs

    def degrees(self) -> tuple[dict[int, float], dict[int, list[tuple[float, int]]]]:
        """(weighted degree D(v) = Σ_j w_vj by episode id, `neighbours`)."""
        nbrs = self.neighbours()
        return {v: F.weighted_degree([w for w, _ in lst]) for v, lst in nbrs.items()}, nbrs

    def as_dict(self) -> dict:
        """``{"nodes": [node dicts], "edges": [(src, dst, weight)], "learned": {(src, dst):
        learned part}}``: what the view reads."""
        return {"nodes": [n.as_dict() for n in self.nodes], "edges": list(self.edges),
                "learned": dict(self.learned)}


def graph_snapshot(store: Store, *, lam: float, cap: float,
                   episodes: Iterable[Episode] | None = None,
                   edge_rows: Sequence[EdgeRow] | None = None,
                   min_weight: float | None = 0.0, step: int | None = None) -> GraphSnapshot:
    """The graph snapshot, built here for every reader.

    `episodes`: the nodes, in order (None: no nodes, and every edge of `edge_rows`); with
    nodes, only edges between them are kept.  `edge_rows`: the stored edges to read
    (default ``store.all_edges()``: between live episodes).  `lam`, `cap`: the decay per
    Hebbian step and the weight cap.  `min_weight`: edges at or below it are left out
    (None: keep all).  `step`: the Hebbian step to read at (default: the store's).
    """
    rows: Sequence[EdgeRow] = store.all_edges() if edge_rows is None else edge_rows
    nodes: list[GraphNode] = []
    if episodes is not None:
        nodes = [GraphNode.of(e) for e in episodes]
        ids = {n.id for n in nodes}
        rows = [r for r in rows if r[0] in ids and r[1] in ids]
    step = store.hebbian_step() if step is None else step
    weights, learned = edge_parts(rows, step, lam, cap)
    keep = [i for i, w in enumerate(weights) if min_weight is None or w > min_weight]
    edges = [(int(rows[i][0]), int(rows[i][1]), float(weights[i])) for i in keep]
    parts = {(int(rows[i][0]), int(rows[i][1])): float(learned[i]) for i in keep
             if learned[i] > 0}
    return GraphSnapshot(nodes, edges, parts)


def weighted_degrees(store: Store, hela: HelaParams, rows: Sequence[EdgeRow] | None = None
                     ) -> tuple[dict[int, float], dict[int, list[tuple[float, int]]]]:
    """D(v) = Σ_j w_vj over effective weights, for every episode with an edge.

    Returns (degree by episode id, neighbours by episode id as (weight, id) sorted by falling
    weight).  `rows`: the edges to count; default ``store.all_edges()``, the edges between
    live (not archived, not deleted) episodes.
    """
    return graph_snapshot(store, lam=hela.lam, cap=hela.weight_cap, edge_rows=rows).degrees()
