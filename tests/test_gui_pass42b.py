"""QA passes 42c and 42d (/work/exp/s42/qa3/NOTES.md, /work/exp/s42/qa4/NOTES.md): window
polish.

- The why-recalled panel of a newer memory said "this one wins and the older one is marked
  as replaced", where the chat says "(older news)" and "it is kept, marked as older news";
  with two older memories it read "Newer than #11, #12, which says …".

pytest-qt offscreen where a widget is needed, no model."""

from __future__ import annotations


# ------------------------------------------------------ the why-recalled panel ------
def test_the_newer_memorys_panel_speaks_of_older_news_as_the_chat_does():
    from hela_desktop.gate import explain

    lines = explain({"gate": "evidence", "supersedes": [8]})
    assert ("Newer than #8, which says something else about the same thing: the model is "
            "given this one first and that one right after it, kept and marked as older "
            "news.") in lines
    assert not any("replaced" in s or "wins" in s for s in lines)
    two = " ".join(explain({"supersedes": [11, 12]}))
    assert "Newer than #11 and #12, which say something else" in two
    assert "those right after it, kept and marked as older news." in two
    part = " ".join(explain({"supersedes": [5], "supersedes_in_part": [5]}))
    assert "kept and marked as partly older news." in part
    mixed = " ".join(explain({"supersedes": [3, 5], "supersedes_in_part": [5]}))
    assert "marked as older news (#5 only in part)." in mixed


def test_the_gate_and_the_panel_know_a_newer_memory_corrects_only_in_part():
    """The gate records which of the memories it replaces the newer one corrects only in
    part; the panel works it out for statistics stored without it."""
    from hela_desktop.config import GateParams
    from hela_desktop.events import Recall
    from hela_desktop.gate import RelevanceGate
    from hela_desktop.ui.explain import recall_reasons, with_still_true

    old = Recall(episode_id=5, text="Chloe's son Oscar is 4 and he's allergic to tree nuts.",
                 score=0.9, semantic=0.8)
    new = Recall(episode_id=14, text="Actually Oscar is 5 now.", score=0.9, semantic=0.8)

    class Store:
        def key_texts(self, ids):
            return {5: old.text, 14: new.text}

    class Engine:
        store = Store()

    RelevanceGate(Engine(), GateParams())._place([new, old], {5: 14}, {5: 1.0, 14: 2.0})
    assert new.extra["supersedes"] == [5] and new.extra["supersedes_in_part"] == [5]
    stored = {"episode_id": 14, "text": new.text, "extra": {"supersedes": [5]}}
    lines = recall_reasons(with_still_true(stored, {5: old.text}.get))
    assert any(s.endswith("kept and marked as partly older news.") for s in lines)
    whole = {"episode_id": 13, "text": "My driving test moved to 10 March.",
             "extra": {"supersedes": [8]}}
    said = {8: "My driving test is on 3 March."}.get
    assert any(s.endswith("kept and marked as older news.")
               for s in recall_reasons(with_still_true(whole, said)))
