"""What the forty-ninth pass found, fixed (QA passes 49a, Tomás Ruiz, and 49b, Grace
Okafor), and what pass 48 left open."""
from __future__ import annotations

CATS = "We have two cats, Miso and Tofu."
MEERA = "My sister Meera's wedding is on 21 August."


def _recall(eid: int, text: str, **extra):
    from hela_desktop.events import Recall

    return Recall(episode_id=eid, score=1.0, text=text, extra={"statement": True, **extra})


def _names(text: str) -> set[str]:
    return {n for n in ("miso", "tofu", "meera") if n in text.lower()}


def test_pets_asked_for_in_the_plural_are_named_by_their_names():
    """Pass 48's data: "Your cats are Miso and Tofu." to "What are my cats called?" read "it
    calls your cats “Miso”, the name of your cat" ("my cats" matched no "cat")."""
    from hela_desktop.whom import misnamed

    mems = [_recall(1, CATS), _recall(2, MEERA)]
    ask = "What are my cats called?"
    for right in ("Your cats are Miso and Tofu.", "You have two cats, Miso and Tofu."):
        assert misnamed(ask, right, mems, _names) is None, right
    d = misnamed(ask, "Your cats are called Meera.", mems, _names)
    assert d and d["said"] == "Meera" and d["of"] == "your sister"
