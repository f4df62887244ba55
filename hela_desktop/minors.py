"""A child of the user's life offered alcohol (Qt-free).

QA pass 45: the cautions (`cautions.py`) knew allergies, diets and medicines, but not a
child's age: "Can Amara have a glass of champagne at the wedding?", "Amara turned 8
yesterday." told, could be answered yes with nothing under it.  In the UK alcohol may
not be sold to anyone under 18, and the Chief Medical Officers advise an alcohol-free
childhood; a parent asking a memory app wants an answer that says so, or a line that does.

- **Whose.**  Someone the message asks of by name or relation ("Can Amara have …?",
  "Can my daughter have …?"), not only as another's ("Can I have champagne at Amara's
  party?" asks for the user).
- **Their age.**  The newest age the user told of them (`says_of.told`: "Amara is 7",
  "Our son Leo turned 12 on Sunday"): under `ADULT`, alcohol is a caution of theirs, quoted
  by the sentence that told the age, checked like any other (`cautions.offered`,
  `cautions.missed`).  A later age of 18 or more lifts it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from . import facts
from .cautions import GROUPS, Caution, asks_avoided, asks_for_food
from .kin import HAS_CHILDREN
from .says_of import told

ADULT = 18  # the age from which alcohol may be bought (UK)


def asked_of(message: str, about: AbstractSet[str]) -> frozenset[str]:
    """Those of `about` (names and relation words, lower case, `Assistant._asked_about`)
    whom `message` names as themselves, not only as another's ("Amara's party"); a
    relation named so ("Can my daughter have …?") brings the names `about` has for it."""
    def names(n: str, own: str = "") -> bool:
        return bool(re.search(rf"(?<!\w){re.escape(n)}(?!\w){own}", message, re.IGNORECASE))

    asked = {n for n in about if names(n, r"(?!['’]s\b)")}
    if asked & facts.KIN_WORDS:
        asked |= {n for n in about if not names(n)}
    return frozenset(asked)


# a household's children as such ("for the twins", "the kids' party"): under age, each of
# them is (QA pass 46b: "Suggest a birthday cake for the twins." got a peach bourbon cake)
CHILDREN = re.compile(r"\b(?:the|our|my)\s+(?:kids|children|boys|girls|twins)\b", re.IGNORECASE)
CHILDREN_WORDS = ("kids", "children", "boys", "girls", "twins", "sons", "daughters")


def children_named(statements: Iterable[tuple[int, str]]) -> frozenset[str]:
    """The names the user's `statements` (id, words) give their children as a household's
    ("Our twins Zofia and Jan are 15.", "We have two kids, Mia and Leo"), lower case."""
    return frozenset(n for _, t in statements if HAS_CHILDREN.search(t) for n in told([t]))


def under_age(statements: Iterable[tuple[int, str]], whom: AbstractSet[str],
              message: str = "") -> list[Caution]:
    """A caution against alcohol for each one of `whom` (names and relation words, lower
    case) whose newest age among the user's `statements` (id, words; oldest first) is under
    `ADULT`, quoted by the sentence that tells it; none for a `message` that asks what they
    must avoid (QA pass 45d: "What is Ole allergic to?" answered "eggs" read "it leaves out
    what you told me: “Ole turned 5 last week.”"), nor for one of no food or drink."""
    if message and (asks_avoided(message) or not asks_for_food(message)):
        return []
    newest: dict[str, tuple[int, str, int]] = {}
    for eid, text in statements:
        for who, kinds in told([text]).items():
            ages = kinds.get("age", set())
            if who not in whom or len(ages) != 1:
                continue
            age = next(iter(ages))
            said = next((s for s in facts.sentences(text)
                         if re.search(rf"(?<!\d){age}(?!\d)", s)), text)
            newest[who] = (int(eid), said.strip(), int(age))
    # (one for a sentence that tells several ages: "Our twins Zofia and Jan are 15.")
    return [Caution(eid, said, GROUPS["alcohol"], theirs=True)
            for eid, said, age in dict.fromkeys(newest.values()) if age < ADULT]


__all__ = ["ADULT", "CHILDREN", "CHILDREN_WORDS", "asked_of", "children_named", "under_age"]
