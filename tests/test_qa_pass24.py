"""What the twenty-fourth pass changed below the window: a memory that a name brought
along with older news is older news too, and the why-recalled panel names the memory an
association came with."""

from __future__ import annotations

from hela_desktop.gate import RelevanceGate, explain
from hela_desktop.memory import NewEpisode

DAY = 86400.0
T0 = 1_750_000_000.0

LYON = "My sister Ines lives in Lyon and works as a nurse."
FLAT = "Ines sent me photos of the balcony garden at her flat."
KITCHEN = "I repainted the kitchen a pale green."
PORTO = "Actually my sister moved to Porto last month."


def _admit(a, message: str, now: float):
    gate = RelevanceGate(a.engine, a.settings.gate)
    qv = a.engine.embed_query(message)
    return gate.admit(message, a.engine.retrieve(message, query_vec=qv, now=now), qv)


def _said(a, texts):
    return a.engine.add_episodes([NewEpisode(t, created_at=T0 - (len(texts) - i) * 5 * DAY)
                                  for i, t in enumerate(texts)])


def test_what_a_name_brings_with_older_news_is_older_too(make_assistant):
    """`bench personal` (0.15) showed a memory that a name brought along with an old one
    go to the model unmarked.  Here "Where does my sister live?" lets in "… Ines lives in
    Lyon …", marked older than "Actually my sister moved to Porto", and her name brings
    "Ines sent me photos of the balcony garden at her flat." — the Lyon flat, said before
    the move.  It is older news too, and comes after the news of the move (it came first,
    unmarked, and read as where she lives now)."""
    a = make_assistant()
    lyon, flat, _kitchen, porto = _said(a, [LYON, FLAT, KITCHEN, PORTO])
    res = _admit(a, "Where does my sister live?", T0)
    by_id = {r.episode_id: r for r in res.admitted}
    seen = [(r.episode_id, r.extra.get("gate"), r.extra.get("older_than")) for r in res.admitted]
    assert {lyon, flat, porto} <= set(by_id), seen
    assert by_id[lyon].extra.get("older_than") == porto
    assert by_id[flat].extra["gate"] == "association", seen  # (what this test is about)
    assert by_id[flat].spread_from == lyon and by_id[flat].extra["via"] == lyon
    assert by_id[flat].extra.get("older_than") == porto, seen
    ids = [r.episode_id for r in res.admitted]
    assert ids.index(porto) < ids.index(flat)  # the news before the old story


def test_newer_company_is_not_marked_older(make_assistant):
    """The rule is about time: what the name brings that was said after the news stays
    unmarked (it may be the newest word of all)."""
    a = make_assistant()
    lyon, _kitchen, porto, flat = _said(a, [LYON, KITCHEN, PORTO, FLAT])
    res = _admit(a, "Where does my sister live?", T0)
    company = next((r for r in res.admitted if r.episode_id == flat), None)
    assert company is not None
    assert company.extra.get("older_than") is None, company.extra


def test_the_panel_names_the_memory_an_association_came_with():
    """QA pass 23: "Came in with a related memory: both mention “ines”." did not say
    which memory, and wrote the name in lower case."""
    extra = {"gate": "association", "via_name": "ines", "via": 12}
    assert explain(extra, lambda i: {12: "My sister Ines lives in Lyon…"}[i]) == [
        "Came in with memory #12 (“My sister Ines lives in Lyon…”): both mention “Ines”."]
    assert explain(extra) == ["Came in with memory #12: both mention “Ines”."]
    # a memory recalled before 0.16 kept no "via"
    assert explain({"gate": "association", "via_name": "ines"}) == [
        "Came in with a related memory: both mention “Ines”."]
