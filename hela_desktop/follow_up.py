"""A follow-up question's "he" or "she" read as whom the user's last message named (Qt-free).

QA pass 39: "What does Sam have?" then "How old is he?" recalled nothing ("he" is in every
memory and none), and "Sam is a 21-year-old male." had no line under it; "How old is Sam?"
was answered right.  A person asks a follow-up so; the assistant should read it so.

- **When.**  A question that names no one of the user's life, whose "he", "him", "his"
  (or "she", "her", "hers") all point one way, after a message of the user's that named
  one person of their life whom that word can be: one named, or the one of several whom
  the memories do not say to be otherwise (`gender_in`: "our son Sam", "Sam … he …").  A message between them
  that only asked on about them ("How old is he?" then "What does he like?") carries it.
- **What.**  The question is read with the name in the pronoun's place (`refer`), for
  recall, the prompt and the answer's checks, as a misspelt name is; the chat keeps what
  the user wrote, and the line under the answer says how it was read ("Read “he” as
  “Sam”, from your last message.")."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from . import kin

_HE = frozenset("he him his himself".split())
_SHE = frozenset("she her hers herself".split())
PRONOUNS = _HE | _SHE
_WORD = re.compile(r"[A-Za-z]+(?:['’][a-z]+)?")
# the words that say whom: a relation, or "he"/"she" in a sentence of theirs
_MALE = frozenset("son brother dad father husband boyfriend grandson nephew uncle grandpa "
                  "grandfather he him his boy".split())
_FEMALE = frozenset("daughter sister mum mom mother wife girlfriend granddaughter niece aunt "
                    "grandma grandmother she her hers girl".split())
# what follows an object "her" rather than a possessive one ("Did I call her yesterday?")
_AFTER_OBJECT = frozenset("to for about a an the with at in on up out now again yesterday "
                          "today tomorrow this that last next any anything something "
                          "everything nothing back too much so very off over home enough "
                          "when if why how what where before after by from".split())


def gender_of_word(word: str) -> str:
    """"m" or "f" for a word that says whom ("son", "she"), "" for any other."""
    w = word.lower()
    return "m" if w in _MALE else "f" if w in _FEMALE else ""


def pronoun_gender(text: str) -> str:
    """"m" when `text`'s third-person pronouns are all "he"/"him"/"his", "f" when all
    "she"/"her"/"hers", "" when none or both."""
    words = {w.lower() for w in _WORD.findall(text)}
    he, she = bool(words & _HE), bool(words & _SHE)
    return "m" if he and not she else "f" if she and not he else ""


def gender_in(name: str, texts: Iterable[str]) -> str:
    """Which the user's memories `texts` say `name` is ("m", "f"; "" when they do not say,
    or say both): a relation beside the name ("our son Sam", "Sam, my brother", "Ama is my
    sister"), or a "he" or "she" after it where no one else is named before it (a word
    after "in", "at", "to" or "from" is a place: "My sister Ama lives in Accra and she is
    a nurse.")."""
    low = name.lower()
    if low.startswith("my "):
        return gender_of_word(low[3:])
    votes = {"m": 0, "f": 0}
    for text in texts:
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            words = _WORD.findall(sentence)
            lows = [re.sub(r"['’]s$", "", w.lower()) for w in words]
            if low not in lows:
                continue
            i = lows.index(low)
            near = lows[max(0, i - 2):i] + lows[i + 1:i + 4]
            said = [g for w in near if w in kin.KIN_WORDS and (g := gender_of_word(w))]
            if not said:
                others = [j for j, w in enumerate(words) if j and w[:1].isupper()
                          and lows[j] != low and w != "I"
                          and lows[j - 1] not in ("in", "at", "to", "from")]
                said = [g for j, w in enumerate(lows) if j > i and w in PRONOUNS
                        and not any(k < j for k in others) and (g := gender_of_word(w))]
            for g in said:
                votes[g] += 1
    return "m" if votes["m"] > votes["f"] else "f" if votes["f"] > votes["m"] else ""


def refer(message: str, earlier: Sequence[tuple[str, Sequence[str]]],
          gender: Callable[[str], str]) -> tuple[str, list[tuple[str, str]]]:
    """`message` (a question naming no one) with its "he"/"she" read as the person the
    user's `earlier` messages named (newest first: each message, and its people of the
    user's life as written: ["Sam"], ["my mum"], [] for none), and the (pronoun, name)
    pairs so read; `gender`: a name -> "m", "f" or "".  The message unchanged and [] when
    whom is not clear."""
    want = pronoun_gender(message)
    if not want or "?" not in message:
        return message, []
    for text, named in earlier[:3]:
        fits = [n for n in named if gender(n) in (want, "")]
        # (a relation and the name beside it are one person: "my sister Lucía", QA pass
        # 51b: "What does she study?" after "How old is my sister Lucía?" read no one)
        one = [n for n in fits if not n.lower().startswith("my ") and any(re.search(
            rf"(?<!\w){re.escape(r)},?\s+{re.escape(n)}(?!\w)", text, re.IGNORECASE)
            for r in fits if r.lower().startswith("my "))]
        fits = one if len(fits) == 2 and len(one) == 1 else fits
        if len(fits) == 1:  # (of two, one of whom the memories do not say: not clear)
            return _put(message, fits[0])
        if named or pronoun_gender(text) != want:  # (someone else named, or another talk)
            break
    return message, []


def as_written(text: str, people: Iterable[str]) -> list[str]:
    """The `people` (lower case: "sam", "my mum") as `text` writes them, in its order."""
    found = []
    for p in people:
        m = re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text, re.IGNORECASE)
        if m:
            found.append((m.start(), p if p.startswith("my ") else m.group(0)))
    return [w for _, w in sorted(found)]


def _put(message: str, who: str) -> tuple[str, list[tuple[str, str]]]:
    """`message` with `who` in each pronoun's place ("his" → "Sam's")."""
    pairs: list[tuple[str, str]] = []
    words = list(re.finditer(r"[A-Za-z]+(?:['’][a-z]+)?|\S", message))

    def swap(m: re.Match) -> str:
        w = m.group(0)
        low = w.lower()
        if low not in PRONOUNS:
            return w
        later = [x.group(0).lower() for x in words if x.start() > m.start()][:1]
        own = low in ("his", "hers") or low == "her" and bool(later) and later[0].isalpha() \
            and later[0] not in _AFTER_OBJECT
        said = who + ("'s" if own else "")
        if low in ("himself", "herself"):
            said = who
        if (w, said) not in pairs:
            pairs.append((w, said))
        return said[0].upper() + said[1:] if m.start() == 0 else said

    return re.sub(r"\b[A-Za-z]+\b", swap, message), pairs


__all__ = ["PRONOUNS", "as_written", "gender_in", "gender_of_word", "pronoun_gender", "refer"]
