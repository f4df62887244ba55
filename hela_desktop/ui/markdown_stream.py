"""A tiny streaming Markdown formatter that keeps track of which token wrote each character.

Handles what small chat models write: ``**bold**``, ```inline code```, fenced code blocks,
``#`` headings and ``-``/``*`` bullets, and the few HTML tags they write as if the chat
were a web page (``<br>``, ``<p>``, ``<strong>``…: a line break, bold, or nothing, not the
tag as text; QA pass 46d, a birthday card in raw HTML).  Markers are hidden; every output
character keeps the index of the token it came from, so the chat can map hovers back to
tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# the tags read as formatting (their attributes, styles included, dropped); any other
# "<…>" stays as written
_TAG = re.compile(r"<(/?)(br|p|div|span|strong|b|em|i|u|font|h[1-6])\b[^<>]*?/?>\Z", re.IGNORECASE)
_LINE_TAGS = frozenset({"br", "p", "div"})
_BOLD_TAGS = frozenset({"strong", "b"})
TAG_HELD = 160  # the longest "<…" held back while it may still be a tag


@dataclass(frozen=True)
class Style:
    bold: bool = False
    code: bool = False  # inline code
    block: bool = False  # fenced code block
    heading: int = 0
    lang: str = ""  # a fenced block's language tag (```python)


class MarkdownStream:
    """Feed ``(text, token index)`` pieces; get ``(text, Style, token index)`` segments."""

    def __init__(self) -> None:
        self.bold = False
        self.code = False
        self.block = False
        self.fence = 0  # the backticks that opened the fenced block
        self.heading = 0
        self.line_start = True
        self.skip_line = False
        self.eat_space = False
        self.run_char = ""
        self.run: list[int] = []
        self.lang = ""
        self.tag: list[tuple[str, int]] = []  # a "<…" held while it may be an HTML tag
        # segments as (pieces of text, style, token): joined once when handed out (an
        # imported answer of megabytes is one token; adding to a string each character
        # took a minute)
        self._out: list[tuple[list[str], Style, int]] = []

    def _style(self) -> Style:
        return Style(self.bold, self.code, self.block, self.heading, self.lang if self.block else "")

    def _emit(self, text: str, tok: int) -> None:
        style = self._style()
        if self._out and self._out[-1][1] == style and self._out[-1][2] == tok:
            self._out[-1][0].append(text)
        else:
            self._out.append(([text], style, tok))
        for c in text:
            if c == "\n":
                self.line_start = True
                self.heading = 0
            else:
                self.line_start = False

    def _resolve(self, nxt: str) -> None:
        ch, toks = self.run_char, self.run
        n = len(toks)
        self.run_char, self.run = "", []
        literal = True
        if ch == "`":
            # a fence closes only at least as long as the one that opened it: a Markdown
            # document in a ```` block keeps its own ``` blocks (Claude's artifacts)
            if n >= 3 and self.line_start and (not self.block or n >= self.fence):
                self.block = not self.block
                self.fence = n if self.block else 0
                self.code = False
                self.lang = ""
                self.skip_line = True  # language tag / rest of the fence line
                return
            if not self.block and n == 1:
                self.code = not self.code
                return
        elif ch == "*" and not (self.code or self.block):
            if n == 2:
                self.bold = not self.bold
                return
            if n == 1 and self.line_start and nxt == " ":
                self._emit("•", toks[0])
                return
        elif ch == "-" and not self.block and n == 1 and nxt == " ":
            self._emit("•", toks[0])
            return
        elif ch == "#" and not self.block and n <= 6 and nxt == " ":
            self.heading = n
            self.line_start = False
            self.eat_space = True
            return
        if literal:
            for t in toks:
                self._emit(ch, t)

    def _tag_char(self, c: str, tok: int) -> None:
        """One more character of a held "<…": a known tag when ">" closes it, else the
        characters as written (a "<" that opens no tag: "a < b", "<3")."""
        self.tag.append((c, tok))
        if c == ">":
            held, self.tag = self.tag, []
            m = _TAG.match("".join(ch for ch, _ in held))
            if m is None:
                self._release(held)
                return
            closing, name = bool(m.group(1)), m.group(2).lower()
            if name in _LINE_TAGS and not (self.line_start and name != "br"):
                self._emit("\n", held[0][1])
            elif name in _BOLD_TAGS:
                self.bold = not closing
            return
        if c in "<\n" or len(self.tag) > TAG_HELD or (len(self.tag) == 2 and not (c.isalpha() or c == "/")):
            held, self.tag = self.tag, []
            self._release(held)

    def _release(self, held: list[tuple[str, int]]) -> None:
        """Characters held as a possible tag, as written: the "<" itself, the rest read
        as any other text (a "<" among them may open a tag of its own)."""
        self._emit(held[0][0], held[0][1])
        for ch, t in held[1:]:
            self._char(ch, t)

    def _char(self, c: str, tok: int) -> None:
        if self.tag:
            self._tag_char(c, tok)
            return
        if self.skip_line:
            if c == "\n":
                self.skip_line = False
                self.line_start = True
                self.lang = self.lang.strip() if self.block else ""
            elif self.block:
                self.lang += c
            return
        if self.run_char:
            if c == self.run_char:
                self.run.append(tok)
                return
            self._resolve(c)
            if self.skip_line:
                self._char(c, tok)
                return
        if self.eat_space:
            self.eat_space = False
            if c == " ":
                return
        if c == "<" and not (self.code or self.block):
            self.tag = [(c, tok)]
            return
        if c in "*`" or (self.line_start and c in "-#"):
            self.run_char, self.run = c, [tok]
            return
        self._emit(c, tok)

    def feed(self, text: str, tok: int) -> list[tuple[str, Style, int]]:
        """Format one token's text; returns the segments ready to show now."""
        self._out = []
        for c in text:
            self._char(c, tok)
        return self._segments()

    def _segments(self) -> list[tuple[str, Style, int]]:
        return [("".join(parts), style, tok) for parts, style, tok in self._out]

    def flush(self) -> list[tuple[str, Style, int]]:
        """End of the answer: release any held marker characters."""
        self._out = []
        if self.tag:
            held, self.tag = self.tag, []
            self._release(held)
            if self.tag:  # (a "<" among them held again: the answer ends, so as written)
                held, self.tag = self.tag, []
                for ch, t in held:
                    self._emit(ch, t)
        if self.run_char:
            self._resolve("")
        return self._segments()


def format_all(pieces: list[tuple[str, int]]) -> list[tuple[str, Style, int]]:
    """Format a whole answer given as ``(text, token index)`` pieces."""
    md = MarkdownStream()
    out: list[tuple[str, Style, int]] = []
    for text, tok in pieces:
        out.extend(md.feed(text, tok))
    out.extend(md.flush())
    return out
