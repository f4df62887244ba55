"""The names a user uses (Qt-free): the words they write capitalised in the middle of a
sentence, or at the start of sentences of two memories and never in lower case, and the
names they give someone of theirs ("my colleague Will": `given_names`).  `MemoryEngine`
keeps one `NameIndex` over the user's memories; `knowledge` builds one over a group."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .facts import ASKING_WORDS, NAME_WORD, NOT_NAMES, SMALL_TALK, STOPWORDS, asks, kin, sentences
from .given_names import given_in, names_given
from .words import folded, one_slip

# a name this short one slip off a known one is read as it only when it starts with the
# same letter ("Efia" for "Efua"); a slip in the first letter of a short word makes
# another word too often ("Nell" / "Bell")
_SHORT_NAME = 7
_LEAST = 4  # shorter words are left as written ("Tim" / "Tom" are both names), but for a
# common other spelling ("Lea" for "Leah": `_variant`)


def name_candidates(text: str) -> tuple[set[str], set[str], set[str]]:
    """(words written capitalised mid-sentence, capitalised sentence openers, words written
    in lower case), lower-case, a possessive 's removed."""
    mid: set[str] = set()
    first: set[str] = set()
    lower: set[str] = set()
    after_colon = False  # (a list after a colon: "We have two kids: Zofia is 19…", 53a)
    for s in sentences(text):
        opener, after_colon = not after_colon, s.rstrip().endswith(":")
        for i, m in enumerate(NAME_WORD.finditer(s)):
            w = m.group(0)
            key = re.sub(r"['’]s$", "", w).lower().strip("'’-")
            if len(key) < 2:
                continue
            if not w[:1].isupper():
                lower.add(key)
            elif key not in NOT_NAMES and key not in STOPWORDS:
                (mid if i > 0 or not opener else first).add(key)
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
        self.spelt: set[str] = set()  # spelt out: "My wife's name is spelled Annelie…"
        self.taken: set[str] = set()  # taken back: "…is Marta. No wait, her name is Marga"

    def learn(self, texts: Iterable[str], taken: Iterable[str] = ()) -> None:
        """Learn the names of `texts`, and of what the user took back as they wrote it
        (`taken`: never respelt as another, QA pass 49c: "Is my best friend called Marta?"
        read as "…Marga?", and its right "No" then looked wrong)."""
        self.taken |= {w.lower() for t in taken for w in re.findall(r"\b[A-Z][\w'’-]+", t)}
        for t in texts:
            mid, first, lower = name_candidates(t)
            self.mid |= mid
            self.lower |= lower
            self.given |= names_given(t)
            self.spelt |= {m.group(1).lower() for m in _SPELT.finditer(t)}
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
        found = (mid - self.lower) | (first & self.known) | given
        return found | self._respelt(found) | {"my " + k for k in kin(text)}

    def _respelt(self, found: set[str]) -> set[str]:
        """The other spelling of each name in `found` the user spelt out for one they wrote
        before one slip off it ("Annelie" of "My wife's name is spelled Annelie…", for
        "My wife Anneli is vegetarian.": QA pass 48b, her caution was lost to the new
        spelling), both ways."""
        near = [(n, k) for n in found for k in (self.known if n in self.spelt else self.spelt)]
        return {k for n, k in near if k != n and (_variant(n, k) or _slip_of(n, k))}

    def respell(self, text: str) -> tuple[str, list[tuple[str, str]]]:
        """`text` with each name it asks about that the user never wrote, but that is one
        slip of the keys off exactly one name they did, or the same name without its
        accents, written as that name; and the pairs (as written, as read).  "Where does
        Andres live now?" reads as "Where does Anders live now?" once the user spoke of
        Anders: a misspelt name recalled nothing, and the answer was about no one (QA pass
        37c).  Only questions and requests are read so: a statement may bring in a new
        person ("My new colleague is called Ander.")."""
        known = sorted(self.known)
        said = self.mid | self.lower | set(self.first) | self.given
        read: dict[str, str] = {}
        for s in sentences(text):
            if not asks(s):
                continue
            own, words = names_given(s), _said_in(s)
            for i, m in enumerate(NAME_WORD.finditer(s)):
                w = re.sub(r"['’]s$", "", m.group(0)).strip("'’-")
                key = w.lower()
                # (an -ly word capitalised mid-sentence may be a name: "Where does Holly
                # live?" of Hollie, pass 41b's persona)
                if (not w[:1].isupper() or len(key) < _LEAST - 1 or key in said
                        or key in own or key in self.taken or key in NOT_NAMES or key in STOPWORDS
                        or not _name_like(key) and (i == 0 or not key.endswith("ly"))):
                    continue
                near = [n for n in known if n not in words and (
                    _variant(key, n) or len(key) >= _LEAST and _slip_of(key, n))]
                if len(near) == 1:
                    read[w] = near[0][:1].upper() + near[0][1:]
        if not read:
            return text, []
        out = re.sub(r"(?<![\w'’-])(" + "|".join(map(re.escape, sorted(read, key=len,
                                                                         reverse=True)))
                     + r")(?![\w-])", lambda m: read[m.group(1)], text)
        return out, sorted(read.items())


# a name spelt out: "…name is spelled Annelie", "it's spelt “Zoë”"
_SPELT = re.compile(r"\b(?:spelled|spelt|spells?)\s+(?:as\s+|with\s+)?[\"“'‘]?((?-i:[A-Z])[\w'’-]+)",
                    re.IGNORECASE)
# the ways one name's ending is spelt ("Ruby", "Rubi", "Rubie"; "Katy", "Katie")
_ENDING = re.compile(r"(?:ie|ey|ee|ye|y|i)$")
_DOUBLED = re.compile(r"(\w)\1+")
# letters that sound alike in names: "Marko" / "Marco", "Erik" / "Eric", "Stefan" / "Stephan"
_SOUND_OF = {"ck": "k", "c": "k", "ph": "f"}
_SOUNDS = re.compile(r"ck|ph|c(?![eiyh])")


def _variant(word: str, name: str) -> bool:
    """Is `word` (lower case, three letters or more) `name` spelt another common way: an
    "h" left off or added at the end ("Lea" for "Leah", "Sarah" for "Sara"), the end's
    "y", "i", "ie", "ey" or "ye" for another of them ("Rubi" for "Ruby", "Skie" for
    "Skye"), a doubled letter written once, or both ("Hana" for "Hannah"), or a hard "c"
    written "k" or "ph" written "f" ("Marko" for "Marco", QA pass 40b)?  QA passes 39
    and 39c: none of these was read as the name ("i"/"y" are no neighbouring keys, "Lea"
    is short, "Hana" two changes off)."""
    a, b = folded(word), folded(name)
    if a == b or min(len(a), len(b)) < _LEAST - 1:
        return False
    a, b = (_DOUBLED.sub(r"\1", _SOUNDS.sub(lambda m: _SOUND_OF[m.group(0)], w)) for w in (a, b))
    return a == b or a + "h" == b or b + "h" == a or (
        bool(_ENDING.search(a)) and bool(_ENDING.search(b))
        and len(_ENDING.sub("", a)) >= 2 and _ENDING.sub("", a) == _ENDING.sub("", b))


def spelt_as(word: str, names: Iterable[str]) -> bool:
    """Is `word` one of `names` (lower case), or one of them spelt another way or misspelt
    (`_variant`, `_slip_of`)?"""
    key = word.lower()
    return any(key == n or _variant(key, n) or len(key) >= _LEAST and _slip_of(key, n)
               for n in names)


def misread(word: str, names: Iterable[str]) -> bool:
    """Is `word` one of `names` (lower case) as a reader gets it wrong: spelt as `spelt_as`
    allows, or, doubled letters written once, one letter off it but the first ("Piper" for
    "Pepper")?  Looser than what a question is read as (`NameIndex.respell`): for a name
    the model wrote, where "Mary" for "Mark" is more likely a slip than someone else."""
    key = _DOUBLED.sub(r"\1", folded(word.lower()))
    return spelt_as(word, names) or len(key) >= _LEAST and any(
        key[:1] == b[:1] and one_slip(key, b)
        for b in (_DOUBLED.sub(r"\1", folded(n.lower())) for n in names))


def _said_in(sentence: str) -> set[str]:
    """The words of `sentence`, lower case."""
    return {m.group(0).lower() for m in NAME_WORD.finditer(sentence)}


def _slip_of(word: str, name: str) -> bool:
    """Is `word` (lower case) `name` misspelt: the same without accents ("soren" for
    "søren"), or one slip off it (`words.one_slip`), in the first letter only if both are
    at least `_SHORT_NAME` letters long?"""
    a, b = folded(word), folded(name)
    if a == b:
        return True
    if not one_slip(a, b):
        return False
    if min(len(a), len(b)) >= _SHORT_NAME:
        return True
    changed = [(x, y) for x, y in zip(a, b) if x != y] if len(a) == len(b) else []
    # a short name with one letter changed is often another name ("Mark" / "Mary", "Anna"
    # / "Anne"); a slip of the finger hits a neighbouring key ("Efia" for "Efua")
    return a[0] == b[0] and (len(changed) != 1 or _neighbours(*changed[0]))


# where each letter's key is on a QWERTY keyboard: (row, place in the row)
_KEYS = {c: (r, i) for r, row in enumerate(("qwertyuiop", "asdfghjkl", "zxcvbnm"))
         for i, c in enumerate(row)}


def _neighbours(x: str, y: str) -> bool:
    """Are keys `x` and `y` side by side, or above and below, on a QWERTY keyboard?"""
    if x not in _KEYS or y not in _KEYS:
        return False
    (r1, i1), (r2, i2) = sorted((_KEYS[x], _KEYS[y]))  # (the upper key first)
    # a key touches its row's neighbours, and the two above it ("d": "e" and "r")
    return (r1 == r2 and abs(i1 - i2) == 1) or (r2 == r1 + 1 and i1 - i2 in (0, 1))


__all__ = ["NameIndex", "name_candidates"]
