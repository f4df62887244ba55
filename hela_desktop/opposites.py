"""An answer that says the opposite of what a memory says of the same day: open where the
user told it is closed, or closed where it is open ("We're open on Mondays." of "…and
we're closed on Mondays.", QA pass 54d: no line, twice)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from . import facts

_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|bank holidays?"
# each side of a pair: the word, and a "not" that turns it (then it says the other side)
_STATES = {"open": r"open(?:s|ed)?", "closed": r"closed|shut|closes"}
_NOT = re.compile(r"\b(?:not|never|n['’]t|no longer)\s+(?:\w+\s+)?$", re.IGNORECASE)


def _states(text: str) -> set[tuple[str, str]]:
    """(state, day) pairs `text`'s sentences say: "…and we're closed on Mondays." →
    {("closed", "monday")}; "We are not open on Mondays." → {("closed", "monday")}."""
    out: set[tuple[str, str]] = set()
    for sentence in facts.sentences(text):
        for state, word in _STATES.items():
            for m in re.finditer(rf"\b(?:{word})\b[^.;!?,]{{0,30}}?\b({_DAY})\b|\b({_DAY})\b"
                                 rf"[^.;!?,]{{0,12}}?\b(?:{word})\b", sentence, re.IGNORECASE):
                turned = bool(_NOT.search(sentence[:m.start()]))
                day = (m.group(1) or m.group(2)).lower().rstrip("s")
                out.add(((("closed" if state == "open" else "open") if turned else state), day))
    return out


def opposite(answer: str, statements: Iterable[tuple[int, str]]) -> dict | None:
    """``{"kind": "opposite", "memory": id, "said": …, "words": "open on Mondays"}`` when
    `answer` says a day is open (or closed) that a statement (id, words) says is the other;
    None otherwise."""
    says = _states(answer)
    for eid, text in statements:
        for state, day in _states(text):
            other = "closed" if state == "open" else "open"
            if (other, day) in says and (state, day) not in says:
                said = " ".join(s for s in facts.sentences(text) if (state, day) in _states(s))
                return {"kind": "opposite", "memory": int(eid), "said": said or text,
                        "words": f"{other} on {day.capitalize()}s"}
    return None
