"""How memories are shown to the model, and what is cleaned out of its answers (Qt-free).

The memory block is written for a small model that copies what it sees: no transcript
markup ("User:", "Assistant:", bracketed ISO dates) it could continue, the user's own
words in quotes with a date the model can use ("3 weeks ago, on 2 March 2025"), and a clean
cut before the user's message.  What still leaks into an answer is cleaned while it
streams (`AnswerFilter`), and an answer may not copy a run of words from an earlier answer
(`RepeatGuard`, a no-repeat n-gram rule over token ids).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime

# The block sits at the start of the user's turn, in the user's voice (the lines are their own
# words), and ends with a blank line before the message.  Measured on SmolLM2-135M: headers
# such as "The user's message:" were copied into answers; this form was not.
MEMORY_HEADER = "Things I told you before:"
MAX_MEMORY_CHARS = 220  # a memory line is cut here (about 50-80 tokens)

_DAY = 86400.0


def relative_day(ts: float, now: float) -> str:
    """When, in words a model can use: "today", "yesterday", "3 days ago", "2 weeks ago",
    "4 months ago", "over a year ago" (a future time counts as today)."""
    days = (now - ts) / _DAY
    if days < 1:
        return "today"
    if days < 2:
        return "yesterday"
    if days < 14:
        return f"{int(days)} days ago"
    if days < 60:
        return f"{int(days // 7)} weeks ago"
    if days < 365:
        return f"{int(days // 30.4)} months ago"
    years = int(days // 365)
    return "over a year ago" if years < 2 else f"over {years} years ago"


def calendar_day(ts: float) -> str:
    d = datetime.fromtimestamp(ts)
    return f"{d.day} {d.strftime('%B %Y')}"


def shorten(text: str, limit: int = MAX_MEMORY_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1].rsplit(" ", 1)[0] + "…"
    return text


def memory_line(text: str, created_at: float | None, now: float, *,
                older: bool = False) -> str:
    """One line of the memory block: the user's own words, then when they said them
    ("- My dog is called Pixel. (3 weeks ago, on 4 November 2026)")."""
    said = shorten(text)
    if created_at is None:
        return f"- {said}"
    when = f"{relative_day(created_at, now)}, on {calendar_day(created_at)}"
    if older:
        when += "; older news"
    return f"- {said} ({when})"


def knowledge_line(text: str) -> str:
    """A distilled item the user's words support ("- The user loves hiking.")."""
    return f"- {shorten(text)}"


def user_turn(lines: list[str], message: str) -> str:
    """The user's turn with a memory block: header, lines, a blank line, the message."""
    return f"{MEMORY_HEADER}\n" + "".join(f"{ln}\n" for ln in lines) + f"\n{message}"


# ---------------------------------------------------------------- answer clean-up -----
# markup a small model copies from transcripts: a role tag at the start of a line, a bracketed
# date, or our own block headers
_ROLE_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:user|assistant|system|human|ai|hela)\s*:",
                        re.IGNORECASE)
_DATE_LEAD = re.compile(r"^\s*(?:[-*•]\s*)?\(\s*\d{4}-\d{1,2}(?:-\d{1,2})?\s*\)\s*")
_HEADERS = tuple(h.lower() for h in (MEMORY_HEADER, "Things I told you", "Things you told me"))
_HOLD = 24  # characters held back at the start of a line until it is clearly not markup


class AnswerFilter:
    """Cleans an answer as it streams: a leading role tag ("Assistant:") or bracketed date
    is removed; a line that starts a transcript turn ("User: …") or repeats the memory
    block's header ends the answer (`done`).  Text is held back only at the start of a line,
    until it cannot be markup (at most a few characters)."""

    def __init__(self) -> None:
        self.done = False
        self._line = ""  # the current line's text not yet released
        self._released_in_line = False
        self._any = False

    def push(self, piece: str) -> str:
        if self.done:
            return ""
        out = []
        for ch in piece:
            if self.done:
                break
            if self._released_in_line:
                out.append(ch)
                if ch == "\n":
                    self._released_in_line = False
                continue
            self._line += ch
            if ch == "\n" or len(self._line) >= _HOLD:
                out.append(self._decide(final=ch == "\n"))
        return "".join(out)

    def _decide(self, final: bool) -> str:
        line = self._line
        low = line.strip().lower()
        if _ROLE_LINE.match(line):
            tag_end = line.index(":") + 1
            role = line[:tag_end].strip(" -*•:").lower()
            if not self._any and role in ("assistant", "ai", "hela"):
                self._line = line[tag_end:].lstrip(" ")  # "Assistant: Hello" -> "Hello"
                return "" if not self._line else self._decide(final)
            self.done = True  # the model began writing the user's next turn
            self._line = ""
            return ""
        if any(low.startswith(h) for h in _HEADERS):
            self.done = True
            self._line = ""
            return ""
        m = _DATE_LEAD.match(line)
        if m:
            line = line[m.end():]
        if not final and len(line.strip()) < 2 and len(self._line) < _HOLD:
            self._line = line
            return ""
        self._line = ""
        self._released_in_line = not line.endswith("\n")
        if line.strip():
            self._any = True
        return line

    def flush(self) -> str:
        """What is still held back at the end of the answer."""
        if self.done or not self._line:
            return ""
        return self._decide(final=True)


def could_be_markup(text: str) -> bool:
    """Does an answer contain transcript markup (used by `bench personal`'s format_leak)?"""
    return any(_ROLE_LINE.match(line) or _DATE_LEAD.match(line)
               for line in text.splitlines() if line.strip())


class RepeatGuard:
    """No-repeat n-grams: the next token may not complete a run of `n` tokens that already
    stands in an earlier answer (or earlier in this one).  `banned(history)` gives the tokens
    to forbid after the tokens generated so far."""

    def __init__(self, references: Iterable[Sequence[int]] = (), n: int = 6):
        self.n = n
        self._next: dict[tuple[int, ...], set[int]] = {}
        for ref in references:
            self.add(ref)

    def add(self, tokens: Sequence[int]) -> None:
        n = self.n
        toks = list(tokens)
        for i in range(len(toks) - n + 1):
            self._next.setdefault(tuple(toks[i:i + n - 1]), set()).add(toks[i + n - 1])

    def banned(self, generated: Sequence[int]) -> set[int]:
        if len(generated) < self.n - 1:
            return set()
        return self._next.get(tuple(generated[-(self.n - 1):]), set())

    def push(self, generated: Sequence[int]) -> None:
        """Record the newest n-gram of the answer itself (it may not loop either)."""
        if len(generated) >= self.n:
            self._next.setdefault(tuple(generated[-self.n:-1]), set()).add(generated[-1])


__all__ = ["MEMORY_HEADER", "user_turn", "relative_day", "calendar_day", "memory_line",
           "knowledge_line", "AnswerFilter", "RepeatGuard", "could_be_markup", "shorten"]
