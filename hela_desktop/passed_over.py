"""An answer that passes over the one memory that speaks of what was asked (Qt-free).

"What does Lotte do on Saturday mornings?", with "Lotte takes swimming lessons every
Saturday morning." and "Lotte loves drawing horses." recalled, was answered "Lotte loves
drawing horses.": the only memory that says "Saturday" was left aside, another memory of
Lotte's answered instead, and the line under it listed that one as used (QA pass 35).

The rule, the same for any conversation: the words of the question that exactly one
recalled memory holds (not the ones several hold: "Lotte", the subject, is in all three)
point at that memory; an answer that says nothing of it beyond the question's own words,
and says what another recalled memory says, answered from the wrong one.
`doubt.answer_doubt` reads it as a doubt under the answer, for a question for something
the user told, and only when nothing else was found wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace

from . import facts
from .doses import dosed
from .events import Recall
from .older_news import yes_no_asks
from .timewords import DATE_NAME
from .your_own import asks_own, tells_own

_NOT_NAMES = frozenset(facts.stem(w) for w in facts.NOT_NAMES)  # ("Saturdays", "Mondays")
# how often, not what: "every" is no sign that the answer drew on "…every Saturday…"
_HOW_OFTEN = frozenset(facts.stems("every each all always often usually sometimes never"))
_WHO = frozenset(facts.stems(" ".join(facts.KIN_WORDS | facts.PETS)))
# words of a question that point at no memory: how it asks, not what about
_ASKING = frozenset(facts.stems("do does did what which who when where how why tell remind "
                                "know say said usual usually again call called name named"))


# a move tells where someone lives: "We moved from Bradford to Leeds…" speaks of "live"
# (pass 41b's persona: "Where did we live before?" answered "You lived in Bradford." was
# marked as answered from it instead of "My dad … lives in Leicester…")
_MOVES = frozenset(facts.stems("move moved moves moving relocated relocate home based"))
_LIVE = frozenset(facts.stems("live"))


def _with_home(terms: set[str]) -> set[str]:
    return terms | _LIVE if terms & _MOVES else terms


def passed_over(message: str, answer: str, mems: Sequence[Recall]) -> dict | None:
    """``{"kind": "passed_over", "asked": ["Saturday", "mornings"], "memory": id, "said":
    "Lotte takes swimming lessons…", "instead": id2, "other": "Lotte loves drawing horses."}``
    when the question's words that only one recalled memory holds are all that memory's,
    the answer says nothing of it beyond the question's words, and says something of
    another recalled memory's; None otherwise."""
    mems = [r for r in mems if r.text and r.kind == "episode"]
    if len(mems) < 2:
        return None
    got = _pointed(message, mems)
    if got is None:
        return None
    pointed, key, message_terms, held = got
    if _older(mems, pointed):
        return None  # (older news: the answer may rightly give the newer)
    # (the question's words in any form are not the answer's: "morning" for "mornings",
    # QA pass 35b, as `facts.stem` makes "morn" of one and "morni" of the other)
    said = {t for t in facts.terms(answer) - _HOW_OFTEN if not _near({t}, message_terms)}
    # (to a yes-or-no question, an answer that says the words pointing at the memory says
    # yes to it: "Is Fenris a springer spaniel?" → "Fenris is indeed a springer spaniel.",
    # QA pass 37b; to "What does Lotte do on Saturday mornings?" they answer nothing)
    if yes_no_asks(message) and all(_near({k}, facts.terms(answer)) for k in key):
        return None
    text = next(r.text for r in mems if r.episode_id == pointed)
    # (asked who, it names another's people and none of that memory's: "Who visits on
    # Sundays?" answered "…your friend, Tom, … still lives in Leicester.", the mum's
    # Leicester read as saying something of her, QA pass 55a: no line)
    named = facts.terms(answer) - _people(text)
    other = next((r for r in mems if r.episode_id != pointed and named & _people(r.text)), None) \
        if _ASKS_WHO.match(message) and named == facts.terms(answer) else None
    if other is None and (not said or _near(said, held[pointed])):
        return None  # it says something of that memory (or nothing at all)
    other = other or next((r for r in mems if r.episode_id != pointed
                           and said & held[r.episode_id]), None)
    if other is None:
        return None
    words = [w for w in dict.fromkeys(facts.NAME_WORD.findall(message))
             if facts.stem(w.lower()) in key]
    return {"kind": "passed_over", "asked": words, "memory": int(pointed), "said": text,
            "instead": int(other.episode_id), "other": other.text}


_ASKS_WHO = re.compile(r"\s*who\b", re.IGNORECASE)


def _people(text: str) -> set[str]:
    """Whom `text` names, as terms, with every word of a relation it names ("mum": "mother",
    "mom"…)."""
    whom = facts.who(text) - {facts.SELF}
    return {facts.stem(w) for w in whom | {k for w in whom if w in facts.KIN
                                           for k in facts.kin_words(facts.KIN[w])}}


def pointed_at(message: str, mems: Sequence[Recall]) -> Recall | None:
    """The one recalled statement, current (no older news), that the question's words point
    at: the words of it that only one of them holds are all that statement's (QA pass 51b:
    "When's my flight?" answered "It's Friday, June 23." read only "… in none of the
    memories it was given"; the line now says what was told, "the flight got moved to the
    20th")."""
    # (of one corrected in part, what still holds: "I take NovoRapid with meals, about 6
    # units." once the Lantus beside it went up, QA pass 54b)
    mems = [r if not _older(mems, r.episode_id) else replace(r, text=r.extra["still_true"])
            for r in mems if r.text and r.kind == "episode" and (
                not _older(mems, r.episode_id) or r.extra.get("still_true"))]
    got = _pointed(message, mems) if mems else None
    return next((r for r in mems if got and r.episode_id == got[0]), None)


def pointed_part(message: str, mems: Sequence[Recall]) -> tuple[int, str] | None:
    """(id, the sentences of it the question's words point at) of `pointed_at`'s memory:
    "I sold the car to a neighbour." of "I gave up driving last year, the eyes aren't what
    they were. I sold the car to a neighbour." to "Do I still have my car?"."""
    told = pointed_at(message, mems)
    if told is None:
        return None
    key = facts.terms(message)
    part = " ".join(s for s in facts.sentences(told.text) if facts.terms(s) & key)
    return told.episode_id, part or told.text


def naming_part(message: str, mems: Sequence[Recall]) -> tuple[int, str] | None:
    """(id, its sentences naming them) of the only current memory of `mems` that names whom
    the question names ("Who is Helen Carter?": "My boss is Helen Carter."; QA pass 53a, the
    line under "…a female character in the story" never said what was told); None when no
    memory, or more than one, does."""
    names = [w for w in re.findall(r"\b[A-Z][\w'’-]+", message)
             if facts.stem(w.lower()) not in _NOT_NAMES and w.lower() not in facts.STOPWORDS]
    if not names:
        return None
    said = [(r.episode_id, part) for r in mems if not _older(mems, r.episode_id)
            and (part := " ".join(s for s in facts.sentences(r.text) if any(
                re.search(rf"\b{re.escape(n)}\b", s) for n in names)))]
    return said[0] if len(said) == 1 else None


def own_told(message: str, mems: Sequence[Recall]) -> tuple[int, str] | None:
    """(id, the sentences that tell it) of the newest current memory telling the user's own
    home, job or age that `message` asks (`your_own`): "I'm 22" to "How old am I?" answered
    "23", QA pass 54b: the line never said what was told."""
    kind = asks_own(message)
    told = [(r.episode_id, " ".join(x for x in facts.sentences(r.text) if tells_own(x, kind)))
            for r in mems if not _older(mems, r.episode_id) if kind and tells_own(r.text, kind)]
    return told[0] if told else None


def dose_told(message: str, mems: Sequence[Recall], generic: AbstractSet[str]
              ) -> tuple[int, str] | None:
    """(id, its sentences giving a dose) of the current memory whose doses share the most
    words with `message` (`generic` aside): "I use a blue salbutamol inhaler, 100
    micrograms, two puffs…" to "How many puffs of the blue one should I take?" (QA pass
    54a), where "take" points at "I take metformin…" too."""
    asked = facts.terms(message) - generic
    told = [(len(facts.terms(d) & asked), r.episode_id, d) for r in mems
            if not _older(mems, r.episode_id) and (d := dosed(r.text))]
    best = max(told, default=None)
    return (best[1], best[2]) if best and best[0] else None


def days_told(named: tuple[int, str] | None, mems: Sequence[Recall]
               ) -> tuple[int, str] | None:
    """(id, its sentences that name a day or a month) of the memory `named` (`naming_part`)
    names, when it has any: "He goes to nursery on Mondays, Wednesdays and Fridays.", not
    "Our son Arjun is 3." beside it (QA pass 54a)."""
    text = next((r.text for r in mems if named and r.episode_id == named[0]), "")
    days = [x for x in facts.sentences(text) if DATE_NAME.search(x)]
    return (named[0], " ".join(days)) if named and days else named


def _older(mems: Sequence[Recall], i: int) -> bool:
    extra = next(r.extra for r in mems if r.episode_id == i)
    return extra.get("superseded_by") is not None or extra.get("older_than") is not None


def _pointed(message: str, mems: Sequence[Recall]
             ) -> tuple[int, set[str], set[str], dict[int, set[str]]] | None:
    """(the memory, the words pointing at it, the message's terms, each memory's terms)
    when the question's words that only one of `mems` holds are all that one's."""
    # (whom it asks about, "my daughter", "Lotte", points at no one memory of theirs)
    names = {facts.stem(w.lower()) for s in facts.sentences(message)
             for w in facts.NAME_WORD.findall(s)[1:]
             if w[:1].isupper() and facts.stem(w.lower()) not in _NOT_NAMES}
    # ("What do I do for a living?" asks for a job, not a home: QA pass 43)
    message_terms = facts.terms(re.sub(r"\bfor a living\b", "", message, flags=re.IGNORECASE))
    asked = message_terms - _ASKING - _WHO - names
    held = {r.episode_id: _with_home(facts.terms(r.text)) for r in mems}
    key = {t for t in asked if sum(t in h for h in held.values()) == 1}
    holders = {i for i, h in held.items() if key & h}
    if len(holders) != 1:
        return None  # (no word points at one memory, or they point at several)
    (pointed,) = holders
    if names and not names & held[pointed]:
        return None  # (of someone else: "Is Bill allergic…?" points at no one's allergy but
        # his, QA pass 36c: it pointed at "My best friend Anaïs is allergic to peanuts.")
    return pointed, key, message_terms, held


def _near(said: set[str], held: set[str]) -> bool:
    """Does the answer say a word of the memory, in any form: stems that begin alike count
    ("swims" and "swimming": `facts.stem` makes "swim" and "swimm")."""
    return bool(said & held) or any(len(a) >= 4 and len(b) >= 4 and a[:4] == b[:4]
                                    for a in said for b in held)


__all__ = ["days_told", "dose_told", "naming_part", "own_told", "passed_over", "pointed_at", "pointed_part"]
