"""A message that tells of the user's life, and the sentences of a reply to it that speak
of people: what such a reply is checked for (`doubt`), apart from what it says of whom
(`whom`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet

from . import facts


def tells_of_life(message: str, names: Callable[[str], AbstractSet[str]] | None) -> bool:
    """Does `message` only tell something of the user's life ("My mother Greta moved to
    Antwerp last month.", "I work as a nurse.")?  The reply to it is checked as an answer
    about that life is, in what it says of people (`of_people`): it was "…she relocated to
    Antwerp to celebrate her 30th birthday." with nothing under it (QA pass 30)."""
    return facts.only_tells(message) and (facts.is_personal(message)
                                          or bool(names and names(message)))


# a reply's sentence that speaks of someone: the user, or a person of theirs
_OF_PEOPLE = frozenset("you your yours you're you've you'll he she him his her hers they "
                       "them their we our us".split()) | facts.KIN_WORDS
# … and one that suggests (what it names was never meant as something the user told)
_SUGGESTS = frozenset("could should might may try visit recommend suggest consider perhaps "
                      "maybe".split())


_YOU_CAN = re.compile(r"\byou\s+can\s+(?!not\b|never\b|still\b)", re.IGNORECASE)


def of_people(reply: str) -> str:
    """The sentences of `reply` (to a message that tells of the user's life) that say
    something of the user or their people, not suggestions ("She lives at Groningen." is
    kept; "Lisbon is lovely in spring." and "You could visit the Belém Tower." are not),
    each with its first letter in lower case: a reply's sentence opens with its subject,
    the person told of, or a word of the model's talk ("Pheromones can help regulate your
    actions…", QA pass 30's data), not with a name it made up."""
    keep = []
    for s in facts.sentences(reply):
        words = set(re.findall(r"[a-z']+", s.lower().replace("’", "'")))
        # (a suggestion's "may" is written small: "your colleague May has…" suggests nothing,
        # QA pass 36b)
        hedges = set(re.findall(r"\b[a-z']+", s.replace("’", "'"))) & _SUGGESTS
        # (and what "you can" do: "…you can use your calendar on platforms like Google
        # Calendar…", QA pass 47b, read as made-up names)
        if words & _OF_PEOPLE and not hedges and not _YOU_CAN.search(s):
            s = s.strip()
            keep.append(s[:1].lower() + s[1:])
    return " ".join(keep)


__all__ = ["of_people", "tells_of_life"]
