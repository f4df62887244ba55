"""The people and animals of a user's life named by relation (Qt-free): "my mum" is
always the same person, "my dog" the same animal (`kin`, `kin_words`, `KIN_WORDS`,
`PETS`).  `facts` reads names with these tables; `whom` and the gate tell people apart by
them."""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)  # (as `facts` reads words)

# the people of a user's life they name by relation: "my mum" is always the same person
KIN = {
    "mum": "mother", "mom": "mother", "mother": "mother", "dad": "father", "father": "father",
    "wife": "wife", "husband": "husband", "partner": "partner", "fiancée": "fiancé",
    "fiancee": "fiancé", "fiancé": "fiancé", "fiance": "fiancé", "boyfriend": "boyfriend",
    "girlfriend": "girlfriend", "brother": "brother", "sister": "sister", "son": "son",
    "daughter": "daughter", "grandson": "grandson", "granddaughter": "granddaughter",
    "grandma": "grandmother", "grandmother": "grandmother", "grandpa": "grandfather",
    "grandfather": "grandfather", "nephew": "nephew", "niece": "niece", "aunt": "aunt",
    "uncle": "uncle", "cousin": "cousin", "boss": "boss", "manager": "manager",
    "roommate": "roommate", "flatmate": "flatmate", "neighbour": "neighbour",
    "neighbor": "neighbour",
}


PETS = frozenset("dog dogs cat cats puppy kitten pet pets horse pony parrot parakeet budgie "
                 "rabbit bunny hamster tortoise turtle ferret goldfish".split())  # "my dog"
KIN_WORDS = frozenset(KIN)  # every word that names a relation ("mum", "brother", "boss")

# looser words for a relation: a user who wrote "Finn, my eight-year-old" or "the kids" has
# told of a son (`MemoryEngine.tells_of`; `bench personal`: "What's my son completely
# obsessed with?" would have been answered "you have not told me about your son")
_CHILD = ("kid", "kids", "child", "children", "boy", "boys", "girl", "girls", "eldest",
          "youngest", "oldest", "toddler", "baby", "year old")
KIN_ALSO = {"son": _CHILD, "daughter": _CHILD, "brother": ("sibling", "siblings"),
            "sister": ("sibling", "siblings"), "husband": ("spouse", "partner"),
            "wife": ("spouse", "partner"), "partner": ("spouse", "husband", "wife",
                                                       "boyfriend", "girlfriend"),
            "mother": ("parents",), "father": ("parents",)}


def kin_words(relation: str) -> list[str]:
    """The words that name a relation ("mother" -> mum, mom, mother)."""
    return [w for w, r in KIN.items() if r == relation]


_PARENTS = frozenset("mum mom dad".split())  # used like names: "a video call with mum"


def kin(text: str) -> set[str]:
    """The relations a text names: "my mum" -> "mother", also a bare "mum" or "dad"."""
    # ("my sister's name" names her too: QA pass 30)
    words = [w.lower().replace("’", "'").removesuffix("'s") for w in _WORD.findall(text)]
    out = {KIN[w] for p, w in zip(words, words[1:], strict=False)
           if p in ("my", "our") and w in KIN}
    out |= {KIN[w] for p, w in zip([""] + words, words, strict=False)
            if w in _PARENTS and p not in ("a", "the", "your", "his", "her", "their")}
    return out


__all__ = ["KIN", "KIN_ALSO", "KIN_WORDS", "PETS", "kin", "kin_words"]
