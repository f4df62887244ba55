"""How memories are shown to the model, and what is cleaned out of its answers (Qt-free).

The memory block is written for a small model that copies what it sees: no transcript
markup ("User:", "Assistant:", bracketed ISO dates) it could continue, the user's own
words in quotes with a date the model can use ("3 weeks ago, on 2 March 2025"), and a clean
cut before the user's message.  What still leaks into an answer is cleaned while it
streams (`AnswerFilter`), and an answer may not copy a run of words from an earlier answer
(`RepeatGuard`, a no-repeat n-gram rule over token ids).

Prompt layout (stable first, so llama.cpp's KV prefix is reused)::

    [system prompt + distilled user model]   stable across turns and swaps
    [history, oldest trimmed first]          stable within a turn
    [memory block]  [user message]           re-evaluated from the first changed memory
    [assistant tokens generated so far]      re-evaluated after a swap

The memory block lives at the start of the final user turn: the turn's knowledge lines
first (fixed for the turn), then one line per memory.  Surviving memories keep their place
and new ones are appended, so a swap re-evaluates only from the first removed memory.
`user_turn_frame` splits the rendered prompt where the memory lines go, so each line can be
tokenized on its own (`hela_desktop.turn.Turn.segments`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

import regex

from . import facts
from .events import Recall
from .words import one_line

# The block sits at the start of the user's turn, in the user's voice (the lines are their own
# words), and ends with a blank line before the message.  Measured on SmolLM2-135M: headers
# such as "The user's message:" were copied into answers; this form was not.
MEMORY_HEADER = "Things I told you before:"
MAX_MEMORY_CHARS = 220  # a memory line is cut here (about 50-80 tokens)
# another assistant's imported answer, shown after the question it answered, is cut here
# (about 70-100 tokens: a recipe's first steps, a script's first lines)
MAX_ANSWER_CHARS = 300

_DAY = 86400.0


def relative_day(ts: float, now: float) -> str:
    """When, in words a model can use: "today", "yesterday", "3 days ago", "2 weeks ago",
    "4 months ago", "over a year ago" (a future time counts as today)."""
    days = (now - ts) / _DAY
    if days < 1:
        return "today"
    if days < 2:
        return "yesterday"

    def ago(n: int, unit: str) -> str:
        return f"{'a' if n == 1 else n} {unit}{'' if n == 1 else 's'} ago"

    if days < 14:
        return ago(int(days), "day")
    if days < 60:
        return ago(int(days // 7), "week")
    if days < 365:
        return ago(int(days // 30.4), "month")
    years = int(days // 365)
    return "over a year ago" if years < 2 else f"over {years} years ago"


def calendar_day(ts: float) -> str:
    d = datetime.fromtimestamp(ts)
    return f"{d.day} {d.strftime('%B %Y')}"


def shorten(text: str, limit: int = MAX_MEMORY_CHARS) -> str:
    text = one_line(text)
    if len(text) > limit:
        text = text[: limit - 1].rsplit(" ", 1)[0] + "…"
    return text


# Markdown that means nothing on one line: fence lines, heading and quote marks, emphasis
_FENCE_LINE = re.compile(r"^[ \t]*(?:`{3,}|~{3,}).*$", re.MULTILINE)
_LINE_MARK = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+|>[ \t]?)", re.MULTILINE)
_EMPHASIS = re.compile(r"\*\*|__")


def answer_excerpt(answer: str, limit: int = MAX_ANSWER_CHARS) -> str:
    """The start of an imported answer as one plain line (`shorten`): fence lines, heading
    and quote marks and bold marks are dropped, the words kept."""
    head = (answer or "")[: limit * 4]  # what the cut can keep, whatever the markup takes
    plain = _EMPHASIS.sub("", _LINE_MARK.sub("", _FENCE_LINE.sub("", head)))
    return shorten(plain, limit)


# a memory said today or yesterday is dated in those words only: with the calendar date
# beside it ("(today, on 2 December 2026)"), "When is Ana's wedding?" was answered with that
# date, not the 14 June 2027 the memory names (8 of 24 answers about dated facts told the
# same day; 0 of 24 without it, and the right date 19 times against 14: docs/benchmarks.md)
RECENT = ("today", "yesterday")


def said_when(created_at: float | None, now: float) -> str:
    """When a memory was said, as its line in the prompt (and the app's own list of them,
    `about_you`) gives it: "3 weeks ago, on 4 November 2026", "today" and "yesterday" alone
    (`RECENT`: today's date beside a fact was taken for the fact's own); "" with no date,
    or one no calendar has."""
    if created_at is None:
        return ""
    try:
        when, day = relative_day(created_at, now), calendar_day(created_at)
        return when if when in RECENT else f"{when}, on {day}"
    except (TypeError, ValueError, OverflowError, OSError):
        return ""


def memory_line(text: str, created_at: float | None, now: float, *,
                older: bool = False, replaced: bool = False,
                answer: str = "", author: str | None = None) -> str:
    """One line of the memory block: the user's own words, then when they said them
    ("- My dog is called Pixel. (3 weeks ago, on 4 November 2026)"; "(today)" and
    "(yesterday)" alone: `RECENT`).  A question the user
    asked another assistant comes with the start of its imported answer (`answer`, already
    an `answer_excerpt`), both quoted and named as what they are: '- I asked ChatGPT: "How
    do I feed a sourdough starter?" It answered: "Feed it daily…" (…)'."""
    said = shorten(text)
    if author and answer:
        said = f'I asked {author}: "{said}" It answered: "{answer}"'
    when = said_when(created_at, now)
    if not when:
        return f"- {said}"
    if replaced:
        when += "; older news, since replaced"
    elif older:
        when += "; older news"
    return f"- {said} ({when})"


def knowledge_line(text: str) -> str:
    """A distilled item the user's words support ("- The user loves hiking.")."""
    return f"- {shorten(text)}"


def user_turn(lines: list[str], message: str) -> str:
    """The user's turn with a memory block: header, lines, a blank line, the message."""
    return f"{MEMORY_HEADER}\n" + "".join(f"{ln}\n" for ln in lines) + f"\n{message}"


def format_memory(r: Recall, now: float | None = None) -> str:
    """One line of the memory block: when, and the user's own words."""
    return memory_line(r.text, r.extra.get("created_at"), time.time() if now is None else now,
                       older="older_than" in r.extra, replaced="superseded_by" in r.extra,
                       answer=r.extra.get("answer") or "", author=r.extra.get("answered_by"))


def system_text(system_prompt: str, user_model: str) -> str:
    """The system message: the prompt, then the distilled user model (if any)."""
    if not user_model:
        return system_prompt
    return (f"{system_prompt}\n\nWhat you know about the user (from their own words):\n"
            f"{user_model}")


def user_content(knowledge: list[Recall], memories: list[Recall], message: str,
                 now: float | None = None) -> str:
    """The final user turn as text: the memory block (knowledge lines, then memories) and
    the message; just the message when there is nothing to recall."""
    if not memories and not knowledge:
        return message
    now = now or time.time()
    return user_turn([knowledge_line(k.text) for k in knowledge]
                     + [format_memory(r, now) for r in memories], message)


MARK = "\x00hela-memories\x00"  # where the memory lines go in the rendered user turn


def user_turn_frame(render: Callable[[list[dict]], str], stable: list[dict],
                    knowledge_lines: list[str], message: str) -> tuple[str, str]:
    """The rendered prompt split where the memory lines go: (head text, tail text).

    `stable` is the system message and the history; the head ends with the memory header
    and the knowledge lines, the tail starts with the message's blank line."""
    content = user_turn(knowledge_lines + [MARK], message).replace(MARK + "\n", MARK)
    text = render(stable + [{"role": "user", "content": content}])
    head, tail = text.split(MARK, 1)
    return head, tail


# ---------------------------------------------------------------- answer clean-up -----
# markup a small model copies from transcripts: a role tag at the start of a line, a bracketed
# date, or our own block header
_ROLE_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:user|assistant|system|human|ai|hela)\s*:",
                        re.IGNORECASE)
_DATE_LEAD = re.compile(r"^\s*(?:[-*•]\s*)?\(\s*\d{4}-\d{1,2}(?:-\d{1,2})?\s*\)\s*")
_PARTIAL_DATE = re.compile(r"\(\s*\d{0,4}(?:-\d{0,2}){0,2}\s*")
# a memory line's date as `memory_line` writes it, copied into an answer ("Pixel (3 weeks
# ago, on 2 March 2025; older news)"): the user never wrote it; `regex` for partial matches
_WHEN = r"(?:today|yesterday|(?:a|\d+) (?:day|week|month)s? ago|over (?:a|\d+) years? ago)"
# (after the date, our "; older news" or a note the model makes up in its likeness:
# "(today; new information)", QA pass 28)
# (QA pass 38: "(tomorrow; younger news, since replaced)", "(tomorrow)", "(older news)")
# (QA pass 40c: "(later; replacement to Hannah)", "(2019; earlier version of Hannah)")
_NOTE = (rf"(?:\((?:(?:{_WHEN}, on \d{{1,2}} [a-z]+ \d{{4}}|today|yesterday|tomorrow|tonight)"
         # (QA pass 46b: "(today; more specific details, since replaced by your job
         # description)": a long one)
         r"(?:; [a-z][a-z ,'’-]{0,80})?|(?:later|earlier|recently|now|before|then|\d{4}); "
         r"[a-z][a-z ,]{0,40}|(?:older|younger|newer|earlier|later|no) news(?:, since replaced)?"
         # (QA pass 51a: "(happy news, since replaced by this morning)", "(morning news,
         # since replaced by today)": any news, since replaced by anything)
         r"|[a-z]+ news, since replaced(?: by [a-z ,'’-]{1,40})?"
         # (QA pass 43e/g: "(no news)", "(25 March; earlier news)": a day of its own, with a
         # note of news or what replaced what)
         r"|(?:\d{1,2} [a-z]+|[a-z]+ \d{1,2}|[a-z]+)(?:,? \d{4})?; [a-z ,]{0,30}?"
         # (QA pass 46d: "(Wednesday; older news, since replaced)", a day's name alone)
         r"(?:news|replaced|version|information|update)[a-z ,]{0,20})\)"
         # (… or without its brackets: "No, today; older news.", QA pass 40b)
         rf"|,? ?(?:{_WHEN}|today|yesterday|tomorrow|tonight); (?:older|younger|newer) news"
         r"(?:, since replaced)?)")
_DATE_NOTE = regex.compile(rf" ?{_NOTE}", regex.IGNORECASE)
_DATE_NOTE_LEAD = regex.compile(rf"\s*(?:[-*•]\s*)?{_NOTE}\s*", regex.IGNORECASE)
_ROLES_SELF = ("assistant", "ai", "hela")  # a leading tag naming the answer's own speaker
# the answer half of a "Q: … A: …" pair, leading the answer ("A: Miso is …"); only there:
# "A: apples, B: pears" later in an answer is a list
_ANSWER_TAG = re.compile(r"^\s*(?:A|Answer)\s*:\s*")
_MARKUP_PREFIXES = ("user:", "assistant:", "system:", "human:", "ai:", "hela:", "a:",
                    "answer:", MEMORY_HEADER.lower(), "things you told me")


_OPENING_QUOTES = "\"“"
_CLOSING_QUOTES = "\"”"


def _cut_note(pattern: regex.Pattern, text: str) -> bool:
    """Is `text` a memory line's date, or its start far enough to be nothing else (it has
    reached ", on ": "(3 weeks ago, on 2 Ma")?"""
    m = pattern.fullmatch(text, partial=True)
    return m is not None and (not m.partial or ", on " in text)


def _could_become_markup(line: str) -> bool:
    low = line.lstrip(" \t-*•").lower()
    if not low:
        return True
    return (any(m.startswith(low) for m in _MARKUP_PREFIXES)
            or _PARTIAL_DATE.fullmatch(low) is not None
            or _DATE_NOTE_LEAD.fullmatch(line, partial=True) is not None)


class AnswerFilter:
    """Cleans an answer as it streams: a leading role tag ("Assistant:", "A:") or bracketed
    date is removed, and so is a memory line's date copied anywhere in a line ("(3 weeks ago, on
    2 March 2025)"); a line that starts a transcript turn ("User: …") or repeats the memory
    block's header ends the answer (`done`).  Text is held back only while it could still
    become markup: the start of a line (usually a character or two), or a space or
    parenthesis that could still open a memory line's date."""

    def __init__(self) -> None:
        self.done = False
        self._line = ""  # the start of the current line, held back
        self._free = False  # the current line is known not to be markup
        self._any = False  # some text was released
        self._strip = False  # markup was just removed: drop the spaces that followed it
        self._held = ""  # mid-line text that could still become a memory line's date
        self._author_tag: re.Pattern | None = None  # "ChatGPT: " leading the answer
        self._authors: tuple[str, ...] = ()  # their tags, lower case ("chatgpt:")
        self._unquote = False  # an author tag opened a quote: it is not the answer's
        self._quoted = False  # … so a closing quote at the answer's end goes too

    def not_speaking_as(self, authors: Iterable[str]) -> None:
        """The assistants whose imported answers are in the prompt ('I asked ChatGPT: "…"
        It answered: "…"'): an answer that opens as one of them speaking ('ChatGPT: "I'm
        sorry, I can't give legal advice."') quotes words that assistant never said, so the
        tag and its quote marks are removed, as a leading "Assistant:" is."""
        names = sorted({a.strip() for a in authors if a.strip()}, key=len, reverse=True)
        self._authors = tuple(n.lower() + ":" for n in names)
        self._author_tag = (re.compile(r"^\s*(?:" + "|".join(map(re.escape, names))
                                       + r")\s*:\s*", re.IGNORECASE) if names else None)

    def push(self, piece: str) -> str:
        out = []
        for ch in piece:
            if self.done:
                break
            if self._free:
                out.append(self._mid_line(ch))
                continue
            self._line += ch
            out.append(self._decide(final=False))
        return "".join(out)

    def flush(self) -> str:
        """What is still held back at the end of the answer.  A memory line's date cut off
        by the answer's end ("Pixel (today, on 1 Dec") is dropped once it has reached its
        unmistakable ", on " (`_cut_note`); a shorter start ("(today") is text.  So is the
        closing quote of a quote an author tag opened."""
        held, self._held = self._held, ""
        if self.done:
            return ""
        if not self._line:
            if self._quoted and held in _CLOSING_QUOTES:
                return ""
            return "" if _cut_note(_DATE_NOTE, held) else held
        if _cut_note(_DATE_NOTE_LEAD, self._line):
            self._line = ""
            return ""
        return self._decide(final=True)

    def _mid_line(self, ch: str) -> str:
        """A character of a line known not to start as markup: a memory line's date is
        held while it could still be one and dropped once it is whole."""
        if self._quoted and not self._held and ch in _CLOSING_QUOTES:
            self._held = ch  # the end of the quote an author tag opened, if nothing follows
            return ""
        if not self._held and ch not in " (,":  # (most characters: nothing can open here)
            self._free = ch != "\n"
            return ch
        held = self._held + ch
        m = _DATE_NOTE.fullmatch(held, partial=True)
        if m is not None:
            # (a note without brackets may go on: "…; older news, since replaced")
            self._held = held if m.partial or held.endswith(" news") else ""
            return ""
        self._held = ""
        if held.endswith(" news" + ch) and not ch.isalnum():  # (a whole note, no brackets)
            return self._mid_line(ch)
        if len(held) > 1:  # what was held is text after all; `ch` may open a date again
            # (… and so may the space before it: "Freya is 13 (no news)." left "13 ." when
            # " 13 " was held as the start of "13 days ago")
            text = held[:-1]
            if text.endswith(" ") and len(text) > 1:
                return text[:-1] + self._mid_line(" ") + self._mid_line(ch)
            return text + self._mid_line(ch)
        self._free = ch != "\n"
        return ch

    def _decide(self, final: bool) -> str:
        if self._strip:
            self._line = self._line.lstrip(" ")
            if self._unquote:  # 'ChatGPT: "I'm sorry…"' -> "I'm sorry…"
                self._quoted = self._quoted or self._line[:1] in _OPENING_QUOTES
                self._line = self._line.lstrip(" " + _OPENING_QUOTES)
            if not self._line:
                return ""
            self._strip = self._unquote = False
        line = self._line
        m = _ROLE_LINE.match(line)
        if m:
            role = m.group(0).strip(" \t-*•:").lower()
            if not self._any and role in _ROLES_SELF:  # "Assistant: Hello" -> "Hello"
                self._line = line[m.end():]
                self._strip = True
                return self._decide(final) if self._line else ""
            self.done = True  # the model began writing another turn of a transcript
            self._line = ""
            return ""
        tag = None if self._any or self._author_tag is None else self._author_tag.match(line)
        if tag:  # 'ChatGPT: "…"': HeLa's answer, not a quote of another assistant
            self._line = line[tag.end():]
            self._strip = self._unquote = True
            return self._decide(final) if self._line else ""
        m = None if self._any else _ANSWER_TAG.match(line)
        if m:  # "A: Miso is …" -> "Miso is …"
            self._line = line[m.end():]
            self._strip = True
            return self._decide(final) if self._line else ""
        if line.lstrip(" \t-*•").lower().startswith(_MARKUP_PREFIXES[-2:]):
            self.done = True  # it is copying the memory block
            self._line = ""
            return ""
        m = _DATE_LEAD.match(line) or _DATE_NOTE_LEAD.match(line)
        if m:
            self._line = line[m.end():]
            self._strip = True
            return self._decide(final) if self._line else ""
        if not final and not line.endswith("\n") and (
                _could_become_markup(line) or (not self._any and any(
                    a.startswith(line.lstrip().lower()) for a in self._authors))):
            return ""  # hold: this could still be "User:", "(2025-03-" or "ChatGPT:"
        self._line = ""
        self._free = not line.endswith("\n")
        if line.strip():
            self._any = True
        return line


def could_be_markup(text: str) -> bool:
    """Does an answer contain transcript or memory markup (used by `bench personal`'s
    format_leak): a role tag or bracketed date leading a line, a memory line's date?"""
    return any(_ROLE_LINE.match(line) or _DATE_LEAD.match(line) or _DATE_NOTE.search(line)
               for line in text.splitlines() if line.strip())


# what an answer to a message that only asks may not open with (`RepeatGuard.ban_opening`):
# asked one question after another in one chat, the small model opened a third of its
# answers with an apology for a confusion nobody had ("I'm sorry for the ambiguity, …")
# ("I'm so sorry for any confusion" came next, once "I'm sorry" was banned)
APOLOGY_OPENINGS = ("Sorry", "So sorry", "I'm sorry", "I am sorry", "I'm so sorry",
                    "I am so sorry", "I'm really sorry", "I'm very sorry", "I apologize",
                    "I apologise", "My apologies", "Apologies")


def banned_openings(message: str) -> tuple[str, ...]:
    """What an answer to `message` may not open with (`RepeatGuard.ban_opening`): an
    apology when the message only asks (`facts.only_asks`).  (Greetings, and "My" before
    a question about the user's life, were banned too for a while and measured: the
    greeting and the user's voice are where this model recites the memory, and answers
    lost the fact; docs/benchmarks.md, seventeenth session.)"""
    return APOLOGY_OPENINGS if facts.only_asks(message) else ()


class RepeatGuard:
    """No-repeat n-grams: the next token may not complete a run of `n` tokens that already
    stands in an earlier answer (or earlier in this one).  `banned(history)` gives the tokens
    to forbid after the tokens generated so far.  An opening may be banned too
    (`ban_opening`): the answer may not begin with it.

    Saying again what the prompt's memories say is not copying: a token that continues a
    short run of the memory block (`allow`: the last ``allow_context`` tokens and it stand in
    a memory line), or a token of one of its content words (`allow_words`: "Pixel" after
    "Your dog's name is"), is never banned for an earlier answer's sake.  Asked again in a
    new chat "What is my dog called?", the guard had banned " Pixel" after "Your dog is
    called" because an earlier answer said so, and the model named the dog "Puce".  The
    answer's own runs stay banned whatever the memories say: it may not loop."""

    def __init__(self, references: Iterable[Sequence[int]] = (), n: int = 6,
                 allow_context: int = 2):
        self.n = n
        self.k = allow_context
        self._next: dict[tuple[int, ...], set[int]] = {}  # earlier answers' runs
        self._own: dict[tuple[int, ...], set[int]] = {}  # this answer's runs
        self._allowed: dict[tuple[int, ...], set[int]] = {}  # the memory block's runs
        self._words: set[int] = set()  # tokens of the memory block's content words
        self._opening: dict[tuple[int, ...], set[int]] = {}  # openings the answer may not have
        self._opening_len = 0  # the longest banned opening's prefix: no lookup past it
        for ref in references:
            self.add(ref)

    @staticmethod
    def _runs(into: dict[tuple[int, ...], set[int]], tokens: Sequence[int], n: int) -> None:
        toks = list(tokens)
        for i in range(len(toks) - n + 1):
            into.setdefault(tuple(toks[i:i + n - 1]), set()).add(toks[i + n - 1])

    def add(self, tokens: Sequence[int]) -> None:
        """An earlier answer: its runs of `n` may not be completed again."""
        self._runs(self._next, tokens, self.n)

    def allow(self, tokens: Sequence[int]) -> None:
        """A memory line of the prompt: continuing its runs is saying what it says."""
        self._runs(self._allowed, tokens, self.k + 1)

    def allow_words(self, tokens: Iterable[int]) -> None:
        """The tokens of a content word of the memory block: sayable again wherever."""
        self._words.update(tokens)

    def ban_opening(self, tokens: Sequence[int]) -> None:
        """The answer may not begin with `tokens`: their last token is banned right after
        the others (the model says something else from there)."""
        if tokens:
            self._opening.setdefault(tuple(tokens[:-1]), set()).add(tokens[-1])
            self._opening_len = max(self._opening_len, len(tokens) - 1)

    def banned(self, generated: Sequence[int]) -> set[int]:
        opening = (self._opening.get(tuple(generated), set())
                   if self._opening and len(generated) <= self._opening_len else set())
        if len(generated) < self.n - 1:
            return set(opening)
        key = tuple(generated[-(self.n - 1):])
        earlier = self._next.get(key, set())
        if earlier and (self._allowed or self._words):
            earlier = (earlier - self._words
                       - self._allowed.get(tuple(generated[-self.k:]), set()))
        own = self._own.get(key)
        return earlier | (own or set()) | opening if own or opening else earlier

    def push(self, generated: Sequence[int]) -> None:
        """Record the newest n-gram of the answer itself (it may not loop either)."""
        if len(generated) >= self.n:
            self._own.setdefault(tuple(generated[-self.n:-1]), set()).add(generated[-1])


__all__ = ["MEMORY_HEADER", "MAX_ANSWER_CHARS", "answer_excerpt", "user_turn", "relative_day", "calendar_day", "memory_line", "said_when",
           "knowledge_line", "AnswerFilter", "RepeatGuard", "APOLOGY_OPENINGS", "banned_openings", "could_be_markup", "shorten",
           "format_memory", "system_text", "user_content", "user_turn_frame"]
