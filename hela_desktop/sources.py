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


def sources_line(sources: Sources, ids: bool = False) -> str:
    """The memories drawn on as one line of plain text: “…” · “…” · and 2 more; with
    `ids`, each led by its number ("#12 “My sister Ana lives in Lisbon”"), as the terminal
    names memories."""
    shown = [f"#{eid} “{label}”" if ids else f"“{label}”" for eid, label, _ in sources.shown]
    if sources.more:
        shown.append(f"and {sources.more} more")
    return " · ".join(shown)


__all__ = ["Sources", "NO_SOURCES", "SOURCES_SHOWN", "SOURCE_CHARS", "answer_sources",
           "sources_line"]
