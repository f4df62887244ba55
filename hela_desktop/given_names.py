"""Names a user gives the people and animals of their life (Qt-free): "my colleague Will",
"my dog Bill" make "will" and "bill" names though they are everyday words (`name_index.NameIndex`;
QA pass 36: "Will" was no name, so nothing about Will was checked or found)."""

from __future__ import annotations

import re
from collections.abc import Iterable

# a name the user gives someone of theirs: "my colleague Will", "my best friend Mark"
_GIVEN_NAME = re.compile(r"\b(?i:my|our)\s+(?:(?!(?i:to|in|at|from|of|with|for|on|and|or|the|a|"
                         r"an|by|near|about)\b)[a-z][\w'’-]*\s+){1,2}([^\W\d_][\w'’-]*)")
_CAPITALISED = re.compile(r"\b([A-Z][a-z'’-]+)\b")
# what follows "Will" or "May" opening a question, not a name ("Will you…", "May the…")
_PRONOUN_NEXT = re.compile(r"\s+(?:i|you|we|he|she|it|they|there|this|that|these|those|the|a|"
                           r"an|my|your|our|his|her|their|i['’]m|i['’]ll)\b", re.IGNORECASE)


def names_given(text: str) -> set[str]:
    """The names `text` gives someone of the user's ("My colleague Will", "My brother
    Dylan's", "my friend Łukasz"), lower case: a word capitalised and then in lower case,
    not "I'm" (`bench personal`: "…my current students I'm…")."""
    out = set()
    for m in _GIVEN_NAME.finditer(text):
        w = re.sub(r"['’]s$", "", m.group(1))
        if len(w) > 1 and w[0].isupper() and w[1:].replace("-", "").isalpha() and w[1:].islower():
            out.add(w.lower())
    return out


def given_in(text: str, given: Iterable[str]) -> set[str]:
    """The names of `given` that `text` writes capitalised, but not opening a question
    ("Will you…", "May the…": `_PRONOUN_NEXT`)."""
    wanted = set(given)
    out = set()
    for m in _CAPITALISED.finditer(text):
        w = m.group(1).lower()
        opens = not text[:m.start()].strip() or text[:m.start()].rstrip()[-1] in ".!?"
        if w in wanted and not (opens and _PRONOUN_NEXT.match(text, m.end())):
            out.add(w)
    return out


__all__ = ["given_in", "names_given"]
