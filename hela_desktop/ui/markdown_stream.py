"""A tiny streaming Markdown formatter that keeps track of which token wrote each character.

Handles what small chat models write: ``**bold**``, ```inline code```, fenced code blocks,
``#`` headings and ``-``/``*`` bullets.  Markers are hidden; every output character keeps
the index of the token it came from, so the chat can map hovers back to tokens.
"""

from __future__ import annotations

from dataclasses import dataclass


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

    def _char(self, c: str, tok: int) -> None:
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
