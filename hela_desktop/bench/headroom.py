"""Where a learned graph could lift evidence, and how often its links point at it
(``hela-desktop bench headroom``; issue #16).

Edge spreading can only lift a memory that is linked to what the ranking already recalled,
and it helps only if those linked memories are evidence more often than the memories the
ranking would have put in next.  This module measures both on LoCoMo conversations, for the
prior edges (temporal adjacency, semantic prior, shared names) and for the learned edges of
each lived replay (`bench.lived`), with the ``hela-cold`` ranking and the per-question token
budget of ``bench locomo``:

- **missed**: evidence turns (as memories) the question's recalled set does not hold;
- **one link away**: those of them linked to a recalled memory (the most spreading could
  ever reach from the recalled set);
- **linked per question**: memories outside the recalled set linked to it;
- **evidence among linked**: the share of those linked memories that are evidence;
- **evidence next**: the same share among the `margin` memories the ranking puts right
  after the recalled set, split into linked and unlinked ones;
- **evidence in the tail**: the same share among the last `TAIL` memories of the recalled
  set, the ones a lifted memory would push out of the budget;
- **linked ≥ 3**: memories with at least `MANY` links into the recalled set, and the share
  of them that are evidence (the strongest consensus a graph can offer).

For spreading to pay, a lifted memory must be evidence more often than the one it displaces:
"evidence among linked" (or, at best, "linked ≥ 3") against "evidence in the tail";
"linked next" against "unlinked next" says what a link adds at equal rank.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from ..config import Settings
from ..memory import fit_budget
from ..store import Store
from . import lived
from . import locomo as L

GROUPS = ("multi-hop", "other")  # LoCoMo category 1; categories 2-4
PRIOR = "prior"  # the graph of structural links every store has
TAIL = 3  # the recalled memories a lifted one would displace: the last ones in
MANY = 3  # "linked ≥ 3": links into the recalled set


@dataclass
class LinkTally:
    """Sums over the questions of one group, for one graph."""

    questions: int = 0
    missed: int = 0
    one_link: int = 0
    linked: int = 0
    linked_evidence: int = 0
    next: int = 0
    next_evidence: int = 0
    next_linked: int = 0
    next_linked_evidence: int = 0
    tail: int = 0
    tail_evidence: int = 0
    many: int = 0
    many_evidence: int = 0

    def add(self, recalled: Sequence[int], following: Sequence[int], evidence: set[int],
            links: Mapping[int, int], margin: int) -> None:
        """One question: its `recalled` memories (in the order they went in), the ranking's
        `following` ones (best first, recalled ones left out), its `evidence` memories and
        the memories linked to the recalled set (outside it) with their number of links."""
        self.questions += 1
        linked = set(links)
        missed = evidence - set(recalled)
        self.missed += len(missed)
        self.one_link += len(missed & linked)
        self.linked += len(linked)
        self.linked_evidence += len(linked & evidence)
        nxt = list(following)[:margin]
        self.next += len(nxt)
        self.next_evidence += sum(1 for e in nxt if e in evidence)
        self.next_linked += sum(1 for e in nxt if e in linked)
        self.next_linked_evidence += sum(1 for e in nxt if e in linked and e in evidence)
        tail = list(recalled)[-TAIL:]
        self.tail += len(tail)
        self.tail_evidence += sum(1 for e in tail if e in evidence)
        many = {e for e, n in links.items() if n >= MANY}
        self.many += len(many)
        self.many_evidence += len(many & evidence)

    def summary(self) -> dict:
        """The sums, and the shares in percent (None where nothing was counted)."""
        def pct(a: int, b: int) -> float | None:
            return round(100.0 * a / b, 1) if b else None

        out: dict = asdict(self)
        out.update(
            one_link_pct=pct(self.one_link, self.missed),
            linked_per_question=round(self.linked / self.questions, 1) if self.questions
            else None,
            evidence_among_linked=pct(self.linked_evidence, self.linked),
            evidence_next=pct(self.next_evidence, self.next),
            evidence_next_linked=pct(self.next_linked_evidence, self.next_linked),
            evidence_next_unlinked=pct(self.next_evidence - self.next_linked_evidence,
                                       self.next - self.next_linked),
            evidence_in_tail=pct(self.tail_evidence, self.tail),
            evidence_among_many=pct(self.many_evidence, self.many),
        )
        return out


def linked_to(store: Store, recalled: Iterable[int], kind: str) -> Counter[int]:
    """The memories outside `recalled` that an edge joins to one of them, with how many of
    them it joins: by its prior (``kind`` = ``"prior"``) or by a learned (Hebbian) weight
    (``"learned"``)."""
    rec = set(recalled)
    out: Counter[int] = Counter()
    for r in store.edges_of(rec):
        if (r.prior if kind == PRIOR else r.weight) <= 0:
            continue
        for a, b in ((r.src, r.dst), (r.dst, r.src)):
            if a in rec and b not in rec:
                out[b] += 1
    return out


def replay_stats(store: Store, ids: Sequence[int], recalled_count: Sequence[int]) -> dict:
    """How much of the conversation the replay touched: the share of memories recalled at
    least once, and learned links per memory."""
    learned = sum(1 for r in store.all_edges() if r[2] > 0)
    n = max(len(ids), 1)
    return {"recalled_once_pct": round(100.0 * sum(1 for c in recalled_count if c > 0) / n, 1),
            "learned_links_per_memory": round(2.0 * learned / n, 1)}


def headroom(samples: Sequence[dict], *, embedder, settings: Settings | None = None,
             rules: Sequence[str] = (lived.DEFAULT_RULE, "hela-lived-indicator"),
             k: int = 10, margin: int = 10, workdir: Path | None = None) -> dict:
    """Per graph (``prior`` and each lived rule in `rules`) and group: the tallies above,
    summed over `samples`; plus, per rule, what its replay touched."""
    settings = settings or Settings()
    unknown = [r for r in rules if r not in lived.RULES]
    if unknown:
        raise ValueError(f"unknown lived rule(s) {', '.join(unknown)}; choose from "
                         f"{', '.join(lived.RULES)}")
    tallies = {g: {grp: LinkTally() for grp in GROUPS} for g in (PRIOR, *rules)}
    touched: dict[str, list[dict]] = {r: [] for r in rules}
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        for si, sample in enumerate(samples):
            conv = L.ingest(si, sample, Path(tmp), embedder, settings, ("hela-cold", *rules),
                            "turn", None, k)
            stores = {PRIOR: conv.base.store, **{r: conv.engines[r].store for r in rules}}
            for r in rules:
                eng = conv.engines[r]
                touched[r].append(replay_stats(eng.store, conv.ids,
                                                 eng.index.view("count").tolist()))
            _ask_all(conv, sample, embedder, stores, tallies, k, margin)
            for e in {id(e): e for e in [conv.base, *conv.engines.values()]}.values():
                e.store.close()
    return {
        "k": k, "margin": margin, "samples": [str(s.get("sample_id")) for s in samples],
        "graphs": {g: {grp: t.summary() for grp, t in by.items()} for g, by in tallies.items()},
        "replays": {r: _mean_stats(v) for r, v in touched.items()},
    }


def _mean_stats(rows: list[dict]) -> dict:
    return {key: round(sum(r[key] for r in rows) / len(rows), 1) for key in rows[0]} if rows \
        else {}


def _ask_all(conv: L.Conversation, sample: dict, emb, stores: dict[str, Store],
             tallies: dict[str, dict[str, LinkTally]], k: int, margin: int) -> None:
    """Every scored question of one conversation: the ``hela-cold`` recalled set within the
    dense budget, then each graph's links from it."""
    questions = [q for q in sample.get("qa", []) if int(q.get("category", 0)) in L.SCORED]
    vecs = emb.embed([str(q.get("question", "")) for q in questions]) if questions else []
    ep_of = {d: e for e, ds in conv.dia_of.items() for d in ds}
    for qi, (qa, qv) in enumerate(zip(questions, vecs, strict=True)):
        question = str(qa.get("question", ""))
        _, budget = L.question_budget(conv, question, qv, k)
        ranked = conv.base.retrieve(question, profile="hela", k=L.CANDIDATES,
                                    now=L.question_time(conv, qi), with_text=False)
        chosen = fit_budget(ranked, 10 ** 6, budget, lambda r: conv.cost[r.episode_id])
        recalled = [r.episode_id for r in chosen]
        inside = set(recalled)
        following = [r.episode_id for r in ranked if r.episode_id not in inside]
        evidence = {ep_of[d] for d in L.normalize_evidence(qa.get("evidence", [])) if d in ep_of}
        group = GROUPS[0] if int(qa.get("category", 0)) == 1 else GROUPS[1]
        for g, store in stores.items():
            links = linked_to(store, recalled, PRIOR if g == PRIOR else "learned")
            tallies[g][group].add(recalled, following, evidence, links, margin)


def markdown(res: dict) -> str:
    """The tallies as a table, one row per graph and group."""
    lines = [
        "## Where a learned graph could lift evidence (hela-cold recalled set, "
        f"k = {res['k']}, next {res['margin']}, tail {TAIL})", "",
        "| graph | group | questions | missed evidence | one link away | linked per question "
        f"| evidence among linked | linked ≥ {MANY}: evidence | evidence in the tail "
        "| evidence next | next, linked | next, unlinked |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]

    def f(x) -> str:
        return "—" if x is None else f"{x}"

    for g, by in res["graphs"].items():
        for grp, s in by.items():
            lines.append(
                f"| {g} | {grp} | {s['questions']} | {s['missed']} | {s['one_link']} "
                f"({f(s['one_link_pct'])} %) | {f(s['linked_per_question'])} | "
                f"{f(s['evidence_among_linked'])} % | {f(s['evidence_among_many'])} % "
                f"({s['many']}) | {f(s['evidence_in_tail'])} % | {f(s['evidence_next'])} % | "
                f"{f(s['evidence_next_linked'])} % | {f(s['evidence_next_unlinked'])} % |")
    if res["replays"]:
        lines += ["", "| lived rule | memories recalled at least once | learned links per memory |",
                  "|---|---|---|"]
        for r, s in res["replays"].items():
            lines.append(f"| {r} | {s.get('recalled_once_pct')} % | "
                         f"{s.get('learned_links_per_memory')} |")
    return "\n".join(lines) + "\n"
