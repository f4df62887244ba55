"""One chat as Markdown (File ▸ Export chat as Markdown… in the app).

Format::

    # <chat title>

    *Exported from HeLa Desktop on 2026-12-01 14:02; 4 messages.*

    **You** · 2026-12-01 13:58

    <message text>

    **HeLa** · 2026-12-01 13:58 · stopped early

    <answer text, as the model wrote it (Markdown)>

    <!-- hela:notes -->
    > *Noted as a correction of “…”: it is kept, marked as older news.*
    > *Check this answer: …*
    > *Used from your memories: #12 “…” · #4 “…” (older news)*

The notes are the lines the window shows under the answer (`sources.stored_sources`), when
it has any; the HTML comment before them is not shown by a Markdown viewer, and tells the
importer (`importers.hela_markdown`) where the answer ends.
"""

from __future__ import annotations

import time
from pathlib import Path

from .events import FORGET_FOOTER, LISTED_FOOTER, NOT_FROM_MEMORIES
from .paths import write_private_text
from .sources import source_lines, stored_sources
from .words import count

NOTES_MARK = "<!-- hela:notes -->"  # the notes under an answer follow it


def _when(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def messages_markdown(title: str, msgs: list[dict]) -> str:
    """A chat (its title and ``Store.messages()`` rows) as a Markdown document."""
    out = [f"# {title}", "",
           f"*Exported from HeLa Desktop on {_when(time.time())}; {count(len(msgs), 'message')}.*", ""]
    for m in msgs:
        who = "You" if m["role"] == "user" else "HeLa"
        note = _note(m)
        out += [f"**{who}** · {_when(m['created_at'])}{note}", "", m["content"].strip(), ""]
        notes = answer_notes(m.get("stats")) if m["role"] == "assistant" else []
        if notes:
            out += [NOTES_MARK, *(f"> *{n}*" for n in notes), ""]
    return "\n".join(out).rstrip() + "\n"


def _note(m: dict) -> str:
    """What a message's heading adds: an answer stopped early or cut at the longest
    answer's limit (the window says so; the export did not, QA pass 34), a message of the
    user's whose answer they stopped before it began."""
    limit = m["stats"].get("limit") if isinstance(m.get("stats"), dict) else None
    if m.get("interrupted"):
        return " · stopped early" if m["role"] == "assistant" else " · stopped before an answer"
    return f" · stopped at the {limit}-token limit" \
        if m["role"] == "assistant" and isinstance(limit, int) and limit > 0 else ""


def answer_notes(stats) -> list[str]:
    """The lines under a stored answer, as the window shows them: the correction it noted,
    the warnings, the memories it used and the others recalled for it (QA pass 29: an
    exported chat lost every "Check this answer"), every one of them (the window says "and
    2 more (in the timeline)", and a file has no timeline: QA pass 38)."""
    src = stored_sources(stats, limit=None)
    st = stats if isinstance(stats, dict) else {}
    # an answer the app wrote itself says so, as in the window (QA pass 31: the exported
    # list of "What do you know about me?" read as the model's)
    by_app = FORGET_FOOTER if "forget" in st else LISTED_FOOTER if "listed" in st else ""
    lines = [n for n in (by_app[:1].upper() + by_app[1:], src.read_as, src.noted,
                         NOT_FROM_MEMORIES if src.unrecalled else "", src.doubt) if n]
    for head, items in source_lines(src):
        lines.append(f"{head[:1].upper()}{head[1:]}: " + " · ".join(items))
    return [" ".join(line.split()).replace("*", "\\*") for line in lines]


def conversation_markdown(store, conversation_id: int) -> str:
    """The chat `conversation_id` of `store` as a Markdown document."""
    title = store.conversation_title(conversation_id)
    if title is None:
        raise LookupError(f"no conversation {conversation_id}")
    return messages_markdown(title, store.messages(conversation_id))


def write_markdown(title: str, msgs: list[dict], path: str | Path) -> Path:
    """Write a chat already in memory (the window's open chat) to `path`, owner-only
    (QA pass 29b: it was written with the umask's mode, 0644, readable by every user)."""
    path = Path(path)
    write_private_text(path, messages_markdown(title, msgs))
    return path


def export_conversation(store, conversation_id: int, path: str | Path) -> Path:
    """The chat `conversation_id` of `store` written to `path` as Markdown, owner-only."""
    path = Path(path)
    write_private_text(path, conversation_markdown(store, conversation_id))
    return path
