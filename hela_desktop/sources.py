"""What an answer drew on (Qt-free): the memories named under it, in the window (the
"From your memories" line, `ui.window_status`) and in the terminal chat."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .prompt import shorten


class Sources(NamedTuple):
    """What an answer drew on, for the lines under it (`answer_sources`)."""

    shown: list[tuple[int, str, str]]  # (episode id, the user's words cut short, whole)
    more: int = 0  # memories drawn on beyond those shown
    # the message asked about the user's own life and nothing they said was recalled for it
    unrecalled: bool = False


NO_SOURCES = Sources([])
SOURCES_SHOWN = 4  # memories named under an answer; more are counted
SOURCE_CHARS = 48  # each is cut at a word near here
WHOLE_SOURCE_CHARS = 120  # in the terminal, each on its own line, cut only when longer


def answer_sources(recalls: Iterable[dict], unrecalled: bool = False) -> Sources:
    """What an answer drew on, for the lines under it: the memories (episode id, the user's
    words cut short, whole) from the recalls that were in its prompt (``stats["memories"]``,
    or the live answer's), in order, each memory once, and how many more; `unrecalled` (the
    turn's own finding) holds only when there are none.  Distilled knowledge is left out: it
    restates memories in other words, and the line is about the user's own.  Memories of
    the same words (a statement said twice is two memories) are named once, by the first:
    the line read "“My sister Ana lives in Lisbon” · “My sister Ana lives in Lisbon”"."""
    seen: dict[int, str] = {}
    words: set[str] = set()
    for r in recalls:
        if r.get("kind", "episode") == "episode" and r.get("text"):
            text = " ".join(str(r["text"]).split())
            if r["episode_id"] not in seen and text.casefold() not in words:
                seen[r["episode_id"]] = text
                words.add(text.casefold())
    items = [(i, shorten(t, SOURCE_CHARS), t) for i, t in seen.items()]
    return Sources(items[:SOURCES_SHOWN], max(0, len(items) - SOURCES_SHOWN),
                   unrecalled and not items)


def source_lines(sources: Sources) -> list[str]:
    """The memories drawn on as the terminal prints them, in the user's words: one memory
    on the line itself (``#12 “My sister Ana lives in Lisbon.”``), more one to a line, each
    whole up to `WHOLE_SOURCE_CHARS`.  The window's line cuts each at `SOURCE_CHARS` and
    shows it whole on hover; a terminal has no hover, and the cut often fell on the very
    words that answer ("“My sister Ana is getting married in June in…”")."""
    shown = [f"#{eid} “{shorten(whole, WHOLE_SOURCE_CHARS)}”" for eid, _, whole in sources.shown]
    if sources.more:
        shown.append(f"and {sources.more} more")
    return shown


__all__ = ["Sources", "NO_SOURCES", "SOURCES_SHOWN", "SOURCE_CHARS", "WHOLE_SOURCE_CHARS",
           "answer_sources", "source_lines"]
