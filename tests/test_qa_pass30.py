"""QA pass 29 and the thirtieth pass (4 December 2026): what a person met and this pass
fixed."""

from __future__ import annotations

from hela_desktop import facts

T0 = 1_780_000_000.0


# ---- "… instead of …" corrects (`facts.corrects`, `facts.negated`) ---------------------

def test_instead_of_and_rather_than_say_what_is_no_longer_so():
    # QA pass 29: "…May instead of June" moved the trip and nothing was marked
    moved = "We now fly to Lisbon in May instead of June."
    assert facts.corrects(moved) and facts.negated(moved) == facts.stems("June")
    tea = "I drink tea rather than coffee these days."
    # when the new state holds is not what is denied
    assert facts.corrects(tea) and facts.negated(tea) == facts.stems("coffee")
    assert facts.negated("Asha turned 7, so she is not 6 any more.") == ["6"]
    # asked, not told: no correction of anything
    assert not facts.corrects_memory("We fly to Lisbon in June.",
                                     "Can we fly to Lisbon in May instead of June?")


def test_a_move_said_with_instead_of_is_confirmed_as_a_correction(make_assistant):
    """Through the real turn path and model: the answer to the move names the plan it
    replaces, and a statement that only shares a word with an unrelated memory does not."""
    a = make_assistant()
    cid = a.new_conversation()
    june = "We fly to Lisbon on 14 June for my sister's wedding."
    told = list(a.chat(june, cid, now=T0))[-1]
    work = list(a.chat("I work at the bakery on Elm Street.", cid, now=T0 + 60))[-1]
    done = list(a.chat("The wedding moved, so we fly to Lisbon in May instead of June.", cid,
                       now=T0 + 120))[-1]
    assert done.corrects == [{"episode_id": told.episode_id, "text": june}]
    other = list(a.chat("I walk to work instead of driving.", cid, now=T0 + 180))[-1]
    assert work.episode_id not in [c["episode_id"] for c in other.corrects]
    # the store's reading (older news in retrieval and prompts) is the same
    from hela_desktop.knowledge import corrections

    assert corrections(a.store, {told.episode_id, work.episode_id}) == {
        told.episode_id: done.episode_id}
    assert facts.corrected_words("I walk to work instead of driving.") == frozenset(
        facts.stems("driving"))
    assert facts.said_words("We fly on 14 June.") >= {"14", *facts.stems("June")}


# ---- a chat's Markdown export read back (`importers.hela_markdown`) ----------------------

def _episodes(store) -> list[tuple[str, str]]:
    # (deleted ones too: "Forget that …" moves a memory to the trash)
    return [(u, s) for u, s in store.conn.execute(
        "SELECT user_text, source FROM episodes ORDER BY id").fetchall()]


def test_a_chat_export_read_back_stores_nothing_twice(make_assistant, tmp_path, embedder):
    """QA pass 29: importing a chat's own Markdown export into the folder it came from
    stored every exchange a second time, and HeLa's list of your memories became a memory.
    Through the real turn path, export and import: what is here stays out, counted, and
    what HeLa answered itself (the list, a request to forget) is never a memory."""
    import pytest

    from hela_desktop.chat_export import export_conversation
    from hela_desktop.importers.base import describe
    from hela_desktop.memfile.format import MemoryFileError
    from hela_desktop.memfile.importing import import_file

    a = make_assistant()
    cid = a.new_conversation()
    for said in ("My brother Karel is a dentist in Utrecht.", "I have a cat called Pepper.",
                 "What do you know about me?", "Forget that I have a cat."):
        list(a.chat(said, cid))
    assert [u for u, _ in _episodes(a.store)] == [
        "My brother Karel is a dentist in Utrecht.", "I have a cat called Pepper."]
    one = export_conversation(a.store, cid, tmp_path / "one.md")
    chats = len(a.store.conversations())
    rep = import_file(a.store, one, embedder=embedder)  # into its own folder: all here
    assert sum(rep.added.values()) == 0 and rep.embedded == 0
    assert describe(rep.details) == (
        "HeLa Desktop chat export: 0 conversations, 0 exchanges; 5 left out (1 list of your "
        "memories made by HeLa, 1 request to forget, done by HeLa, 1 message you asked HeLa "
        "to forget, 1 exchange in this memory already, 1 conversation in this memory already)")
    assert len(_episodes(a.store)) == 2 and len(a.store.conversations()) == chats
    # an export holding nothing else to import still says why
    (tmp_path / "asked.md").write_text(one.read_text().split("**You**")[0] + "**You**"
                                       + one.read_text().split("**You**")[3], "utf-8")
    with pytest.raises(MemoryFileError) as err:
        import_file(make_assistant(tmp_path / "third").store, tmp_path / "asked.md",
                    embedder=embedder)
    assert "nothing to import in this HeLa Desktop chat export (1 list of your memories" \
        in str(err.value)

    # into another folder: the statement, not the list, the request, nor what it deleted
    b = make_assistant(tmp_path / "other")
    rep = import_file(b.store, one, embedder=embedder)
    assert _episodes(b.store) == [("My brother Karel is a dentist in Utrecht.", "hela-chat")]
    assert rep.details["skipped_reasons"] == {"list of your memories made by HeLa": 1,
                                              "request to forget, done by HeLa": 1,
                                              "message you asked HeLa to forget": 1}
    assert [m["content"] for m in b.store.messages(b.store.conversations()[0]["id"])][:2] == [
        "My brother Karel is a dentist in Utrecht.", a.store.messages(cid)[1]["content"]]
    # a later export of the same chat there: only what is new
    list(a.chat("We fly to Lisbon on 14 March.", cid))
    two = export_conversation(a.store, cid, tmp_path / "two.md")
    rep = import_file(b.store, two, embedder=embedder)
    assert [u for u, _ in _episodes(b.store)][1:] == ["We fly to Lisbon on 14 March."]
    assert rep.details["skipped_reasons"]["exchange in this memory already"] == 1
    assert "1 exchange in this memory already" in describe(rep.details)


def test_what_a_request_to_forget_deleted_is_read_from_its_answer():
    from hela_desktop.importers.hela_markdown import _quoted, forgotten_in

    said = ("Deleted these memories, so I won't recall them again:\n\n- #3 “I have a cat "
            "called Pepper.”\n- #9 “My locker code at the gym is 4417 and the spare key is "
            "under the…”\n\nAlso deleted a question you asked about it, as my stored answer "
            "repeated it:\n\n- #12 “What's my locker code?”\n\nPerhaps you meant these, not "
            "deleted (delete them in Memories if so):\n\n- #4 “My dog is called Biscuit.”")
    quotes = forgotten_in(said)
    assert quotes == ["I have a cat called Pepper.", "My locker code at the gym is 4417 and "
                      "the spare key is under the…", "What's my locker code?"]
    assert _quoted("My locker code at the gym is 4417 and the spare key is under the mat.",
                   quotes)
    assert _quoted("I have  a cat\ncalled Pepper.", quotes)
    assert not _quoted("My dog is called Biscuit.", quotes)
    assert not _quoted("I have a cat called Pepper and a dog.", quotes)


# ---- older news: what the correction replaces (`sources.gives_older`) --------------------

def test_older_news_is_what_the_correction_replaces_not_who_or_other_sentences():
    """QA pass 30: "Do I have a pet?" answered "Ines is your friend, he's a doctor who works
    with his brother…" was marked as giving older news over "Actually Karel is now a
    surgeon.", for "Ines" (another sentence of the old memory) and "brother" (who it is
    about, not what changed)."""
    from hela_desktop.older_news import gives_older

    old = "Hi! My name is Ines. My brother Karel is a dentist in Utrecht."
    new = "Actually Karel is now a surgeon."
    assert not gives_older("Do I have a pet?", "Ines is your friend, he's a doctor who works "
                           "with his brother in medicine and law enforcement.", old, new)
    assert not gives_older("How is my brother?", "Your brother is doing well.", old, new)
    # the old value is still marked, and the new one is not
    assert gives_older("What does my brother do?", "Your brother Karel is a dentist.", old, new)
    assert not gives_older("What does my brother do?", "Karel is a surgeon now.", old, new)
    # what a correction denies counts wherever the old memory said it
    assert gives_older("What does my mum do?", "Your mum is a teacher.",
                       "My mum is a teacher.", "Mum retired, she's not a teacher any more.")


# ---- "Forget everything about Karel." (`forget_request.forget_target`) ------------------

def test_forget_everything_about_someone_is_a_request_to_forget():
    """QA pass 30: "Forget everything about Karel." went to the model and became a memory
    (recalled four times after)."""
    from hela_desktop.forget_request import EVERYTHING, forget_target

    assert forget_target("Forget everything about Karel.") == "Karel"
    assert forget_target("Forget everything you know about my job.") == "my job"
    assert forget_target("Forget anything about the wedding.") == "the wedding"
    assert forget_target("Forget everything I told you about my job.") == "my job"
    assert forget_target("Forget everything about me.") == EVERYTHING
    # advice wanted, or never mind: not requests to forget
    for said in ("Forget everything about the past and move on.", "Forget all about it.",
                 "Forget everything about it.", "Forget the past."):
        assert forget_target(said) is None, said


def test_forget_everything_about_someone_deletes_their_memories(make_assistant):
    a = make_assistant()
    cid = a.new_conversation()
    karel = [list(a.chat(t, cid, now=T0 + k))[-1].episode_id for k, t in enumerate(
        ("My brother Karel is a dentist in Utrecht.", "Karel plays chess on Sundays."))]
    ana = list(a.chat("My sister Ana lives in Porto.", cid, now=T0 + 5))[-1].episode_id
    done = list(a.chat("Forget everything about Karel.", cid, now=T0 + 60))[-1]
    assert done.episode_id is None and sorted(done.forget["deleted"]) == sorted(karel)
    assert sorted(a.store.deleted_ids()) == sorted(karel) and ana not in a.store.deleted_ids()
    assert a.store.count_episodes() == 1


# ---- a change told without "actually" (`facts._CHANGES`) ---------------------------------

def test_a_change_replaces_what_said_the_same_kind_of_thing():
    """QA pass 30: "My mother Greta moved to Antwerp last month." left "My mother Greta lives
    in Ghent." current: "Your mother lives in Ghent, Netherlands." was not marked."""
    from hela_desktop.older_news import gives_older

    ghent, moved = "My mother Greta lives in Ghent.", "My mother Greta moved to Antwerp last month."
    assert facts.corrects(moved) and facts.corrects_memory(ghent, moved)
    assert gives_older("Which city does my mother live in?",
                       "Your mother lives in Ghent, Netherlands.", ghent, moved)
    assert not gives_older("Which city does my mother live in?", "She lives in Antwerp now.",
                           ghent, moved)
    job = "Hi! My name is Ines. My brother Karel is a dentist in Utrecht."
    for now in ("Karel is now a surgeon.", "My brother Karel is now a surgeon in Rotterdam."):
        assert facts.corrects_memory(job, now), now
    assert facts.corrects_memory("I work as a nurse at the UMC hospital.",
                                 "I now work at the OLVG hospital.")
    # a change of another kind of thing replaces nothing
    assert not facts.corrects_memory(job, "Karel moved in with his girlfriend.")
    assert not facts.corrects_memory("I work as a nurse at the UMC hospital.",
                                     "I now work from home on Fridays.")
    assert not facts.corrects_memory("My dog is a good boy.", "My dog is now a year old.")
    assert not facts.corrects_memory("My sister Ana lives in Porto and she has two kids.",
                                     "My sister Ana is now a mother of three.")


def test_a_move_minutes_later_is_older_news_and_an_edit_keeps_it(make_assistant):
    """Through the real turn path: the move is confirmed under its answer and the store
    reads it as a correction; an edit of the correction that keeps it a change (QA pass
    30: "My brother Karel is now a surgeon in Rotterdam.") keeps the old job replaced."""
    from hela_desktop.knowledge import corrections

    a = make_assistant()
    cid = a.new_conversation()
    ghent = list(a.chat("My mother Greta lives in Ghent.", cid, now=T0))[-1]
    dentist = list(a.chat("My brother Karel is a dentist in Utrecht.", cid, now=T0 + 30))[-1]
    moved = list(a.chat("My mother Greta moved to Antwerp last month.", cid, now=T0 + 60))[-1]
    assert moved.corrects == [{"episode_id": ghent.episode_id,
                               "text": "My mother Greta lives in Ghent."}]
    fix = list(a.chat("Actually Karel is now a surgeon.", cid, now=T0 + 90))[-1]
    assert corrections(a.store, {ghent.episode_id, dentist.episode_id}) == {
        ghent.episode_id: moved.episode_id, dentist.episode_id: fix.episode_id}
    a.engine.edit_episode(fix.episode_id, "My brother Karel is now a surgeon in Rotterdam.",
                          "")  # (Memories ▸ Edit…)
    assert corrections(a.store, {dentist.episode_id}) == {dentist.episode_id: fix.episode_id}


# ---- a relation never told (`doubt.answer_doubt`, "untold") ----------------------------

def test_an_answer_about_a_relation_never_told_is_doubted():
    """QA pass 30: "What is my sister's name?", no sister ever told, was answered "Ines is my
    sister's name. She lives in Ghent, Netherlands." beside the memories of the user's name
    and mother, and only "Netherlands" was doubted."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.sources import doubt_note

    mems = [Recall(episode_id=1, score=1.0, text="Hi! My name is Ines."),
            Recall(episode_id=2, score=0.9, text="My mother Greta lives in Ghent.")]
    ask = "What is my sister's name?"
    said = "Ines is my sister's name. She lives in Ghent, Netherlands."
    doubt = answer_doubt(ask, said, mems, {1, 2}, untold=["sister"])
    # (and the made-up "Netherlands" after it, since 0.23: tests/test_qa_pass31.py)
    assert {**doubt, "also": []} == {"kind": "untold", "who": ["sister"], "also": []}
    assert doubt_note({"kind": "untold", "who": ["sister"]}, []) == (
        "Check this answer: you have not told me about your sister, so what it says of her "
        "is not from your memories.")
    assert doubt_note({"kind": "untold", "who": ["uncle", "cousin"]}, []).startswith(
        "Check this answer: you have not told me about your uncle or your cousin, so what it "
        "says of them")
    # told, or not asked about: the other checks as before
    assert answer_doubt(ask, said, mems, {1, 2})["kind"] == "made_up"
    assert answer_doubt("Tell me a story.", said, mems, {1, 2}, untold=["sister"]) is None
    for junk in ({"kind": "untold"}, {"kind": "untold", "who": [""]}):
        assert doubt_note(junk, []) == ""


def test_the_turn_names_the_relation_no_memory_tells_of(make_assistant):
    a = make_assistant()
    cid = a.new_conversation()
    for k, told in enumerate(("Hi! My name is Ines. My brother Karel is a dentist.",
                              "My mother Greta lives in Ghent.")):
        list(a.chat(told, cid, now=T0 + k))
    assert a._untold("What is my sister's name?") == ["sister"]
    assert a._untold("What does my brother do?") == []
    assert a._untold("Where do my uncle and my mum live?") == ["uncle"]
    # told of in a looser word: a child as "my eight-year-old" (an answer's own "kids" or a
    # word inside another, "boyhood", does not count)
    assert a._untold("What is my son obsessed with?") == ["son"]
    list(a.chat("Tell me about boyhood in the 1950s.", cid, now=T0 + 10))
    assert a._untold("What is my son obsessed with?") == ["son"]
    list(a.chat("Finn, my eight-year-old, has decided sharks are his whole personality.", cid,
                now=T0 + 20))
    assert a._untold("What is my son obsessed with?") == []
    assert a._untold("Where does my sister live?") == ["sister"]
    list(a.chat("What is my sister's name?", cid, now=T0 + 60))
    stats = a.store.messages(cid)[-1]["stats"]
    assert stats.get("unrecalled") or {k: stats["doubt"][k] for k in ("kind", "who")} == {
        "kind": "untold", "who": ["sister"]}


def test_an_interjection_is_no_made_up_name_anywhere_in_a_sentence():
    # QA pass 30: "“Ah” is in none of the memories it was given" under "Do I like coffee?"
    from hela_desktop.made_up import made_up

    assert made_up("Well... Ah, I see. Tea it is... Oh, and Wow!", "I prefer tea.") == []
    assert made_up("Well... Ah, Bregaad said so.", "I prefer tea.") == ["Bregaad"]


# ---- an answer about another person (`sources.other_person`) ------------------------------

def test_an_answer_about_another_person_than_the_one_asked_about_is_doubted(make_assistant):
    """QA pass 30: "What does my brother do?" was answered "Ines is a dentist in Utrecht."
    (Ines is the user), "What does Karel do?" "Ines is your friend. He's a doctor…", and
    nothing said so: the name was known, and the line under it said the memory was used.
    The people of the user's life are the engine's own reading (`people_in`)."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.sources import doubt_note

    a = make_assistant()
    cid = a.new_conversation()
    told = ("Hi! My name is Ines. My brother Karel is a dentist in Utrecht.",
            "My mother Greta lives in Ghent.")
    for k, t in enumerate(told):
        list(a.chat(t, cid, now=T0 + k))
    e = a.engine
    mems = [Recall(episode_id=1, score=1.0, text=told[0])]

    def doubt(ask, said):
        return answer_doubt(ask, said, mems, {1}, e.people_in, known=told[0],
                            user_names=e.user_names())

    got = doubt("What does my brother do?", "Ines is a dentist in Utrecht.")
    assert got == {"kind": "other_person", "asked": "your brother", "said": ["Ines"]}
    assert doubt_note(got, []) == ("Check this answer: you asked about your brother, and it "
                                   "speaks of “Ines” instead.")
    # (and that it makes Karel a doctor: "He's" is read since 0.32, and said first)
    got = doubt("What does Karel do?", "Ines is your friend. He's a doctor.")
    assert (got["kind"], got["said"]) == ("says_otherwise", "doctor")
    assert got["also"] == [{"kind": "other_person", "asked": "Karel", "said": ["Ines"]}]
    # about them, whatever it says (the other checks weigh that), or about no one named
    for said in ("Karel is a dentist in Utrecht.", "Your brother is a dentist.",
                 "He is a dentist, Ines.", "He is a dentist in Utrecht."):
        assert (doubt("What does my brother do?", said) or {}).get("kind") != "other_person"
    # not asked about anyone: no such doubt
    assert doubt("Where do I live?", "Ines lives in Utrecht.") is None
    for junk in ({"kind": "other_person"}, {"kind": "other_person", "asked": "x", "said": []}):
        assert doubt_note(junk, []) == ""


def test_a_search_row_found_by_meaning_alone_says_so(make_assistant):
    """QA pass 30: searching "job", "Where do I work?" came first with no tag, as if the
    word were in it; "(near in meaning)" stays for what is offered when nothing matched."""
    from hela_desktop.ui.worker_ops import _search

    a = make_assistant()
    cid = a.new_conversation()
    for k, t in enumerate(("I work as a nurse at the city hospital.", "Where do I work?",
                           "My job interview went well.")):
        list(a.chat(t, cid, now=T0 + k))
    rows = {a.store.key_texts([i])[i]: how for i, _, how, _ in _search(None, a, (None, "job"))}
    assert rows["My job interview went well."] == ""  # the word itself
    assert rows["Where do I work?"] == "meaning"
    assert set(rows.values()) <= {"", "meaning"}  # (something matched: nothing offered)
