"""A place an answer gives someone of the user's life that a memory gives another (Qt-free):
"Helen lives in Leeds." of "My boss is Helen Carter. My best friend is Marek, he lives in
Leeds." (`place_of_another`, read by `doubt.answer_doubt`).  One message often tells of
several people; what it says of each is the part from where they are named to where the
next one is (`whose_parts`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet

from .events import Recall
from .superseded import told_parts

# someone said to live or be somewhere: "Helen lives in Leeds", "she's based in Paris"
_LIVES = re.compile(r"\b(?P<who>[A-Z][\w'’-]+|(?i:he|she))\s+(?:(?i:now|still|also)\s+)?(?i:lives|"
                    r"is living|lived|has moved|moved|relocated|has relocated|is based|works|"
                    r"is|['’]s)\s+(?:(?i:now|still|also|currently)\s+)?(?i:in|to|at)\s+"
                    r"(?P<place>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)")


def whose_parts(text: str, names: Callable[[str], AbstractSet[str]]
                ) -> list[tuple[frozenset[str], str]]:
    """(whom, the part) of each thing `text` tells (`superseded.told_parts`): the people of
    the user's life a part names (`names`, lower case: "my best friend" and "marek" of "My
    best friend is Marek, he lives in Leeds." are one), else those before it ("My sister
    Funmi is 27, she's a lawyer" / "lives in London."); none before anyone is named."""
    out: list[tuple[frozenset[str], str]] = []
    who: frozenset[str] = frozenset()
    for part in told_parts(text):
        who = frozenset(names(part)) or who
        out.append((who, part))
    return out


def place_of_another(message: str, answer: str, mems: Sequence[Recall],
                     names: Callable[[str], AbstractSet[str]]) -> dict | None:
    """``{"kind": "misattributed", "asked": "Helen", "memory": id, "said": …, "words":
    ["Leeds"], "of": "Marek"}`` when, asked about one person of the user's life, `answer`
    says they live or are at a place that a memory says only of another (QA pass 53a:
    "Where does Helen live?" answered "Helen lives in Leeds.", Leeds being Marek's, had no
    line); None otherwise."""
    asked = names(message)
    if len(asked) != 1:
        return None
    (them,) = asked
    for m in _LIVES.finditer(answer):
        who = m.group("who").lower()
        # (them, by a name of theirs: "Helen Carter lives…" of Helen)
        if who not in ("he", "she") and not _same(them, who) and not re.search(
                rf"\b{re.escape(them)}(?:\s+[A-Z][\w'’-]+)?$", answer[:m.end("who")],
                re.IGNORECASE):
            continue
        place = m.group("place")
        said = [(r, whose_parts(r.text, names)) for r in mems if place in r.text]
        if not said or any(_same(them, w) for _, parts in said for ws, p in parts
                           if place in p for w in ws):
            continue
        r, parts = said[0]
        # (by name where the part gives one: "Marek", not "my best friend")
        of = next((sorted(ws, key=lambda w: w.startswith("my "))[0] for ws, p in parts
                   if place in p and ws), "")
        if of:
            return {"kind": "misattributed", "asked": _as_named(message, them),
                    "memory": int(r.episode_id), "said": r.text, "words": [place],
                    "of": _as_named(r.text, of)}
    return None


def _same(a: str, b: str) -> bool:
    """Are names `a` and `b` one person's ("helen", "helen carter")?"""
    return a == b or a.startswith(b + " ") or b.startswith(a + " ")


def _as_named(text: str, name: str) -> str:
    """`name` (lower case) as `text` writes it ("helen" -> "Helen")."""
    m = re.search(rf"\b{re.escape(name)}\b", text, re.IGNORECASE)
    return m.group(0) if m else name


__all__ = ["place_of_another", "whose_parts"]
