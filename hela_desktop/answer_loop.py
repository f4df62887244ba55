"""An answer that starts to say again a sentence it has said ends there (Qt-free).

A local model cannot loop: its no-repeat rule (`prompt.RepeatGuard`) bans, token by token,
a run of six tokens it has written.  A model server's API offers no portable way to ban a
token as it is chosen, and a small model behind one pasted a sentence, or a whole
paragraph, twice (QA pass 22: "You're right, they are not innocent pets anymore. They have
become a burden on their owner…" twice over).  `SentenceLoop` watches the streamed text
instead: while the sentence being written is, word for word so far, the start of one the
answer has already said, it is held back; if it goes on differently it is released as it
was; once it ends as that same sentence (of `MIN_WORDS` words or more), the answer ends
before it.  Sentences end at ".", "!", "?" or a line break.
"""

from __future__ import annotations

import re

MIN_WORDS = 5  # a sentence this long said twice is a loop ("Yes. Yes." is not)
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_ENDS = ".!?\n"
_OPEN = re.compile(r"[^\W_]['’]?$", re.UNICODE)


def _words(text: str) -> tuple[str, ...]:
    return tuple(w.casefold().replace("’", "'") for w in _WORD.findall(text))


def starts_like(part: tuple[str, ...], whole: tuple[str, ...], open_end: bool) -> bool:
    """Is `part` the start of `whole`, word for word, its last word possibly cut short
    (`open_end`: the text may still be inside that word)?"""
    if not part or len(part) > len(whole):
        return False
    if part[:-1] != whole[:len(part) - 1]:
        return False
    last, there = part[-1], whole[len(part) - 1]
    return last == there or (open_end and there.startswith(last))


class SentenceLoop:
    """Feed it the answer's cleaned text (`push`, then `flush` at the end); `done` once the
    answer began a sentence it had said before and finished it."""

    def __init__(self) -> None:
        self.done = False
        self._said: set[tuple[str, ...]] = set()  # the answer's sentences so far
        self._sentence = ""  # the sentence being written
        self._held = ""  # its text held back, while it repeats an earlier one so far

    def push(self, text: str) -> str:
        out: list[str] = []
        for ch in text:
            if self.done:
                break
            self._sentence += ch
            words = _words(self._sentence)
            if ch in _ENDS:
                if len(words) >= MIN_WORDS and words in self._said:
                    self.done, self._held = True, ""  # said again, whole: the answer ends
                    break
                if words:
                    self._said.add(words)
                out.append(self._held + ch)
                self._held, self._sentence = "", ""
                continue
            open_end = _OPEN.search(self._sentence) is not None  # inside a word ("You'")
            if any(starts_like(words, s, open_end) for s in self._said if len(s) >= MIN_WORDS):
                self._held += ch
            else:
                out.append(self._held + ch)
                self._held = ""
        return "".join(out)

    def rewind(self) -> None:
        """Forget what is held: the model is asked again from the text released so far (a
        model server's answer continued after a memory swap) and will write it anew."""
        if self._held:
            self._sentence = self._sentence[:len(self._sentence) - len(self._held)]
            self._held = ""

    def flush(self) -> str:
        """What is held at the answer's end: nothing.  Held text is the start of a sentence
        the answer has said, cut off by the end (the length limit, say): it says nothing
        new, and was never shown."""
        self._held = ""
        return ""


__all__ = ["SentenceLoop", "MIN_WORDS", "starts_like"]
