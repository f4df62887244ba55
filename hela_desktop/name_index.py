"""The names a user uses (Qt-free): the words they write capitalised in the middle of a
sentence, or at the start of sentences of two memories and never in lower case, and the
names they give someone of theirs ("my colleague Will": `given_names`).  `MemoryEngine`
keeps one `NameIndex` over the user's memories; `knowledge` builds one over a group."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .facts import ASKING_WORDS, NAME_WORD, NOT_NAMES, SMALL_TALK, STOPWORDS, kin, sentences
from .given_names import given_in, names_given


def name_candidates(text: str) -> tuple[set[str], set[str], set[str]]:
    """(words written capitalised mid-sentence, capitalised sentence openers, words written
    in lower case), lower-case, a possessive 's removed."""
    mid: set[str] = set()
    first: set[str] = set()
    lower: set[str] = set()
    for s in sentences(text):
        for i, m in enumerate(NAME_WORD.finditer(s)):
            w = m.group(0)
            key = re.sub(r"['’]s$", "", w).lower().strip("'’-")
            if len(key) < 2:
                continue
            if not w[:1].isupper():
                lower.add(key)
            elif key not in NOT_NAMES and key not in STOPWORDS:
                (mid if i > 0 else first).add(key)
    return mid, first, lower


def _name_like(word: str) -> bool:
    """Could a word seen only at the start of sentences be a name?  Not a question or
    request word, small talk, a contraction, or an -ly/-ed/-ing word ("Finally", "Bumped")."""
    return not (word in ASKING_WORDS or word in SMALL_TALK or "'" in word or "’" in word
                or word.endswith(("ly", "ed", "ing")))


class NameIndex:
    """The names a user uses: words they write capitalised in the middle of a sentence, or
    capitalised at the start of sentences of at least two memories, and never in lower case
    ("Tobias", "Margot's", "Finn"; not "Street" once "street" was written), plus the
    relations they name ("my mum")."""

    def __init__(self) -> None:
        self.mid: set[str] = set()
        self.first: dict[str, int] = {}
        self.lower: set[str] = set()
        self.given: set[str] = set()  # named as someone's: "my colleague Will"

    def learn(self, texts: Iterable[str]) -> None:
        for t in texts:
            mid, first, lower = name_candidates(t)
            self.mid |= mid
            self.lower |= lower
            self.given |= names_given(t)
            for w in first:
                self.first[w] = self.first.get(w, 0) + 1

    @property
    def known(self) -> set[str]:
        openers = {w for w, n in self.first.items() if n >= 2 and _name_like(w)}
        return (self.mid | openers) - self.lower | self.given

    def names(self, text: str) -> set[str]:
        """The names in `text`: a name given as someone's ("my colleague Will", "my dog
        Bill") counts wherever it is written capitalised, a word of everyday English
        though it is (QA pass 36: "Will" was no name, nor found by `memories search`),
        but at a sentence's start only when no pronoun follows ("Will you…", "May I…")."""
        mid, first, _ = name_candidates(text)
        given = given_in(text, self.given)
        return ((mid - self.lower) | (first & self.known) | given) | {"my " + k for k in kin(text)}


__all__ = ["NameIndex", "name_candidates"]
