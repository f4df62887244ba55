"""What the forty-sixth pass found, fixed (and what the forty-fifth left open)."""
from __future__ import annotations

import time

from hela_desktop.events import Recall
from hela_desktop.memory import NewEpisode

KARIM = ["Hi, I'm Nadia Haddad and I work in a pharmacy in Cardiff.",
         "Our son Karim is 6 and allergic to sesame.",
         "My husband Omar takes lithium.",
         "Karim turned 7 on Saturday.",
         "Good news: Karim has outgrown his sesame allergy."]


def _told(a, texts: list[str]) -> list[int]:
    now = time.time()
    return a.engine.add_episodes([NewEpisode(t, created_at=now - (len(texts) - i) * 600)
                                  for i, t in enumerate(texts)])


def _admit(a, message: str):
    from hela_desktop.gate import RelevanceGate

    qv = a.engine.embed_query(message)
    return RelevanceGate(a.engine, a.settings.gate).admit(
        message, a.engine.retrieve(message, query_vec=qv, now=time.time()), qv)


def test_what_still_holds_reads_every_stored_correction(make_assistant):
    """QA pass 45e: with only the allergy news recalled, the why-recalled panel read
    "Corrected in part by the newer memory #7; the rest still holds: “Our son Karim is
    6.”", "Karim turned 7 on Saturday." told before it."""
    from hela_desktop.gate import RelevanceGate

    a = make_assistant()
    _, old, _, age, allergy = _told(a, KARIM)
    texts = a.store.key_texts({old, allergy})
    mems = [Recall(episode_id=i, score=1.0, text=texts[i],
                   extra={"statement": True, "gate": "evidence"}) for i in (allergy, old)]
    kept, gone = RelevanceGate(a.engine, a.settings.gate)._supersede(mems, {"karim"})
    (r,) = gone
    assert r.episode_id == old and r.extra["superseded_by"] == allergy
    assert r.extra["corrected_also"] == [age]
    assert "still_true" not in r.extra  # the age and the allergy both replaced
    # one correction only: the rest still holds, as before
    a2 = make_assistant(a.data_dir.parent / "two")
    _, old, _, allergy = _told(a2, KARIM[:3] + KARIM[4:])
    texts = a2.store.key_texts({old, allergy})
    mems = [Recall(episode_id=i, score=1.0, text=texts[i],
                   extra={"statement": True, "gate": "evidence"}) for i in (allergy, old)]
    _, (r,) = RelevanceGate(a2.engine, a2.settings.gate)._supersede(mems, {"karim"})
    assert r.extra["still_true"] == "Our son Karim is 6." and "corrected_also" not in r.extra


def test_a_correction_brought_by_a_name_is_not_older_news(make_assistant):
    """QA pass 45e (twice): "Karim turned 7 on Saturday." came in through Karim's name and
    was listed "(older news)" after "Good news: Karim has outgrown his sesame allergy.",
    both corrections of the same memory."""
    a = make_assistant()
    _, old, _, age, allergy = _told(a, KARIM)
    for ask in ("Does Karim still have a sesame allergy?", "Is Karim allergic to anything?"):
        res = _admit(a, ask)
        by_id = {r.episode_id: r for r in res.admitted}
        assert {old, age, allergy} <= set(by_id)
        assert by_id[old].extra["superseded_by"] == allergy
        assert by_id[age].extra.get("older_than") is None, ask


def test_a_non_answer_leaves_out_the_correction_of_what_was_asked(make_assistant):
    """QA pass 45e (P2, P6): "Is Karim 6?" answered "Today. (present)" read "it leaves out
    what you told me: “Good news: Karim has outgrown his sesame allergy.”": the memory left
    out is the new age."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    a = make_assistant()
    ids = _told(a, KARIM)
    for ask, said in (("Is Karim 6?", KARIM[3]), ("Is Karim allergic to sesame?", KARIM[4])):
        res = _admit(a, ask)
        assert set(ids[1:2] + ids[3:]) <= {r.episode_id for r in res.admitted}
        doubt = answer_doubt(ask, "Today. (present)", res.admitted, set(), a.engine.people_in,
                             user_names=a.engine.user_names())
        assert doubt_note(doubt, [{"episode_id": r.episode_id, "text": r.text}
                                  for r in res.admitted]) \
            == f"Check this answer: it leaves out what you told me: “{said}”", ask


GRACE = "Hello, I'm Grace and my husband Daniel takes lithium."


def test_the_users_statement_said_back_is_no_warning_and_speaks_as_the_user_only(
        make_assistant, seed_dir):
    """The 45th pass's last check (the README's `make run`, a fresh clone): "Can Daniel take
    ibuprofen for his headache?" answered with the statement word for word read "it speaks
    as if it were Daniel (“I'm Grace and”). Also: it speaks as if it were you (“I'm
    Grace”)." (Grace is the user), and naming lithium counted as heeding the caution."""
    from hela_desktop.cautions import cautions, heeded, missed
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    ask = "Can Daniel take ibuprofen for his headache?"
    (c,) = cautions([(1, GRACE)], about={"daniel"})
    assert missed(GRACE, c, ask) and not heeded(GRACE, c, ask)
    # the condition named in words of its own still heeds it
    for answer in ("Best to check with his doctor first, as he takes lithium.",
                   "No, ibuprofen and lithium do not mix."):
        assert heeded(answer, c, ask) and not missed(answer, c, ask), answer
    a = make_assistant(seed_dir([(GRACE, "")]))
    mems = [Recall(episode_id=1, score=1.0, text=GRACE)]
    doubt = answer_doubt(ask, GRACE, mems, {1}, a.engine.people_in, known=GRACE,
                         user_names=a.engine.user_names(), cautions=[c], own_names=("Grace",))
    note = doubt_note(doubt, [{"episode_id": 1, "text": GRACE}])
    assert "as if it were Daniel" not in note
    assert note.startswith("Check this answer: it does not say no to “ibuprofen”"), note


def test_news_is_no_word_an_answer_draws_on():
    """QA pass 45e: "Today. (present) The above-mentioned news is not related to the
    conversation…" read "Used from your memories: “Good news: Karim has outgrown his
    sesame…”", by the word "news" alone."""
    from hela_desktop.edges import used_by_answer

    mems = [(5, KARIM[4]), (4, KARIM[3])]
    ask = "Can Karim have hummus?"
    assert used_by_answer(mems, ask, "Today. (present) The above-mentioned news is not "
                          "related to the conversation.") == set()
    assert used_by_answer(mems, ask, "Yes: he has outgrown his sesame allergy.") == {5}


def test_a_medicine_by_name_is_a_medication_told():
    """One list of medicine names for the checks (older_news and doubt had two, and only
    one knew lithium): "Is Daniel on any medication?" is asked of "…takes lithium"."""
    from hela_desktop.older_news import holds_asked

    assert holds_asked("Is Daniel on any medication?", "My husband Daniel takes lithium.")
    assert holds_asked("Is my dad on any medication?", "My dad takes allopurinol.")
    assert not holds_asked("Is Daniel on any medication?", "My husband Daniel plays chess.")
