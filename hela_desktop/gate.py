"""The relevance gate: which retrieved memories are good enough to show the model (Qt-free).

Retrieval ranks the whole pool; ranking alone always returns *something*, and a z-score
over a handful of memories says little.  Before memories enter the prompt (at the start of
an answer and at every swap) the gate asks, in absolute terms, whether each one is evidence
for this message:

1. **Evidence.**  A memory's plain similarity to the message must reach a bar
   (``formulas.evidence_bar``): a low floor for a question about the user's own life, a high
   one for a task or a general question (``facts.is_personal``), and never far below the best
   statement (or the best imported answer that may enter: with years of another assistant's
   chats imported, a weak "Advice please: a talk for work" does not come in beside the close
   "My sourdough starter smells like acetone" answer).  A memory whose user words only asked for something (``facts.is_statement``)
   never enters: shown as the user's words alone, "Can you recommend a podcast?" tells the
   model nothing.  A keyword shared with the message helps a little; a name shared with it
   ("Tell me about Pixel and Ana" and "My sister Ana lives in Lisbon") makes the message
   about that part of the user's life, so the memory needs only a personal question's bar.
   Zero memories is a normal outcome.
2. **Associations.**  A statement that shares a name (a person, place, pet or event) with an
   admitted memory may come in with it, even when it shares no words with the message: "the
   bride" finds "Tobias is getting married", and that one brings "Tobias's fiancée Lien does
   pottery".  An exchange imported from another assistant never comes in this way, only on
   its own evidence ("… (my sister asked me)" is in thousands of imported requests).
3. **Facts that change.**  Of two admitted statements about the same thing (they share a
   word of the message and are similar to each other) the newer wins: the older one is
   marked ``superseded_by`` and shown right after it as replaced ("older news, since
   replaced" in the prompt; the why-recalled panel says so), so nothing the newer one leaves
   unsaid is lost.  An exchange imported from another assistant is shown so without its
   answer: "How about Misty, Pebble or Luna?" is not news beside "We named the kitten
   Pebble", and the small model answered "Luna".  Two that share a name, or another word and that similarity, are both
   kept, the older one marked ``older_than`` ("older news") when the newer tells a change
   (`facts.tells_change`) or both say the kind of thing that changes (`facts.same_kind`:
   where someone lives, what they do, their age, when a plan is).
   An admitted statement also brings the newest later statement that corrects or updates
   it (`_newer_news`), when the message let in only the old one.  A question about the
   user as a whole ("What do you know about me?") brings the user's statements that matter
   most (`_about_you`): no one memory resembles it.
4. **Said again.**  Of two admitted memories that say the same (nearly the same words: the
   same request imported from two chats), only the newer is shown; this comes before the
   facts that change are weighed.

Every decision is written into the recall's ``extra`` (``gate``, ``bar``, ``similarity``,
``supersedes``, ``superseded_by``, ``older_than``, ``newer_than``, ``via_name``, ``named``).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

import numpy as np

from . import cautions, facts, kin, medicines, superseded, whom, your_own
from . import formulas as F
from . import superseded as STILL  # noqa: N812  (in `_place`, `superseded` is a list)
from .config import GateParams
from .events import Recall
from .recall_reasons import YOUR_OWN_GATE, explain  # noqa: F401  (explain: the gate's words)
from .store import AUTHORS

SAID_AGAIN_MIN = 0.95  # two memories this similar say the same thing: the newer is enough
# memories recalled for "What do you know about me?" (the cap then applies to a prompt; the
# app's own list shows them all: QA pass 32, 8 of 13 left out the husband's new job and
# the daughter)
ABOUT_YOU = 12
# … all of them when only this many more qualify: "These are 8 of the 9 things you have
# told me." left the husband out for one line (QA pass 31)
ABOUT_YOU_SLACK = 3
ABOUT_YOU_LOOK = 60  # … looked for among this many that matter most
CAUTIONS = 3  # for a message about food, the most statements of what must not be eaten
CAUTIONS_LOOK = 200  # … looked for among this many newest that hold a word of one
YOUR_OWN = 2  # for a question about the user's own home, job or age, the most statements
# of theirs that tell it (`_your_own`), looked for as the cautions are
_NOT_FAMILY = frozenset("boss manager roommate flatmate neighbour".split()) | {"best friend"}
_MINE = re.compile(r"\b(?:i|me|my|we|us|our)\b", re.IGNORECASE)
NEWER_LOOK = 12  # a statement let in: its nearest memories searched for newer news of it


def names_word(message: str, word: str) -> bool:
    """Does `message` say `word` ("ChatGPT", "Open WebUI"), as a whole word, in any case?"""
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", message, re.IGNORECASE) is not None


def similarity_of(r: Recall) -> float:
    """The plain cosine of a recall (every profile records it; dense: its score)."""
    v = r.extra.get("cos")
    return float(r.semantic if v is None else v)


@dataclass
class GateResult:
    admitted: list[Recall]
    held_back: list[Recall] = field(default_factory=list)  # with extra["gate"] = why
    superseded: list[Recall] = field(default_factory=list)  # also in `admitted`, marked
    personal: bool = False
    bar: float = 0.0
    # "What do you know about me?": the user's statements that qualified, listed or not
    # (None: more than the gate looks at, `ABOUT_YOU_LOOK`)
    about_you_total: int | None = 0


def of_family(text: str, engine=None) -> bool:
    """Does `text` tell of a relation of the user's family ("our son Sam", "my mum"; not
    "my friend Ola", "my boss")?  With `engine`, also of someone it names by name alone
    whom a memory tells as family ("Dev is coeliac, so no gluten for him." after "We have
    twin boys, Kiran and Dev, who are 7.": "Pasta ideas for the family tonight?" recalled
    nothing, pass 41b's persona)."""
    told = kin.kin(text)
    if told - _NOT_FAMILY or engine is None or told or _ROLE.search(text):
        return bool(told - _NOT_FAMILY)
    for p in engine.people_in(text):
        if p.startswith("my "):
            continue
        said = re.compile(rf"(?<!\w){re.escape(p)}(?!\w)", re.IGNORECASE)
        texts = engine.store.key_texts(engine.memories_naming(p, FAMILY_LOOK)).values()
        if any(kin.HAS_CHILDREN.search(t) or kin.kin(t) - _NOT_FAMILY and not _ROLE.search(t)
               for t in texts if said.search(t)):
            return True
    return False


_ROLE = re.compile(rf"\b(?:{'|'.join(sorted(kin.ROLES))})s?\b", re.IGNORECASE)
FAMILY_LOOK = 12  # the memories naming someone read for whether they are family


class RelevanceGate:
    """Applies `GateParams` to a ranking, with the engine for names, vectors and dates."""

    def __init__(self, engine, params: GateParams):
        self.engine = engine
        self.p = params

    def admit(self, message: str, ranked: list[Recall], query_vec: np.ndarray,
              *, exclude: AbstractSet[int] = frozenset()) -> GateResult:
        p = self.p
        cands = [r for r in ranked if r.kind == "episode" and r.episode_id not in exclude]
        if not p.enabled:
            return GateResult(admitted=cands)
        personal = facts.is_personal(message)
        qwords = set(facts.stems(message))
        qnames = self.engine.names_in(message) if p.names_personal else set()
        info = {}
        for r in cands:
            words = set(facts.stems(r.text))
            named = sorted(qnames & self.engine.names_in(r.text)) if qnames else []
            # a question the user asked another assistant, with its imported answer: part of
            # the user's history only for a message about the user's life or naming that
            # assistant ("What did ChatGPT say about…"); a task or a general question is
            # answered anew
            author = str(r.extra.get("answered_by") or "")
            history = bool(author) and (personal or bool(named) or names_word(message, author))
            # … and only then, even when its question holds a statement ("Write a script to
            # count words (I'm a beginner)" for the task "Write a script to count words")
            st = facts.is_statement(r.text) and (history or not author)
            info[r.episode_id] = (similarity_of(r), st, bool(qwords & words), named, history)
        # the best evidence the message has, an imported answer that may enter included: a
        # weak statement is not let in beside a close answer it is far behind
        best = max((s for s, st, _, _, h in info.values() if st or h), default=-1.0)
        # a message that only tells ("I work as a nurse at the city hospital.") asks for no
        # more than a reply: a memory must be about the same subject (`same_subject_min`);
        # at 0.15 "Ana's wedding" came in at 0.157 and the answer congratulated the user
        floor = max(p.personal_min, p.same_subject_min) if facts.only_tells(message) \
            else p.personal_min
        bar = F.evidence_bar(personal, best, floor, p.general_min, p.relative_margin)
        # a memory naming what the message names: the message is about that part of the
        # user's life, so it needs no more than a personal question's bar, within the
        # margin of the best memory naming the same (QA pass 28: "…plan a week of marathon
        # training around Joost's violin lessons and Samir's shifts?" let in only the
        # marathon, at 0.63, and held "My son Joost is 9 and he plays the violin." at 0.33)
        best_named: dict[str, float] = {}
        for s, st, _, named, _ in info.values():
            for n in named if st else ():
                best_named[n] = max(best_named.get(n, -1.0), s)
        # an imported question with its answer (`history`) is evidence about a subject, so
        # it needs a general question's bar
        topic_bar = F.evidence_bar(False, best, p.personal_min, p.general_min, p.relative_margin)
        admitted, held = [], []
        for r in cands:
            s, st, kw, named, history = info[r.episode_id]
            named_bar = min((F.named_bar(best_named[n], p.named_min, p.general_min,
                                         p.relative_margin) for n in named if n in best_named),
                            default=None)
            need = F.memory_bar(bar, st, kw, p.keyword_relief, named_bar, topic_bar if history
                                else None)
            r.extra.update(similarity=round(s, 4), bar=round(min(need, 9.0), 4),
                           statement=st, personal=personal)
            if named:
                r.extra["named"] = named
            if s >= need:
                r.extra["gate"] = "evidence"
                admitted.append(r)
            else:
                r.extra["gate"] = ("too weak" if math.isfinite(need)
                                   else "answered anew, not from another assistant's chats"
                                   if r.extra.get("answered_by")
                                   else "a request, not a statement")
                held.append(r)
        whole = facts.asks_about_whole_user(message)
        about_total: int | None = 0
        if whole:  # "What do you know about me?": what matters most first, then what
            # matched the words ("… about me and my dog")
            about, about_total = self._about_you(query_vec, set(exclude))
            first = {r.episode_id for r in about}
            admitted = about + [r for r in admitted if r.episode_id not in first]
            held = [r for r in held if r.episode_id not in first]
        elif cautions.asks_for_food(message) or your_own.asks_own(message):
            # what they must not eat, first of all; or what they told of their own home,
            # job or age ("What do I do for a living?", QA pass 40b)
            told = self._cautions(message, query_vec, set(exclude)) \
                if cautions.asks_for_food(message) else \
                self._your_own(your_own.asks_own(message), query_vec, set(exclude))
            first = {r.episode_id for r in told}
            admitted = told + [r for r in admitted if r.episode_id not in first]
            held = [r for r in held if r.episode_id not in first]
        # (not for the user as a whole: a name brought "My sister Ines has two cats." in
        # after a pinned memory of hers, ahead of every "I …", QA pass 27)
        assoc = [] if whole else self._associations(
            admitted, query_vec, set(exclude) | {r.episode_id for r in admitted})
        joined = {r.episode_id for r in assoc}
        held = [r for r in held if r.episode_id not in joined]
        # an association comes right after the memory that brought it: it is as relevant as
        # its source (the memory cap then cuts the weakest direct memories first)
        ordered: list[Recall] = []
        for r in admitted:
            ordered.append(r)
            ordered += [x for x in assoc if x.spread_from == r.episode_id]
        ordered = self._newer_news(ordered, query_vec, set(exclude) | joined
                                   | {r.episode_id for r in admitted})
        if whole:  # … less what a later statement corrects: not what is known now (QA
            # pass 25: two of five lines were older news; the job, dog and hobby missing)
            from .knowledge import corrections

            later = corrections(self.engine.store, [r.episode_id for r in ordered
                                                    if "rest_corrected_by" not in r.extra])
            for r in ordered:
                if r.episode_id in later:
                    r.extra["gate"] = (f"a later memory (#{later[r.episode_id]}) corrects it, "
                                       "and you asked what I know about you now")
            held += [r for r in ordered if r.episode_id in later]
            ordered = [r for r in ordered if r.episode_id not in later]
        held = [r for r in held if r.episode_id not in {x.episode_id for x in ordered}]
        admitted, repeated = self._said_again(ordered)
        kept, superseded = self._supersede(admitted, qwords)
        kept, outdated = self._outdated_answers(kept, qwords, message)
        return GateResult(kept, held + repeated + outdated, superseded, personal, bar,
                          about_you_total=about_total)

    # ---- the user as a whole ----------------------------------------------------------
    def _about_you(self, query_vec: np.ndarray, taken: set[int]
                   ) -> tuple[list[Recall], int | None]:
        """For a question about the user as a whole, which no one memory resembles ("What
        do you know about me?" recalled nothing, and the answer made a life up, QA pass
        23): the user's own statements that matter most — pinned, then by how much they
        speak of the user (`facts.self_rank`: "I work…", then "My dog…", then "My sister…",
        then others), then the most recalled, then the newest — up to `ABOUT_YOU`, less
        those a later statement of the user's corrects (`knowledge.corrections`; QA pass
        25: two of five lines were the old trip month and Tomas's old job).  A correction
        counts as in the first person when what it corrects is, and carries that memory's
        words (``corrects_said``): "Actually the trip is in June, not May." alone no longer
        said which trip, and three of five lines were about other people (QA pass 26;
        pass 27: "My sister Ines has two cats." came first and the dog was left out).
        Also how many statements qualified in all (None: the look reached its limit, so
        there may be more), so that the list can say it is not all (QA pass 27)."""
        from .knowledge import all_corrections, corrections  # (knowledge reads the gate's
        # settings)

        engine = self.engine
        out: list[Recall] = []
        kept = engine.store.most_kept(ABOUT_YOU_LOOK, skip_sources=AUTHORS)
        texts = {eid: text for eid, text, _ in kept}
        corrected = corrections(engine.store, list(texts))
        every = all_corrections(engine.store, list(corrected))  # (each its own part)
        fixes: dict[int, int] = {}  # a correction -> the first memory it corrects
        # (what it corrects itself first: "…back to 12 May after all." corrects 19 May, 50d)
        for old, news in sorted(every.items()):  # (each of several of one memory too)
            for new in news:
                fixes.setdefault(new, old)
        for old, new in sorted(corrected.items()):
            fixes.setdefault(new, old)

        def of_self(eid: int) -> int:  # (a correction: as what it corrects, if nearer)
            return min(facts.self_rank(texts[eid]),
                       facts.self_rank(texts[fixes[eid]]) if eid in fixes else 3)

        newer = {**engine.store.key_texts(
            (set(corrected.values()) | {b for bs in every.values() for b in bs}) - set(texts)),
            **texts}
        told: list[tuple[int, str, str]] = []  # (id, what is listed, all it said)
        pinned = {eid for eid, _, p in kept if p}
        for eid, text, _ in sorted(kept, key=lambda k: (not k[2], of_self(k[0]))):
            # of a memory corrected in part, the part still true (QA pass 30: "Hi! My name
            # is Ines. My brother Karel is a dentist…", pinned, went unlisted after
            # "Actually Karel is now a surgeon.", and the name with it)
            rest = superseded.still_true(text, [newer.get(b, "") for b in every.get(
                eid, [corrected[eid]])]) if eid in corrected else text
            # what it tells, not what it asks ("I am allergic to peanuts. What snack should
            # I bring…?": the allergy; "Forget the past.": nothing; QA pass 32b)
            rest = " ".join(facts.statements(rest))
            if eid not in taken and rest:
                told.append((eid, rest, text))
        total = len(told)
        room = total if total <= ABOUT_YOU + ABOUT_YOU_SLACK else ABOUT_YOU
        for eid, rest, text in told[:room]:  # (the others are counted, not listed)
            v = engine.vector(eid)
            sim = float(v @ query_vec) if v is not None else 0.0
            extra = {"cos": sim, "similarity": round(sim, 4), "gate": "about you",
                     "statement": True, "personal": True,
                     **({"pinned": True} if eid in pinned else {})}
            if eid in corrected:
                extra["rest_corrected_by"] = corrected[eid]
                extra["said_whole"] = text  # (whom "He is vegan…" is of)
            if eid in fixes:  # (what it corrects of that memory, not all it said)
                extra.update(corrects=fixes[eid],
                             corrects_said=superseded.on_subject(texts[fixes[eid]], text, shown=True))
            out.append(Recall(episode_id=eid, score=sim, text=rest, semantic=sim, extra=extra))
        return out, (None if len(kept) >= ABOUT_YOU_LOOK else total)

    # ---- what they must not eat ---------------------------------------------------------
    def _cautions(self, message: str, query_vec: np.ndarray, taken: set[int]) -> list[Recall]:
        """For a message about food or drink, the user's statements of what they, or whom
        the message names, must not eat or drink (`cautions`), or anyone of the family for
        "the family" (a relation of theirs: "our son Sam", not "my friend Ola"), newest
        first, up to `CAUTIONS` (QA pass 39: "Suggest a dinner for the family" recalled
        nothing, Ruby's shellfish allergy and Sam's diabetes told)."""
        engine = self.engine
        household = cautions.for_household(message)
        people = engine.people_in(message)
        mine = household or bool(_MINE.search(message)) and not people
        out: list[Recall] = []
        said = engine.store.said_after(0.0, skip_sources=AUTHORS, containing=cautions.CUES)

        def cautions_in(text: str, whose: str) -> bool:  # (`whose`: the words said whole)
            about = (engine.people_in(whose) if of_family(whose, engine) else set()) \
                if household else people
            whom = {n for p in about for n in (
                facts.kin_words(kin.KIN.get(p[3:], "")) if p.startswith("my ") else [p])}
            return bool(mine and cautions.caution_of(text)
                        or whom and cautions.caution_of_others(text, whom)[0])

        found: list[tuple[int, str]] = []
        now = time.time()
        for eid, text, when in said[::-1][:CAUTIONS_LOOK]:
            if eid not in taken and eid in engine.index.pos and cautions_in(
                    medicines.as_of(text, when, now), text):
                found.append((eid, text))
                if len(found) >= 2 * CAUTIONS:  # (room for those taken back, below)
                    break
        # (not one a later correction takes back: "My partner Sam is vegetarian." after
        # "…he's pescatarian now rather than vegetarian.", QA pass 46a)
        from .knowledge import all_corrections  # (knowledge reads the gate's settings)

        every = all_corrections(engine.store, [eid for eid, _ in found])
        news = engine.store.key_texts({b for bs in every.values() for b in bs})
        for eid, text in found:
            if eid in every and not cautions_in(superseded.still_true(text, [
                    news[b] for b in every[eid] if b in news]), text):
                continue
            v = engine.vector(eid)
            sim = float(v @ query_vec) if v is not None else 0.0
            out.append(Recall(episode_id=eid, score=sim, text=text, semantic=sim, extra={
                "cos": sim, "similarity": round(sim, 4), "statement": True, "personal": True,
                "gate": cautions.CAUTION_GATE}))
            if len(out) >= CAUTIONS:
                break
        return out

    # ---- the user's own home, job or age ------------------------------------------------
    def _your_own(self, kind: str, query_vec: np.ndarray, taken: set[int]) -> list[Recall]:
        """For a question about the user's own home, job or age (`your_own.asks_own`), the
        statements of their own that tell it (`your_own.tells_own`), newest first, up to
        `YOUR_OWN`: "What do I do for a living?" recalled a friend's job and not "Hi, I'm
        Elena Rossi, a primary school teacher in Leeds." (QA pass 40b).  A later one that
        corrects an earlier one is weighed against it as any two are (`_supersede`)."""
        engine = self.engine
        out: list[Recall] = []
        said = engine.store.said_after(0.0, skip_sources=AUTHORS, containing=your_own.CUES[kind])
        for eid, text, _ in said[::-1][:CAUTIONS_LOOK]:
            if eid in taken or eid not in engine.index.pos or not your_own.tells_own(text, kind):
                continue
            v = engine.vector(eid)
            sim = float(v @ query_vec) if v is not None else 0.0
            out.append(Recall(episode_id=eid, score=sim, text=text, semantic=sim, extra={
                "cos": sim, "similarity": round(sim, 4), "statement": True, "personal": True,
                "gate": YOUR_OWN_GATE}))
            if len(out) >= YOUR_OWN:
                break
        return out

    # ---- associations through a shared name -----------------------------------------
    def _associations(self, admitted: list[Recall], query_vec: np.ndarray,
                      taken: set[int]) -> list[Recall]:
        p = self.p
        if p.associations <= 0 or not admitted:
            return []
        engine = self.engine
        found: dict[int, tuple[float, int, str]] = {}
        shared: dict[int, set[str]] = {}
        for src in admitted:
            for name in sorted(engine.names_in(src.text)):
                for eid in engine.memories_naming(name):
                    if eid in taken or eid == src.episode_id or eid in found:
                        if eid in found:
                            shared.setdefault(eid, set()).add(name)
                        continue
                    vec = engine.vector(eid)
                    if vec is None:
                        continue
                    s = float(vec @ query_vec)
                    if s < p.association_min:
                        continue
                    shared.setdefault(eid, set()).add(name)
                    if eid not in found or s > found[eid][0]:
                        found[eid] = (s, src.episode_id, name)
        if not found:
            return []
        texts = engine.key_texts(list(found))
        # an exchange imported from another assistant comes on its own evidence only: a name
        # in its aside ("… (my sister asked me)") is not the user telling of that person,
        # and thousands of imported questions share one (0.06 similar, measured)
        imported = {i for i, src in engine.store.sources(list(found)).items() if src in AUTHORS}
        out = []
        # those of the best-ranked memory first, then most names in common (a closer
        # association), then the more similar
        rank = {r.episode_id: i for i, r in enumerate(admitted)}
        order = sorted(found.items(),
                       key=lambda kv: (rank[kv[1][1]], -len(shared[kv[0]]), -kv[1][0]))
        by_id = {r.episode_id: r.text for r in admitted}
        for eid, (s, src_id, name) in order:
            text = texts.get(eid, "")
            if eid in imported or not facts.is_statement(text) or name.startswith("my ") \
                    and self._other_by_name(by_id.get(src_id, ""), text):
                continue
            out.append(Recall(
                episode_id=eid, score=s, text=text, semantic=s, path="associative",
                spread_from=src_id,
                extra={"cos": s, "similarity": round(s, 4), "gate": "association",
                       "via_name": name, "via": src_id, "statement": True}))
            if len(out) >= p.associations:
                break
        return out

    # ---- facts that change -------------------------------------------------------------
    def _newer_news(self, ordered: list[Recall], query_vec: np.ndarray, taken: set[int]
                    ) -> list[Recall]:
        """A statement let in brings the newest later statement that updates it, right
        before it: one that says it corrects ("Actually my sister moved to Porto.") and
        shares a word with it, or one at least ``supersede_after_hours`` newer that shares a
        name or two words with it — each at least ``same_subject_min`` similar to it.
        Without it, a message that let in only the old fact ("My neighbour Koen has a
        boat" came in at 0.3007 with "My sister Ines lives in Lyon…", QA pass 23) showed
        the model the old value as the only one.  Facts that change (below) then mark the
        older one.  At most ``associations`` per turn; imported exchanges never come so."""
        p, engine = self.p, self.engine
        olds = [r for r in ordered if r.extra.get("statement")]
        if p.associations <= 0 or not olds:
            return ordered
        gap = p.supersede_after_hours * F.SECONDS_PER_HOUR
        vecs = {r.episode_id: engine.vector(r.episode_id) for r in olds}
        looked = [a for a, v in vecs.items() if v is not None]
        near: dict[int, list[int]] = {
            a: [eid for eid, c in found if c >= p.same_subject_min and eid != a and eid not in taken]
            for a, found in zip(looked, engine.most_similar_many([vecs[a] for a in looked],
                                                                 NEWER_LOOK), strict=True)}
        # (and the newest correction the store knows of each, however unlike it: "I got the
        # deputy head job at a school in York!" of "…a chemistry teacher…", QA pass 46c)
        from .knowledge import corrections  # (knowledge reads the gate's settings)

        fixed = {a: b for a, b in corrections(engine.store, [r.episode_id for r in olds]).items()
                 if b not in taken}
        # (of the same kind of thing of the same person only, `facts.changes_memory`: "Quit
        # the climbing gym job…" came to "What breathing condition do I have?" through "…my
        # asthma… when I'm climbing?", `bench personal`)
        said = engine.key_texts(set(fixed) | set(fixed.values())) if fixed else {}
        kept = {b for bs in engine.store.recorded_corrections().values() for b in bs}
        fixed = {a: b for a, b in fixed.items()
                 if facts.changes_memory(said.get(a, ""), said.get(b, "")) or b in kept}
        for a, b in fixed.items():
            near.setdefault(a, [])
            if b not in near[a]:
                near[a].append(b)
        ids = sorted({eid for v in near.values() for eid in v})
        if not ids:
            return ordered
        when = engine.created_at(ids + [r.episode_id for r in olds])
        texts = engine.key_texts(ids)
        imported = {i for i, src in engine.store.sources(ids).items() if src in AUTHORS}
        brought: dict[int, Recall] = {}  # the old memory's id -> its newer news
        for r in olds:
            a = r.episode_id
            words, names = set(facts.stems(r.text)), engine.names_in(r.text)
            best = None
            for b in near.get(a, []):
                text = texts.get(b, "")
                ago = when.get(b, 0.0) - when.get(a, 0.0)
                if (b in imported or ago <= 0 or b in {x.episode_id for x in brought.values()}
                        or not facts.is_statement(text)):
                    continue
                common = words & set(facts.stems(text))
                if not (fixed.get(a) == b or facts.corrects_memory(r.text, text) or (ago >= gap and (
                        len(common) >= 2 or names & engine.names_in(text)))):
                    continue
                if best is None or when[b] > when[best]:
                    best = b
            if best is not None:
                v = engine.vector(best)
                sim = float(v @ query_vec) if v is not None else 0.0
                extra = {"cos": sim, "similarity": round(sim, 4), "gate": "newer news",
                         "newer_than": a, "statement": True}
                if facts.corrects(texts.get(best, "")):  # (what a list of it quotes, QA
                    extra["corrects_said"] = r.text      # pass 27: "…, not Biscuit." alone)
                brought[a] = Recall(
                    episode_id=best, score=sim, text=texts.get(best, ""), semantic=sim,
                    path="associative", spread_from=a, extra=extra)
                if len(brought) >= p.associations:
                    break
        out: list[Recall] = []
        for r in ordered:
            if r.episode_id in brought:
                out.append(brought[r.episode_id])
            out.append(r)
        return out

    def _times_and_cosine(self, recalls: list[Recall]
                          ) -> tuple[dict[int, float], Callable[[int, int], float | None]]:
        """When each memory was made, and the cosine of two of them (None: no vector)."""
        engine = self.engine
        when = engine.created_at([r.episode_id for r in recalls])
        vecs = {r.episode_id: engine.vector(r.episode_id) for r in recalls}

        def cosine(a: int, b: int) -> float | None:
            va, vb = vecs[a], vecs[b]
            return None if va is None or vb is None else float(va @ vb)
        return when, cosine

    def _same_thing(self, recalls: list[Recall], qwords: set[str]
                    ) -> tuple[dict[int, float], Callable[..., tuple[bool, set[str]]]]:
        """When each memory was made, and a test of two of them: (similar, common words),
        similar meaning cos ≥ ``same_subject_min`` (`parts`: the things told of the older
        one, for a correction: the bar of `formulas.subject_bar`)."""
        when, cosine = self._times_and_cosine(recalls)
        words = {r.episode_id: set(facts.stems(r.text)) for r in recalls}

        def compare(a: int, b: int, parts: int = 1) -> tuple[bool, set[str]]:
            c = cosine(a, b)
            return (c is not None and c >= F.subject_bar(self.p.same_subject_min, parts),
                    words[a] & words[b])
        return when, compare

    def _outdated_answers(self, admitted: list[Recall], qwords: set[str], message: str = ""
                          ) -> tuple[list[Recall], list[Recall]]:
        """Another assistant's imported answer is left out when a statement of the user's,
        admitted too and at least ``supersede_after_hours`` newer, answers the message about
        as well on the same subject: similar to the imported question (cos ≥
        ``same_subject_min``), sharing a word with the message, and no more than
        ``relative_margin`` less similar to the message.  The user's newer words win over
        what an assistant said before ("suggest names for my puppy" → a list of names; later
        "my dog is called Pixel"), and an answer the user's words do not speak to stays
        ("what should I pack for Lisbon?" beside "my sister lives in Lisbon").  A message
        naming that assistant asks what it said ("What did ChatGPT suggest for my back
        pain?"): its answer stays, beside the user's newer words."""
        answers = [r for r in admitted
                   if r.extra.get("answered_by") and not r.extra.get("statement")
                   and not names_word(message, str(r.extra["answered_by"]))]
        stmts = [r for r in admitted if r.extra.get("statement")]
        if not answers or not stmts:
            return admitted, []
        when, compare = self._same_thing(answers + stmts, qwords)
        gap = self.p.supersede_after_hours * F.SECONDS_PER_HOUR
        said = {r.episode_id: set(facts.stems(r.text)) & qwords for r in stmts}
        out: list[Recall] = []
        for old in answers:
            for new in stmts:
                a, b = old.episode_id, new.episode_id
                if (when.get(b, 0.0) - when.get(a, 0.0) < gap or not said[b]
                        or similarity_of(new) < similarity_of(old) - self.p.relative_margin):
                    continue
                if compare(a, b)[0]:
                    old.extra["gate"] = f"your newer words in #{b} replace this answer"
                    out.append(old)
                    break
        gone = {r.episode_id for r in out}
        return [r for r in admitted if r.episode_id not in gone], out

    def _said_again(self, admitted: list[Recall]) -> tuple[list[Recall], list[Recall]]:
        """A memory that a newer admitted one says again (cos ≥ `SAID_AGAIN_MIN`: the same
        request imported from two chats, the same thing told twice) is left out before
        facts that change are weighed: it adds nothing and takes a line of the prompt, and
        shown as "older news, since replaced" beside a twin, an older answer to the same
        question would contradict the newer one for no gain."""
        if len(admitted) < 2:
            return admitted, []
        when, cosine = self._times_and_cosine(admitted)
        order = {r.episode_id: (when.get(r.episode_id, 0.0), r.episode_id) for r in admitted}
        gone: dict[int, int] = {}
        for old in admitted:
            a = old.episode_id
            for new in admitted:
                b = new.episode_id
                if b in gone or order[b] <= order[a]:
                    continue
                c = cosine(a, b)
                if c is not None and c >= SAID_AGAIN_MIN:
                    gone[a] = b
                    old.extra["gate"] = f"the newer memory #{b} says the same"
                    break
        return ([r for r in admitted if r.episode_id not in gone],
                [r for r in admitted if r.episode_id in gone])

    def _supersede(self, admitted: list[Recall], qwords: set[str]
                   ) -> tuple[list[Recall], list[Recall]]:
        p = self.p
        stmts = [r for r in admitted if r.extra.get("statement")]
        if len(stmts) < 2:
            return admitted, []
        when, compare = self._same_thing(stmts, qwords)
        names = {r.episode_id: self.engine.names_in(r.text) for r in stmts}
        named = {i: {facts.stem(n.lower()) for n in ns} for i, ns in names.items()}
        # (once a statement: a change told makes news of what it shares a subject with)
        tells = {r.episode_id: facts.tells_change(r.text) for r in stmts}
        gone: dict[int, int] = {}
        gap = p.supersede_after_hours * F.SECONDS_PER_HOUR
        # a statement that says it corrects ("Actually …, not a terrier") needs no gap:
        # only to come after
        corrected = {r.episode_id for r in stmts if facts.corrects(r.text)}
        kept = self.engine.store.recorded_corrections()
        fixes: dict[int, list[int]] = {}  # a memory -> the corrections of it admitted
        # (one listed for the part every correction of it leaves true: replaced by none)
        for old in [r for r in stmts if "rest_corrected_by" not in r.extra]:
            for new in stmts:
                a, b = old.episode_id, new.episode_id
                ago = when.get(b, 0.0) - when.get(a, 0.0)
                # (a statement of others is no news of another's: QA pass 34b, "Actually my
                # brother Tomas lives in Marseille…" replaced "My father Ignacio lives in
                # Valencia." for "Where does my father live?", by "live")
                if a == b or ago < gap and not (b in corrected and ago > 0) \
                        or _of_others(old.text, new.text):
                    continue
                similar, common = compare(a, b)
                # a word the message asks about, a name aside: "Felix" in the message made
                # every memory naming him the same thing (QA pass 33b)
                asked = common & qwords - named[a] - named[b] - superseded.UNIT_TERMS  # ("mg", 55f)
                if b in corrected and ago > 0:  # (or recorded: "…, back to 12 May after all")
                    linked = superseded.of_it_after(kept, a, b, old.text, new.text)
                    similar = compare(a, b, len(superseded.told_parts(old.text)))[0] or linked
                    # a correction replaces what it corrects (`facts.corrects_memory`: the same
                    # one's home, job or age, or a word it shares), whatever the message asks,
                    # or what shares a word the message asks about (`asked`), no plan's time
                    # of one that says none; nothing else (or "it" after: `of_it_after`)
                    # (QA 31b: "My mother moved to Bergen." marked all; not `puts_aside_else`)
                    if similar and (linked or facts.corrects_memory(old.text, new.text) or asked
                                    and not STILL.untimed(old.text, new.text)
                                    and not facts.puts_aside_else(old.text, new.text)):
                        fixes.setdefault(a, []).append(b)  # (each, for the doubt)
                    continue
                if similar and not STILL.untimed(old.text, new.text) and (asked or common & (
                        # the same thing the message asks about: a word of it, not only a name
                        # (QA pass 33b: "Felix turns ten…" replaced every memory naming Felix),
                        # unless the newer tells news; no plan's time of one that says none
                        qwords) and (tells[b] or facts.same_kind(old.text, new.text))):
                    if a not in gone or when[b] > when[gone[a]]:
                        gone[a] = b
                elif (similar and common or names[a] & names[b] and b not in corrected) \
                        and "older_than" not in old.extra and (
                            tells[b] or facts.same_kind(old.text, new.text)):
                    # related, newer news, of the same kind of thing or telling a change:
                    # marked, both shown; a correction marks only what it is about
                    # (`knowledge.corrections`' test: QA pass 26, "Actually Tomas quit his
                    # job…" made the trip with Tomas older news, and a move of Ines's her
                    # cats); a name or a word shared is not enough (QA pass 33: 5 of 12
                    # things listed about the user were "older news" of nothing, a wife's
                    # job after a race named her)
                    old.extra["older_than"] = b
        stored = self._stored_corrections(stmts, fixes, gone)
        said = {r.episode_id: r.text for r in stmts}
        for r in stmts:  # (news of a plan put back as it was: "Scratch that…, it's back on
            # Monday the 14th after all." makes the Monday memory true again, not older
            # news of the Wednesday it had moved to, QA pass 46c)
            news = fixes.get(r.episode_id, [])
            if any(facts.already_says(r.text, said[c]) for b in news for c in fixes.get(b, [])
                   if when.get(c, 0.0) > when.get(b, 0.0)):
                fixes.pop(r.episode_id, None)
                gone.pop(r.episode_id, None)
        for r in stmts:  # the newest correction replaces it; each is checked (QA pass 32:
            # a paragraph's haircut, dentist and home, each corrected)
            news = sorted(fixes.get(r.episode_id, []), key=lambda b: -when.get(b, 0.0))
            a = r.episode_id
            if news and (a not in gone or when[news[0]] > when[gone[a]]):
                gone[a] = news[0]
            # (and those this turn did not recall, the newest first: what still holds is
            # what every correction leaves, QA pass 45e: "…the rest still holds: “Our son
            # Karim is 6.”", "Karim turned 7 on Saturday." told but not recalled)
            also = news[1:] + [b for b in stored.get(a, []) if a in gone and b not in news
                               and b != gone.get(a)]
            if also:
                r.extra["corrected_also"] = also
        return self._place(admitted, gone, when)

    def _stored_corrections(self, stmts: list[Recall], fixes: dict[int, list[int]],
                            gone: dict[int, int]) -> dict[int, list[int]]:
        """Every correction the store knows of the admitted statements a correction or newer
        news replaces (`knowledge.all_corrections`, the newest first)."""
        from .knowledge import all_corrections  # (knowledge reads the gate's settings)

        ids = (set(fixes) | set(gone)) & {r.episode_id for r in stmts}
        return all_corrections(self.engine.store, ids) if ids else {}

    def _place(self, admitted: list[Recall], gone: dict[int, int], when: dict[int, float]
               ) -> tuple[list[Recall], list[Recall]]:
        """`_supersede`'s order: each memory replaced (`gone`: id -> the newer one) right
        after what replaced it, newer news before what it is newer than."""
        # the older memory stays in view, marked, right after the newer one that replaces it:
        # the newer wins, and nothing it leaves unsaid is lost ("same night" still needs…)
        superseded = [r for r in admitted if r.episode_id in gone]
        kept = [r for r in admitted if r.episode_id not in gone]
        for r in superseded:
            newer = gone[r.episode_id]
            r.extra["superseded_by"] = r.extra["older_than"] = newer
            if r.extra.get("answer"):  # what another assistant said to it is outdated too
                r.extra["answer"], r.extra["answer_replaced"] = "", True
            at = next((i for i, k in enumerate(kept) if k.episode_id == newer), None)
            also = [*self.engine.store.key_texts(set(ids)).values()] if (
                ids := r.extra.get("corrected_also")) else []
            r.extra.update(STILL.still_part(r.text, [] if at is None else [kept[at].text, *also]))
            if at is None:
                kept.append(r)
                continue
            kept[at].extra.setdefault("supersedes", []).append(r.episode_id)
            if r.extra.get("still_true"):
                kept[at].extra.setdefault("supersedes_in_part", []).append(r.episode_id)
            kept.insert(at + 1, r)
        # newer news comes before the older memory it is newer than, so the memory cap
        # never keeps the old value and cuts the new one ("What do you know about me?" kept
        # "… lives in Lyon", marked older, and cut "Actually my sister moved to Porto.")
        self._old_company(kept, when)
        for r in [r for r in kept if r.extra.get("older_than") is not None]:
            i = kept.index(r)
            j = next((k for k, x in enumerate(kept) if x.episode_id == r.extra["older_than"]), -1)
            if j > i:
                kept.insert(i, kept.pop(j))
        return kept, superseded

    def _other_by_name(self, a: str, b: str) -> bool:
        """Do `a` and `b` name different people of the user's by name, whatever relation
        they share ("Our daughter Meera is 6." and "Our daughter Ruby is 4…": two
        daughters; QA pass 39b, "Actually Meera is 7 now, not 6." made Ruby's allergy older
        news through "my daughter")?"""
        named = [{n for n in self.engine.people_in(t) if not n.startswith("my ")}
                 for t in (a, b)]
        return bool(named[0] and named[1] and not named[0] & named[1])

    def _old_company(self, kept: list[Recall], when: dict[int, float]) -> None:
        """A memory that came in through a name shared with one marked older news, and is
        itself older than that news, is older news too: it tells of the old state of the
        same thing.  ("Where does my sister live?": "… Ines lives in Lyon" was marked older
        than "Actually my sister moved to Porto", but "Ines sent me photos of the balcony
        garden at her flat.", which her name brought, came first and unmarked.)  Only a
        person's (or pet's) name makes such company: a place shared is no old state of one
        thing ("I'm Marta, … a civil engineer in Rotterdam." came in with the Rotterdam
        marathon's old month and was marked older news, QA pass 28).  Nor does news of a
        plan: "My daughter Lieke is 7 years old." is no old state of her orthodontist
        appointment, moved to Friday (QA pass 34)."""
        newer = {r.episode_id: r.extra["older_than"] for r in kept
                 if r.extra.get("older_than") is not None}
        texts = self.engine.store.key_texts(set(newer) | set(newer.values())) if newer else {}
        newer = {o: n for o, n in newer.items()
                 if not facts.news_of_plan(texts.get(o, ""), texts.get(n, ""))}
        fixed = {r.episode_id: set(r.extra.get("corrected_also") or ()) for r in kept}
        for r in kept:  # (statements all: `when` knows them)
            src = r.spread_from
            # (nor what itself corrects that memory: "Karim turned 7 on Saturday." came in
            # through "Our son Karim is 6 and allergic to sesame." and was marked older than
            # "…Karim has outgrown his sesame allergy.", QA pass 45e)
            if (r.extra.get("gate") != "association" or src is None or src not in newer
                    or "older_than" in r.extra or r.episode_id in fixed.get(src, ())):
                continue
            via = str(r.extra.get("via_name") or "")
            if not via or via not in self.engine.people_in(r.text):
                continue
            n = newer[src]
            # (not what tells another kind of thing: "My best friend Chloe is a vet." came
            # in through Chloe's old home and was marked older than her move, QA pass 40b)
            # (nor what is of someone the newer news does not name: "Chloe moved from
            # Cardiff to Bath…" came in through "Chloe's son Oscar is 4…" and was marked
            # older than "Actually Oscar is 5 now.", QA pass 41e)
            if r.episode_id != n and when.get(r.episode_id, 0.0) < when.get(n, 0.0) \
                    and not STILL.lasting(r.text, texts.get(n, "")) \
                    and not facts.of_another_kind(r.text, texts.get(n, ""), unsaid=True) \
                    and whom.same_one(via, texts.get(n, ""), texts.get(src, "")):
                r.extra["older_than"] = n


def _of_others(old: str, new: str) -> bool:
    """Do `old` and `new` each tell of relations of the user's, none the same ("my father …"
    and "my brother …", `facts.kin`; a name or a capitalised word is too loose a sign)?"""
    a, b = facts.kin(old), facts.kin(new)
    return bool(a and b and not a & b)
