"""A yes to whether the user (or someone of theirs) does what they told they gave up
(Qt-free): "Do I smoke?" answered "Yes…" after "I quit smoking last year." (`affirms_stopped`,
read by `doubt.answer_doubt`; `gave_up`: the memory that says so)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import facts
from .events import Recall
from .older_news import opens_with_yes, yes_no_asks

# the words of asking, no content of what is asked
ASKING = frozenset(facts.stems("when what where which who how is are was the time date day"))


def current(mems: Sequence[Recall]) -> list[Recall]:
    """The memories of `mems` neither replaced nor older news."""
    return [r for r in mems if r.extra.get("superseded_by") is None
            and r.extra.get("older_than") is None]


def affirms_stopped(message: str, answer: str, mems: Sequence[Recall]) -> dict | None:
    """``{"kind": "affirms_stopped", "memory": id, "said": …}`` when `answer` says yes to
    a yes-or-no question of `message` whose doing a recalled memory says was given up
    (QA pass 49a: "Do I smoke?" answered "Yes, you're right! It's a common practice to
    quit smoking in January.", with no line)."""
    if _ASKS_STOPPED.search(message):  # (a yes to "Have I quit smoking?" is right, 54a)
        return None
    r = gave_up(message, mems)
    # (or says they do it, nothing against it: "There is nothing wrong with smoking.", 49e)
    if r is None or not (opens_with_yes(answer) or any(
            (done := m.group(1) or m.group(2)) and re.search(_DOES_IT.format(facts.stem(done)), c,
                                                             re.IGNORECASE)
            and not _AGAINST_IT.search(c) for m in _STOPPED.finditer(r.text)
            for c in re.split(r"[,;:.!?]+", answer))):
        return None
    # (of a memory corrected in part, the part that still holds is what was told)
    said = r.text if r in current(mems) else r.extra.get("still_true") or r.text
    return {"kind": "affirms_stopped", "memory": int(r.episode_id), "said": said}


_ASKS_STOPPED = re.compile(r"\b(?:quit\w*|stopped|given up|gave up|give up)\b", re.IGNORECASE)
# a clause that says one does a doing (its stem in the braces), or may
_DOES_IT = (r"\b(?:nothing wrong with|no harm in|(?:fine|okay|ok|alright|safe) to|you(?:['’]re)?"
            r"(?:\s+(?:still|do|can|may))?(?:\s+(?:keep|continue(?:\s+to)?))?)\s+{}\w*")
_AGAINST_IT = re.compile(r"\b(?:not|never|no longer|quit\w*|stop\w*|gave up|give up|giving up|"
                         r"used to|cut\w* down|avoid\w*)\b|n['’]t\b", re.IGNORECASE)


def gave_up(message: str, mems: Sequence[Recall]) -> Recall | None:
    """The current memory that says the one a yes-or-no question of `message` asks about
    gave up what it asks whether they do ("Do I smoke?", "I quit smoking…"), or sold it."""
    asks = yes_no_asks(message)
    asked = set(facts.stems(" ".join(asks))) - ASKING
    whom = facts.who(message) - {facts.SELF}  # (of the one asked about: "Does Elena smoke?")
    having = bool(asked & _HAVING)  # (a thing parted with: "Do I still have a boat?", 50b)
    # (of a memory corrected in part, the part still true: "…trip to Gdańsk on 14 August
    # … Also, I gave up cycling to work…", the trip moved, QA pass 53a: a yes had no line)
    held = [(r, r.text) for r in current(mems)] + [
        (r, r.extra["still_true"]) for r in mems if r.extra.get("still_true")]
    return next((r for r, text in held for m in _STOPPED.finditer(text)
                 if facts.stem(m.group(1) or m.group(2) or (m.group(3) if having else "")) in asked and (
                     whom & facts.who(text) if whom else facts.SELF in facts.who(text))),
                None) if asks else None


# a doing given up: "I quit smoking", "Sam stopped drinking", "no longer plays golf"; or a
# thing parted with ("I sold my boat")
# (or a doing never done, said on its own: "I don't drive." to "Can I drive to work?"
# answered "I'd be happy to help you drive…", QA pass 55c; not "I don't eat pork")
_STOPPED = re.compile(r"\b(?:(?:quit|quitted|stopped|gave up|given up|no longer)\s+([a-z]+)|"
                      r"(?:don['’]t|do not|never|can['’]t|cannot)\s+([a-z]+)(?=\s*(?:[.,;!?]|$|"
                      r"\s+(?:and|but|so|any ?more|at all)\b))|"
                      r"(?:sold|gave away|given away|got rid of|scrapped)\s+(?:my|our|his|her|"
                      r"their|the)\s+([a-z]+))", re.IGNORECASE)
_HAVING = frozenset(facts.stems("have has own owns still"))
