"""What the forty-third pass (and the items pass 42 left open) found, fixed."""
from __future__ import annotations

import re

from hela_desktop.events import Recall

_PEOPLE = {"grace", "kwame", "efua", "kofi", "ama", "pepper", "abena"}


def _names(text: str) -> set[str]:
    """The people of the user's life a text names, lower case (as
    `MemoryEngine.people_in` gives them)."""
    return {w.lower() for w in re.findall(r"[A-Z][a-z]+", text) if w.lower() in _PEOPLE}


def _recalls(*texts: tuple[int, str]) -> list[Recall]:
    return [Recall(episode_id=i, score=1.0, text=t, extra={}) for i, t in texts]


def _note(ask: str, answer: str, mems: list[Recall], drew: set[int] | None = None,
          cautions: list | None = None, own: list[str] | None = None) -> str:
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    # (the prompt holds the memories given: `known`)
    return doubt_note(answer_doubt(ask, answer, mems, drew or set(), _names,
                                   known="\n".join(r.text for r in mems),
                                   cautions=cautions or [], own_names=own or []), [])


_CHOIR = (9, "I sing in the church choir every Sunday.")
_WARFARIN = (2, "I take warfarin for my heart.")
_PEPPER = (8, "I have a cat called Pepper.")


def test_what_day_asked_and_no_day_given_is_marked():
    """QA pass 42g: "What day is choir?" answered "The church choir is a musical term…
    (from the Latin word “coryphae”)", never saying Sunday, had no line: only "when"
    questions were read for a date left out, and only those about the user's life."""
    mems = _recalls(_CHOIR)
    said = f"Check this answer: it leaves out what you told me: “{_CHOIR[1]}”"
    for ask in ("What day is choir?", "Which day is choir?", "When is choir?"):
        assert _note(ask, "The church choir is a musical term from the Latin word "
                     "coryphae.", mems) == said, ask
        # a day given, right or not, is no day left out
        assert "leaves out" not in _note(ask, "Choir is on Sunday.", mems, {9})
    assert "leaves out" not in _note("What day is choir?", "Choir is on Saturday.", mems)
    # a question the memory does not hold every word of is not asked of it
    assert "leaves out" not in _note("What day is the bin collection?",
                                     "Bins are collected weekly.", mems)


def test_alcohol_and_the_juices_named_for_warfarin_are_cautioned():
    """QA pass 42g: "Can I have a glass of red wine?" answered "You can have a glass of red
    wine today." had no caution, warfarin told; aspirin was the only thing cautioned."""
    from hela_desktop.cautions import cautions

    told = cautions([_WARFARIN])
    assert {"wine", "beer", "cranberry", "grapefruit", "aspirin"} <= told[0].avoid
    mems = _recalls(_WARFARIN)
    note = _note("Can I have a glass of red wine?", "You can have a glass of red wine today.",
                 mems, cautions=told)
    assert note == ("Check this answer: it names “wine” without a word of warning, and you "
                    f"told me “{_WARFARIN[1]}”"), note
    assert _note("Can I drink cranberry juice?", "Yes, cranberry juice is good for you.",
                 mems, cautions=told).startswith("Check this answer: it names “cranberry”")
    # a warning is heeded; a blood thinner not taken cautions nothing
    assert _note("Can I have a glass of red wine?", "Avoid red wine, as alcohol changes how "
                 "warfarin works.", mems, {2}, told) == ""
    assert cautions([(3, "My neighbour asked about warfarin.")]) == []


def test_a_pets_name_misread_is_no_name_for_the_user():
    """QA pass 42g: "I have a cat called Pepper." answered "Piper, my 7-year-old cat, loves
    the outdoors." read "it calls you “Piper”, and your name is Grace Mensah."; the model
    misread the cat's name, it did not call Grace so."""
    from hela_desktop.name_index import misread
    from hela_desktop.whom import greets_as

    assert misread("Piper", ["pepper"]) and misread("Peper", ["pepper"])
    assert not misread("Sara", ["pepper"]) and not misread("Kiper", ["pepper"])
    yours = ["Grace", "Mensah"]
    for ask, mems in ((_PEPPER[1], []), ("Tell me about my cat.", _recalls(_PEPPER))):
        assert greets_as(ask, "Piper, my 7-year-old cat, loves the outdoors.", mems, _names,
                         yours) is None, ask
    # another name is still another name
    assert greets_as(_PEPPER[1], "Sara, your cat loves the outdoors.", [], _names,
                     yours)["said"] == "Sara"
    assert "calls you" not in _note(_PEPPER[1], "Piper, my 7-year-old cat, loves the "
                                    "outdoors.", [], own=yours)


def test_a_move_and_a_new_post_each_replace_their_own_part(make_assistant):
    """QA pass 42g, with the real gate: "My daughter Efua lives in London and teaches at a
    primary school." was all older news after "Efua moved from London to Leeds last
    month.", and "Efua is now the headteacher at her school." corrected nothing (no
    "now the" among the cues a correction is looked up by).  Each now replaces its own
    part, and the two together the whole memory, in the answer's lists and the Memories
    tab alike."""
    from hela_desktop import superseded
    from hela_desktop.session import BrowseQuery, browse

    efua = "My daughter Efua lives in London and teaches at a primary school."
    moved, head = "Efua moved from London to Leeds last month.", \
        "Efua is now the headteacher at her school."
    assert superseded.told_parts(efua) == ["My daughter Efua lives in London",
                                           "teaches at a primary school."]
    assert superseded.still_true(efua, [moved]) == "My daughter Efua teaches at a primary school."
    assert superseded.still_true(efua, [head]) == "My daughter Efua lives in London."
    assert superseded.still_part(efua, [head, moved]) == {}
    a = make_assistant()
    a.settings.max_answer_tokens = 4
    cid = a.new_conversation()
    notes = {}
    for said in ("Hello, I'm Grace Mensah, a retired midwife living in Birmingham.", efua,
                 moved, head):
        list(a.chat(said, cid))
        notes[said] = a.store.messages(cid)[-1]["stats"].get("corrects", [])
    assert [c["episode_id"] for c in notes[head]] == [2], notes
    # the Memories tab: the newest correction, nothing of the memory left true
    rows = browse(a.store, BrowseQuery(tab="memories"))["corrected"]
    assert rows[2][1:] == (head, ""), rows
    list(a.chat("What does Efua do?", cid))
    marks = {m["episode_id"]: m.get("extra", {}) for m in
             a.store.messages(cid)[-1]["stats"]["memories"]}
    assert marks[2].get("superseded_by") is not None and not marks[2].get("still_true"), marks
