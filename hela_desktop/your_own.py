"""A question about the user's own home, job or age, and the statements of their own that
answer it (Qt-free).

QA pass 40b: "What do I do for a living?" recalled "My best friend Chloe is a vet." and
Chloe's move, not "Hi, I'm Elena Rossi, a primary school teacher in Leeds.": no memory
resembles the question closely enough, though "What is my job?" recalled it.  The gate
brings such statements first (`gate.RelevanceGate._your_own`), as it does the cautions
for a question about food.
"""

from __future__ import annotations

import re

from . import facts
from .says_of import JOBS

# what each kind of question asks of the user themself
_ASKS = (
    ("home", re.compile(r"\bwhere\s+(?:do|did)\s+(?:i|we)\s+live\b|\bwhere(?:\s+is|['’]s)\s+"
                        r"(?:my|our)\s+(?:home|house|flat)\b|\bwhat\s+(?:town|city|country|"
                        r"place)\s+do\s+(?:i|we)\s+live\b|\bwhere\s+am\s+i\s+based\b",
                        re.IGNORECASE)),
    ("job", re.compile(r"\b(?:where|which\s+[a-z]+)\s+(?:am|will)\s+i\s+(?:be\s+)?working\b|"
                       r"\bwhat\s+(?:do|did)\s+i\s+do(?:\s+for\s+(?:a\s+living|work))?\s*\?|"
                       r"\bwhat(?:\s+is|['’]s|\s+was)\s+my\s+(?:job|work|profession|occupation|"
                       r"career|line\s+of\s+work)\b|\bwhere\s+do\s+i\s+work\b|\bwhat\s+(?:job|"
                       r"work)\s+do\s+i\s+(?:do|have)\b", re.IGNORECASE)),
    ("age", re.compile(r"\bhow\s+old\s+am\s+i\b|\bwhat(?:\s+is|['’]s)\s+my\s+age\b",
                       re.IGNORECASE)),
)
# words one of the user's statements of each kind holds (for the store to look for)
CUES = {"home": ("live", "lives", "living", "moved", "based", "i'm"),
        "job": ("work", "works", "job", *sorted(JOBS)),
        "age": ("old", "turned", "age", "i'm", "am")}
# … and what says it
_SAYS = {
    "home": re.compile(r"\b(?:i|we)\s+(?:(?:now|still|currently)\s+)?(?:live|lived|moved|"
                       r"relocated)\s+(?:back\s+)?(?:in|to)\b|\b(?:i|we)['’]?(?:m|re|\s+am|\s+are)"
                       r"\s+(?:now\s+)?(?:based|living)\s+in\b|\bi['’]?m\s+[A-Z][\w'’-]*(?:\s+"
                       r"[A-Z][\w'’-]*)?,\s+(?:a|an)\s+[\w\s-]{2,40}?\s+(?:in|from)\s+[A-Z]",
                       re.IGNORECASE),
    "job": re.compile(r"\bi\s+(?:now\s+)?work\s+(?:as|at|for)\b|(?<!\bthe )(?<!\bmy )(?<!\bour )"
                      r"\b(?:" + "|".join(sorted(JOBS))
                      + r")s?\b|\b(?:teach(?:es|ing)?|driv(?:e|es|ing)|nurs(?:e|es|ing)|"
                      r"join(?:s|ing)?)\b[^.;!?]{0,40}?\b(?:for|at|as|in)\s+(?:the\s+)?(?-i:[A-Z])",
                      re.IGNORECASE),
    "age": re.compile(r"\bi(?:['’]m|\s+am)\s+(?:now\s+)?\d{1,3}\b(?!\s*(?:kg|km|cm|minutes?|"
                      r"hours?|%))|\bi\s+(?:just\s+)?turned\s+\d{1,3}\b", re.IGNORECASE),
}


def asks_own(message: str) -> str:
    """The kind of thing `message` asks of the user themself: "home" ("Where do I
    live?"), "job" ("What do I do for a living?", "What is my job?") or "age" ("How old
    am I?"); "" for none."""
    return next((kind for kind, asks in _ASKS if asks.search(message)), "")


def tells_own(text: str, kind: str) -> bool:
    """Does a sentence of `text` with the user as its subject ("I …", "Hi, I'm …",
    `facts.self_rank` 0) tell their `kind` ("I work as a nurse.", "Hi, I'm Elena Rossi,
    a primary school teacher in Leeds.", "Starting in August I'll be teaching at Cherry
    Creek Academy."), or one that opens "As a physio I…"?"""
    return any(facts.self_rank(s) == 0 and _SAYS[kind].search(s)
               or kind == "job" and (_AS_A.search(s) or _I_WORK.search(s))
               for s in facts.sentences(text))


# "As a physio I should know better…": the user's job, said in passing
_AS_A = re.compile(r"\bas\s+an?\s+(?:[\w-]+\s+)?(?:" + "|".join(sorted(JOBS)) + r")\b,?\s+"
                   r"(?:i|i['’](?:m|ve|d|ll))\b", re.IGNORECASE)
# … or "I" working somewhere after words of time ("Starting in August I'll be teaching at
# Cherry Creek Academy.")
_I_WORK = re.compile(r"\bI(?:['’](?:ll|m|d)|\s+will|\s+am)?\s+(?:be\s+|now\s+)?(?:work(?:ing)?|"
                     r"teach(?:ing)?|nursing|driving)\b[^.;!?]{0,40}?\b(?:for|at|as)\s+"
                     r"(?:the\s+)?[A-Z]")


__all__ = ["CUES", "asks_own", "tells_own"]
