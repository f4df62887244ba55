"""One person's allergy or diet given to another in an answer (Qt-free).

QA pass 40d: "Noor has a sweet tooth and is allergic to eggs.", the egg allergy being
Zain's, had no line.  A sentence of an answer about one person of the user's life that
says they must not have something (`_STATES`: "allergic to eggs", "is coeliac") is
weighed against the cautions the user told (`cautions.caution_of_others`): none of theirs
says it, another's does → ``allergy_of`` (moved from `cautions` in 0.37, which had
reached the 800-line limit).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet

from . import facts
from .cautions import caution_of_others, their_avoided
from .food_groups import ASKS_ANTIBIOTIC
from .medicines import ILLNESSES
from .superseded import OTHER_CLAUSE

_NOT = re.compile(r"\b(?:not|no|never|without)\b|n['’]t\b", re.IGNORECASE)


# a question for whom a caution is of: "Which of them is allergic to eggs?", "Who is vegan?"
_WHO_IS = re.compile(r"^\s*(?:and\s+)?(?:which\s+(?:one\s+)?(?:of\s+(?:them|the\s+\w+)\s+)?|who\s+)"
                     r"(?P<claim>(?:is|are|has)\s+[^?]+)\?\s*$", re.IGNORECASE)


def as_claim(message: str, answer: str, names: Callable[[str], AbstractSet[str]]) -> str:
    """`answer` with what `message` asks whom it is of said of the one it names ("The answer
    is: Ffion." to "Which of them is allergic to eggs?" → "Ffion is allergic to eggs.": QA
    pass 53c, Dylan's allergy given to his sister had no line); else `answer`."""
    m = _WHO_IS.match(message)
    people = {n for n in names(answer) if not n.startswith("my ")} if m else set()
    who = re.search(rf"\b{re.escape(next(iter(people)))}\b", answer, re.IGNORECASE) \
        if m is not None and len(people) == 1 else None
    return f"{who.group(0)} {m.group('claim')}." if m is not None and who is not None else answer


def given_to_another(answer: str, mems: Iterable[tuple[int, str]],
                     names: Callable[[str], AbstractSet[str]]) -> dict | None:
    """``{"kind": "allergy_of", "name": "Noor", "said": "allergic to eggs", "of": "Zain",
    "memory": id, "quote": …}`` when a sentence of `answer` about one person of the user's
    life says they must not have what a memory of `mems` (id, words) says of another, and
    none says of them (QA pass 40d: "Noor has a sweet tooth and is allergic to eggs.", the
    egg allergy being Zain's, had no line); None otherwise."""
    mems = list(mems)
    # (each clause that opens with a name: "Kiran is coeliac and Dev is allergic to
    # peanuts.", the two swapped, QA pass 41c)
    for sentence in (c for s in facts.sentences(answer) for c in _NEXT_NAMED.split(s)):
        people = {n for n in names(sentence) if not n.startswith("my ")}
        claim = their_avoided(sentence)
        said = _STATES.search(sentence)
        if len(people) != 1 or not claim or not said:
            continue
        who = next(iter(people))
        # (a "no" before them answers the question, not the claim: "No, Hollie is allergic
        # to peanuts."; one after denies it: "Noor is not allergic to eggs.")
        named = [m.end() for m in re.finditer(rf"\b{re.escape(who)}\b", sentence[:said.start()],
                                              re.IGNORECASE)]
        if _NOT.search(sentence[named[-1] if named else 0:said.start()]):
            continue
        if any(_same(caution_of_others(t, {who})[0], claim) for _, t in mems):
            continue  # (theirs too)
        for eid, text in mems:
            for other in sorted({n for n in names(text) if not n.startswith("my ")} - people):
                if _same(caution_of_others(text, {other})[0], claim):
                    spelt = re.search(rf"\b{re.escape(who)}\b", sentence, re.IGNORECASE)
                    of = re.search(rf"\b{re.escape(other)}\b", text, re.IGNORECASE)
                    return {"kind": "allergy_of", "memory": int(eid), "quote": text,
                            "name": spelt.group(0) if spelt else who,
                            "of": of.group(0) if of else other,
                            "said": said.group(0).rstrip(" .,;!")}
    return _ill_of_another(answer, mems, names)


def _ill_of_another(answer: str, mems: list[tuple[int, str]],
                    names: Callable[[str], AbstractSet[str]]) -> dict | None:
    """The same for an illness (`medicines.ILLNESSES`): "Meera plays cricket, she's
    allergic to peanuts and has asthma." where "…and Kabir has asthma" was told (QA pass
    52a: no line), as ``{"kind": "allergy_of", "said": "has asthma", …}``."""
    last = ""
    for sentence in facts.sentences(answer):
        people = {n for n in names(sentence) if not n.startswith("my ")}
        who = next(iter(people)) if len(people) == 1 else "" if people else last
        last = who
        for m in _HAS_ILL.finditer(sentence):
            ill = ILLNESSES[m.group("ill").lower()]
            if not who or _NOT.search(sentence[:m.start()].rsplit(",", 1)[-1]) or any(
                    ill in _ills_of(t, who) for _, t in mems):
                continue
            for eid, text in mems:
                for other in sorted({n for n in names(text) if not n.startswith("my ")} - {who}):
                    if ill in _ills_of(text, other):
                        of = re.search(rf"\b{re.escape(other)}\b", text, re.IGNORECASE)
                        spelt = re.search(rf"\b{re.escape(who)}\b", answer, re.IGNORECASE)
                        return {"kind": "allergy_of", "memory": int(eid), "quote": text,
                                "name": spelt.group(0) if spelt else who,
                                "of": of.group(0) if of else other, "said": m.group(0).strip()}
    return None


def _ills_of(text: str, who: str) -> set[str]:
    """The illnesses `text` says `who` has: in a clause naming them, or going on about them
    with "she", "he" or "they" (`superseded.OTHER_CLAUSE`)."""
    named = re.compile(rf"(?<!\w){re.escape(who)}(?!\w)", re.IGNORECASE)
    out: set[str] = set()
    before = False
    for clause in (c for s in facts.sentences(text) for c in OTHER_CLAUSE.split(s)):
        before = bool(named.search(clause)) or before and bool(_GOES_ON.match(clause))
        if before:
            out |= {ILLNESSES[m.group(1).lower()] for m in _ILL.finditer(clause)}
    return out


_ILL_WORDS = "|".join(sorted(map(re.escape, ILLNESSES), key=len, reverse=True))
_ILL = re.compile(rf"\b({_ILL_WORDS})\b", re.IGNORECASE)
# what an answer says someone has: "has asthma", "is diabetic", "suffers from epilepsy"
_HAS_ILL = re.compile(rf"\b(?:has|have|had|with|suffers?\s+from|is|['’]s)\s+(?:got\s+)?(?:(?:type\s+"
                      rf"(?:[12]|one|two)|mild|severe|chronic)\s+)?(?P<ill>{_ILL_WORDS})\b",
                      re.IGNORECASE)
_GOES_ON = re.compile(r"\s*(?:and\s+)?(?:she|he|they)\b", re.IGNORECASE)


_NEXT_NAMED = re.compile(r"[,;]\s+(?=[A-Z])|\s+and\s+(?=[A-Z])")


def _same(told: frozenset[str], said: frozenset[str]) -> bool:
    """Do two cautions' words say much the same (half of the fewer shared: an egg allergy is
    no vegetarian diet for sharing "carbonara")?"""
    return bool(told and said) and 2 * len(told & said) >= min(len(told), len(said))


# what says someone must not have something, as an answer quotes it: "allergic to eggs",
# "is coeliac", "can't eat gluten"
_STATES = re.compile(r"\b(?:(?:severe(?:ly)?\s+|very\s+)?(?:allergic|allerg(?:y|ies))\s+to\s+"
                     r"(?:(?!(?:and|or|but|so|because|which|who|when|if|as)\b)\w+\b\s*){1,3}|"
                     r"(?:an?\s+)?(?:\w+\s+)?allergy\b|(?:coeliac|celiac|vegetarian|vegan|"
                     r"diabetic|lactose[- ]intolerant|gluten[- ]intolerant)\b|"
                     r"(?:can['’]?t|cannot|doesn['’]?t|does not|must not|mustn['’]?t)\s+"
                     r"(?:eat|have|drink)\s+\w+)", re.IGNORECASE)


def kind_said(caution, message: str) -> str:
    """The words of `caution` a line quotes for `message`: of a statement that tells several
    cautions, the sentences of the kind asked ("Oh and Im allergic to penicillin." for "what
    antibiotic should I avoid?", QA pass 52b: the line was cut before "penicillin")."""
    if not ASKS_ANTIBIOTIC.search(message):
        return caution.text
    return " ".join(s for s in facts.sentences(caution.text)
                    if re.search(r"penicillin|cillin\b|augmentin|tazocin", s, re.I)) or caution.text


__all__ = ["given_to_another", "kind_said"]
