"""Why a memory was recalled, in plain sentences (Qt-free): the gate's decisions about one
memory (`explain`), as the why-recalled panel and the terminal show them, and the words
the gate marks a memory with (`YOUR_OWN_GATE`)."""

from __future__ import annotations

from collections.abc import Callable

from . import cautions
from . import superseded as STILL  # noqa: N812  (as the gate names it)

# under this similarity a memory is "not much related in meaning" to the message (the
# why-recalled panel's words, `ui.explain.MEANING_WORDS`)
LOOSE = 0.25
YOUR_OWN_GATE = "what you told me of your own"


def _capital(name: str) -> str:
    return name[:1].upper() + name[1:]


# why a memory a question of its kind brings first came in (a caution's read "Not used:
# what you told me must not be eaten or drunk.", under a memory the prompt held, in 0.31)
_CAME_IN = {
    "about you": "Came in because you asked what I know about you: your pinned and most "
                 "recalled memories come first.",
    # (QA pass 50a read "what you told me must not be taken" as garbled)
    cautions.CAUTION_GATE: "Came in because you asked about food, drink or a medicine: what "
                           "you told me to avoid comes first.",
    YOUR_OWN_GATE: "Came in because you asked about your own home, job or age: what you "
                   "told me of it comes first.",
}


def explain(extra: dict, label_of: Callable[[int], str] | None = None) -> list[str]:
    """The gate's decisions about one recalled memory, in plain sentences (for the
    why-recalled panel; `label_of`: a memory's short text, to name the one it came with)."""
    out = []
    sim, bar = extra.get("similarity"), extra.get("bar")
    gate = extra.get("gate")
    if gate == "evidence" and sim is not None and bar is not None:
        kind = "a message about you" if extra.get("personal") else "this request"
        # ("my husband" is the user's: "names your husband", not "names “My husband”",
        # QA pass 35)
        named = [f"your {n[3:]}" if n.startswith("my ") else f"“{_capital(n)}”"
                 for n in map(str, extra.get("named") or [])]
        if named:
            kind = "a message that names " + " and ".join(named[:2])
        elif extra.get("answered_by") and not extra.get("statement"):
            kind = "the subject of this message"
        if sim < LOOSE:  # ("not much related in meaning", the panel says just before)
            out.append(f"Still given to the model: {kind} needs only {bar:.2f} similarity, "
                       f"and it has {sim:.2f}.")
        else:
            out.append(f"Close enough to {kind} to be given to the model (similarity "
                       f"{sim:.2f}, needed {bar:.2f}).")
    if extra.get("answered_by") and extra.get("answer") and gate in ("evidence", "association"):
        out.append(f"Shown to the model with the start of {extra['answered_by']}'s imported "
                   "answer, as what that assistant said, not as your words.")
    elif gate == "association":
        via = extra.get("via")
        label = label_of(int(via)) if label_of is not None and via is not None else ""
        memory = (f"memory #{via}" + (f" (“{label}”)" if label else "")
                  if via is not None else "a related memory")
        out.append(f"Came in with {memory}: both mention “{_capital(str(extra.get('via_name', '')))}”.")
    elif gate in _CAME_IN:
        out.append(_CAME_IN[gate])
    elif gate == "newer news":
        out.append(f"Came in with the older memory #{extra.get('newer_than')}: it is newer news "
                   "of the same thing, so the model does not take the old one as current.")
    elif gate and gate != "evidence":  # (evidence was used: said above)
        out.append(f"Not used: {gate}.")
    if extra.get("supersedes"):
        out.append(STILL.newer_line(extra["supersedes"], extra.get("supersedes_in_part") or ()))
    if extra.get("superseded_by") is not None:  # (or corrected in part, `replaced_line`)
        out.append(STILL.replaced_line(extra["superseded_by"], extra.get("still_true")))
    if extra.get("answer_replaced"):
        out.append(f"Shown without {extra.get('answered_by') or 'the other assistant'}'s "
                   "imported answer: your newer words replace what it said.")
    if extra.get("older_than") is not None and extra.get("superseded_by") is None:
        out.append(f"Older than #{extra['older_than']}, which may have newer news; marked as "
                   "older in the prompt.")
    return out


__all__ = ["LOOSE", "YOUR_OWN_GATE", "explain"]
