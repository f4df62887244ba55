"""Counts and numbers in words, for every message a person reads (Qt-free): "1 memory",
"2 memories"; "eight" read as "8"; and how words are spelt ("Søren" as "Soren", a slip of
the keys)."""

from __future__ import annotations

import re
import unicodedata

# a list item's own number: "1. Baked lamb", "• 3. …" (no number an answer states)
# "1. Baked lamb", "• 3. …"; or in a line, after a sentence: "…condition. 2. You're…" (QA
# pass 48b: "“2” is in none of the memories")
LIST_MARK = re.compile(r"^\s*(?:[-*•·]\s*)?\d+[.)](?=\s)|(?<=[.!?:])[ \t]+\d{1,2}[.)](?=[ \t]+(?:\*\*|[A-Z]))",
                       re.M)


def count(n: int, one: str, many: str | None = None) -> str:
    """`n` and its noun, singular for exactly one: ``count(1, "chat")`` is "1 chat",
    ``count(3, "memory", "memories")`` is "3 memories" (default plural: `one` + "s")."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def one_slip(a: str, b: str) -> bool:
    """Are `a` and `b` one slip of the keys apart: a letter left out, added or changed, or
    two neighbours swapped?  ``one_slip("andres", "anders")`` and ``one_slip("tomas",
    "tomasz")`` hold; ``one_slip("anna", "anna")`` does not (no slip at all)."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) < len(b):
        return a[i:] == b[i + 1:]
    return a[i + 1:] == b[i + 1:] or (i + 1 < len(a) and a[i] == b[i + 1]
                                      and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:])


def folded(word: str) -> str:
    """`word` without accents ("kraków" → "krakow"), letters of their own written as
    English does ("søren" → "soren", "łukasz" → "lukasz", "straße" → "strasse")."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.translate(_LETTERS))
                   if not unicodedata.combining(c))


# letters no accent is taken off of (NFKD leaves them whole)
_LETTERS = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d",
                          "þ": "th", "ð": "d", "ı": "i"})


def size_words(n: int) -> str:
    """A file's size as a person reads it: "0.2 MB" from 100 kB on, else "12 kB"."""
    return f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{max(1, round(n / 1e3))} kB"


def memory_ref(text: str | None) -> int | None:
    """The memory id a search names as the app writes it ("#12", or "12" after "#" with
    spaces around), else None: ``memory_ref(" #12 ")`` is 12, ``memory_ref("12")`` None."""
    t = (text or "").strip()
    digits = t[1:].strip()
    if not t.startswith("#") or not digits.isascii() or not digits.isdecimal() or len(digits) > 18:
        return None  # 19 digits could pass SQLite's integers
    return int(digits)


def snippet(text: str, words: list[str], width: int = 90) -> str:
    """The part of `text` around the first of `words` found in it (case aside), on one
    line, at most about `width` characters, with "…" where it is cut:
    ``snippet("a b c lisbon d", ["Lisbon"], 8)`` is "…c lisbon…"."""
    flat = " ".join(text.split())
    low = flat.casefold()
    at = min((i for i in (low.find(w.casefold()) for w in words if w) if i >= 0), default=0)
    start = max(0, at - width // 3)
    if start:  # from a word's start
        space = flat.rfind(" ", 0, start + 1)
        start = space + 1 if space >= 0 and at - space < width // 2 else start
    end = min(len(flat), start + width)
    return ("…" if start else "") + flat[start:end].strip() + ("…" if end < len(flat) else "")


# a note's link to another ("[[Wren]]", "[[Bouldering#Current project]]", "[[Wren|her]]")
_WIKI_LINK = re.compile(r"\[\[([^\[\]|#\n]*)(?:#([^\[\]|\n]*))?(?:\|([^\[\]\n]*))?\]\]")


def _link_text(m: re.Match) -> str:
    note, heading, alias = (g.strip() if g else "" for g in m.groups())
    return alias or " › ".join(x for x in (note, heading) if x) or m.group(0)


def one_line(text: str) -> str:
    """`text` on one line, its paragraphs kept apart: a paragraph that ends without a
    sentence's mark (a note's title, a heading) is followed by " — ", the others by a
    space.  "Noa\\n\\nMy sister." read "Noa My sister." and the model took Noa for her.  A
    note's links read as their words ("[[Bouldering#Current project]]": "Bouldering ›
    Current project"; QA pass 33 saw the brackets in answers' lines)."""
    paras = [" ".join(p.split()) for p in re.split(r"\n[ \t\r]*\n", _WIKI_LINK.sub(
        _link_text, text or ""))]
    out = ""
    for p in filter(None, paras):
        if out:
            out += " " if out[-1] in ".!?:;…)\"”'’»" else " — "
        out += p
    return out


def sentence(text: str) -> str:
    """`text` ended as a sentence: "connection refused" → "connection refused.", and a text
    that ends with "?", "!" or "." as it is."""
    text = text.strip()
    return text if not text or text[-1] in ".?!…" else text + "."


# Control characters no memory needs: C0 but tab and newline, DEL, C1, and the bidi
# overrides that turn the rest of a line round ("nul desrever").  An imported memory
# holding "\x1b[2J" cleared the terminal `memories show` printed it to, and the window
# drew BEL and ESC as boxes (QA pass 21).
_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_]?)")
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202d\u202e]")


def printable(text: str) -> str:
    """`text` without control characters (`_CONTROLS`): a terminal's escape sequence goes
    whole ("\\x1b[31mred" → "red"), a carriage return becomes a line break ("\\r\\n" one),
    the rest go.  Text without any is returned as it is (a fast check)."""
    if _CONTROLS.search(text) is None:
        return text
    text = _ESCAPES.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    return _CONTROLS.sub("", text)


def terminal_safe(text: str) -> str:
    """`text` for a terminal: each control character but tab and newline shown as a
    caret pair, as ``cat -v`` does ("\\x1b[2J" → "^[[2J"), so that words read from a
    store written before `printable` cannot move the cursor or clear the screen."""
    if _CONTROLS.search(text) is None:
        return text
    return _CONTROLS.sub(lambda m: _caret(m.group()), text.replace("\r\n", "\n"))


def _caret(ch: str) -> str:
    n = ord(ch)
    return f"^{chr(n + 64)}" if n < 32 else "^?" if n == 127 else f"<U+{n:04X}>"


# the number words: "zero" to "nineteen" (in order), and the tens
UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
         "fourteen fifteen sixteen seventeen eighteen nineteen").split()
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90}
_SPELLED = re.compile(rf"\b(?:({'|'.join(TENS)})(?:[- ]({'|'.join(UNITS[1:10])}))?"
                      rf"|({'|'.join(UNITS)}))\b", re.IGNORECASE)


def spelled_numbers(text: str) -> set[str]:
    """The numbers `text` spells out, as figures ("eight" → "8", "twenty-one" → "21"): an
    answer's "8" is what a memory's "eight" said (QA pass 31: "8 years" was marked made up
    beside "Our son Bruno is eight")."""
    out = set()
    for m in _SPELLED.finditer(text):
        tens, unit, alone = m.group(1), m.group(2), m.group(3)
        n = TENS[tens.lower()] + (UNITS.index(unit.lower()) if unit else 0) if tens \
            else UNITS.index(alone.lower())
        out.add(str(n))
    return out


def listed(parts: list[str]) -> str:
    """"A", "A and B", "A, B and C" ("" for none)."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1] \
        if parts else ""
