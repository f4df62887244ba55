""""What do you know about me?", answered by the app itself (Qt-free).

Asked that, the small default model answered with anything but the user's memories, even
with them in its prompt: "I'm an English travel blogger based in Lyon, France", "I'm glad
you're happy to share your thoughts with me" (QA pass 24, every time).  No model is needed
to answer it truthfully: the relevance gate already picks the user's statements that matter
most (`gate._about_you`: pinned, then those in the first person, then the most recalled,
then the newest, less what a later statement corrects).  The app lists them, in the user's
own words and dated, a correction with what it corrects; the answer says it is a list of
memories, and where to change them.

`Settings.list_about_you` (default on) hands the question to the model instead, for a
model that answers it well.
"""

from __future__ import annotations

import re

from .events import Recall
from .prompt import said_when, shorten
from .words import count, listed, one_line

QUOTE_CHARS = 160  # each memory quoted up to here, cut at a word

HEAD = "Here is what you have told me, in your own words"
# the list's order, said after `HEAD`: pinned memories come first only where there are some
# (QA pass 43f: "what you pinned first" with nothing pinned)
ORDER = " (what you pinned first, then what you said of yourself, then of others):"
ORDER_UNPINNED = " (what you said of yourself first, then of others):"
EMPTY = ("You have not told me anything about yourself yet that I keep as a memory. What "
         "you tell me in a chat (“My dog is called Biscuit.”) becomes one, and I recall it "
         "when it matters.")
# (the same words in the window and the terminal: a chat can be read in either)
WHERE = ("You can see all your memories, and edit, pin or delete them, in the window's "
         "Memories tab, or in a terminal with `hela-desktop memories list`.")
CORRECTS_CHARS = 90  # what a listed correction corrects, quoted up to here


def line(r: Recall, now: float) -> str:
    """One memory of the list: '- “My dog is called Biscuit.” (3 weeks ago, on 4 November
    2026)', with what it corrects ("correcting “I'm planning a trip to Japan in May…”"),
    and "older news" when a newer memory said otherwise."""
    said = shorten(one_line(r.text), QUOTE_CHARS)
    notes = [w for w in (of_whom(r.text, str(r.extra.get("said_whole") or "")),
                         said_when(r.extra.get("created_at"), now)) if w]
    if r.extra.get("corrects_said"):  # what it corrects: "the trip" is the trip to Japan
        fixed = shorten(one_line(str(r.extra["corrects_said"])), CORRECTS_CHARS)
        notes.append(f"correcting “{fixed}”")
    if r.extra.get("rest_corrected_by") is not None:  # (the part still true: the rest
        # of what was said then is corrected by a later memory, listed with it)
        notes.append("the rest of that message since corrected")
    if r.extra.get("superseded_by") is not None:
        notes.append("older news, since replaced")
    elif r.extra.get("older_than") is not None:
        notes.append("older news")
    return f"- “{said}”" + (f" ({'; '.join(notes)})" if notes else "")


_PRONOUN = re.compile(r"\s*(?:he|she|they|his|her|their|him|them)\b", re.IGNORECASE)
_THEIRS = re.compile(r"\b(?:[Mm]y|[Oo]ur)\s+([a-z][\w-]*)\s+([A-Z][\w'’-]*)")


def of_whom(rest: str, whole: str) -> str:
    """"of your brother Anders" when the part of a memory still listed opens with a
    pronoun ("He is vegan…") and the part before it in `whole`, since corrected, named
    them (QA pass 37: the list read "“He is vegan, so no meat…”" with no one it was of);
    "" otherwise."""
    # (the part may open with a capital of its own: "She is a nurse." of "…and she is a
    # nurse.", QA pass 39)
    at = whole.lower().find(rest[:20].lower()) if rest else -1
    if not _PRONOUN.match(rest) or at <= 0:
        return ""
    named = list(_THEIRS.finditer(whole[:at]))
    return f"of your {named[-1].group(1)} {named[-1].group(2)}" if named else ""


def not_listed(shown: int, more: int | None) -> str:
    """What the list leaves out, said before where to find it: "" when nothing."""
    if more is None:
        return ("This is the one that matters most" if shown == 1 else
                f"These are the {shown} that matter most") + " of what you have told me. "
    if more:
        return (f"{'This is' if shown == 1 else 'These are'} {shown} of the {shown + more} "
                "things you have told me. ")
    return ""


def imported_not_listed(imported: dict[str, int]) -> str:
    """The line for the memories of chats imported from other assistants, which the list
    leaves out ({"ChatGPT": 6}): "" for none."""
    if not imported:
        return ""
    said = listed([f"{count(n, 'memory', 'memories')} from {who}"
                   for who, n in sorted(imported.items())])
    return (f"Not listed: what you said in chats imported from other assistants ({said}); "
            "I recall it when a message is about it. ")


def answer(memories: list[Recall], now: float, more: int | None = 0,
           imported: dict[str, int] | None = None) -> str:
    """The app's answer: the memories, one a line, then what it leaves out (`more`: how
    many of the user's statements are not listed, None for an unknown number; `imported`:
    how many memories of chats imported from each other assistant, never listed) and where
    they all are; or that there are none yet (plain lines and a list: read as written in
    the terminal, as Markdown in the window)."""
    mine = [r for r in memories if r.kind == "episode" and r.text.strip()]
    also = imported_not_listed(imported or {})
    if not mine:
        return f"{EMPTY} {also}{WHERE}"
    order = ORDER if any(r.extra.get("pinned") for r in mine) else ORDER_UNPINNED
    return (HEAD + order + "\n\n" + "\n".join(line(r, now) for r in mine) + "\n\n"
            + not_listed(len(mine), more) + also + WHERE)
