"""What the fiftieth pass found, fixed (QA passes 50a, Priya Nair, and 50b, Hamish
MacLeod), and what pass 49 left open."""
from __future__ import annotations


def _recall(eid: int, text: str, **extra):
    from hela_desktop.events import Recall

    return Recall(episode_id=eid, score=1.0, text=text, extra={"statement": True, **extra})


def _line(ask: str, answer: str, mems, **kw) -> str:
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    d = answer_doubt(ask, answer, mems, set(), lambda t: set(), **kw)
    return doubt_note(d, [{"episode_id": r.episode_id, "text": r.text} for r in mems]) if d \
        else ""


def test_a_name_taken_back_said_in_an_answer(make_assistant):
    """QA pass 49e: "Yes, your friend Marta is your best friend." to "Is my best friend
    called Marta?", after "My best friend is Marta. No wait, her name is Marga, not
    Marta.", read only "it uses none of the memories…"; a no that names it, or a name
    still given by another statement, has no such line."""
    a = make_assistant()
    list(a.chat("My best friend is Marta. No wait, her name is Marga, not Marta."))
    list(a.chat("Is Marta coming to dinner?"))  # (a question names it: no statement)
    taken = a._taken_back()
    meant = "My best friend is Marga."
    assert taken == [("Marta", meant)]
    mems = [_recall(1, meant)]
    ask = "Is my best friend called Marta?"
    assert _line(ask, "Yes, your friend Marta is your best friend.", mems, taken=taken) == (
        f"Check this answer: it says “Marta”, and you took that back: you told me “{meant}”")
    assert "took that back" not in _line(ask, "No, her name is Marga, not Marta.", mems,
                                         taken=taken)
    # (not recalled for it: the answer is about something else)
    assert "took that back" not in _line(ask, "Marta is lovely.", [_recall(2, "I live in Pune.")],
                                         taken=taken)
    list(a.chat("Marta is my neighbour."))  # a statement gives the name again: in use
    assert a._taken_back() == []


def test_a_piece_then_a_clause_of_its_own():
    """QA pass 50a's fact: "My sister is called Kavya. Sorry, I mean Kavita, Kavya is my
    cousin." was kept whole; the cousin's name is no name taken back for good."""
    from hela_desktop.taken_back import as_meant, taken_names

    meant = as_meant("My sister is called Kavya. Sorry, I mean Kavita, Kavya is my cousin.")
    assert meant == ("My sister is called Kavita. Kavya is my cousin.", "Kavya")
    assert taken_names([(meant.taken, meant.text)], lambda _n: ()) == []
    assert as_meant("It was great, I mean really great, we loved it.") is None


def test_a_doing_given_up_said_to_go_on():
    """QA pass 49e: "There is nothing wrong with smoking. As for your decision about
    bacon…" to "Do I smoke?" after "I quit smoking in January." read only the bacon's
    caution; "it says yes" now comes first, and a no, or a warning, has none."""
    quit_ = "I quit smoking in January."
    mems = [_recall(1, quit_)]
    yes = f"Check this answer: it says yes, and you told me “{quit_}”"
    for answer in ("There is nothing wrong with smoking.", "You still smoke a pipe on Sundays.",
                   "It's fine to smoke now and then."):
        assert _line("Do I smoke?", answer, mems) == yes, answer
    for answer in ("No, you quit smoking in January; it's fine to be proud.",
                   "Smoking is bad for you, and you should not smoke.",
                   "You don't smoke any more."):
        assert "it says yes" not in _line("Do I smoke?", answer, mems), answer


def test_a_yes_to_what_you_gave_up_is_said_once():
    """The whisky given up is also a caution: the yes is said once, as a yes."""
    from hela_desktop.cautions import cautions

    told = "I gave up drinking whisky last year."
    mems = [_recall(1, told)]
    cs = cautions([(1, told)])
    line = _line("Do I still drink whisky?", "It's okay to drink whisky with friends.", mems,
                 cautions=cs)
    assert line == f"Check this answer: it says yes, and you told me “{told}”"


def test_a_thing_sold_asked_whether_you_have_it():
    """QA pass 50b's facts: "Yes, you have a boat called the Morag." to "Do I still have a
    boat?", after "I sold my boat, the Morag, in the spring.", had no line."""
    sold = "I sold my boat, the Morag, in the spring."
    mems = [_recall(1, sold)]
    assert _line("Do I still have a boat?", "Yes, you have a boat called the Morag.", mems) \
        == f"Check this answer: it says yes, and you told me “{sold}”"
    assert "it says yes" not in _line("Do I still have a boat?", "No, you sold the Morag.", mems)
    # (not a question of having it: what the boat was called is no yes to having it)
    assert "it says yes" not in _line("Was my boat called the Morag?", "Yes, it was.", mems)


def test_cut_down_on_red_meat_is_a_caution_of_red_meat_only():
    """QA pass 50b's facts: "I have gout, so the doctor told me to cut down on red meat and
    beer." cautioned beer only ("Yes, a steak pie is a hearty dinner." had no line), and
    "I have to avoid red meat." cautioned chicken and turkey too."""
    from hela_desktop.cautions import cautions

    (gout,) = cautions([(1, "I have gout, so the doctor told me to cut down on red meat and "
                            "beer.")])
    assert {"steak", "beer", "lamb"} <= gout.avoid and "chicken" not in gout.avoid
    (red,) = cautions([(1, "I have to avoid red meat.")])
    assert "beef" in red.avoid and not {"chicken", "turkey", "duck"} & red.avoid
    (meat,) = cautions([(1, "I don't eat meat.")])
    assert {"chicken", "beef"} <= meat.avoid
    assert cautions([(1, "I cut down on screen time.")]) == []


def test_a_plan_put_back_by_it_alone(make_assistant):
    """QA pass 50b's facts: "Actually they rang again, it's back to 12 May after all." after
    "The dentist moved it to 19 May." names no dentist: it corrected nothing, a reply of
    19 May read as older news of 19 May, and a later right "12 May" as older news.  It
    corrects what was said just before in the chat, and the store keeps that."""
    from hela_desktop.superseded import of_it_only

    assert of_it_only("Actually they rang again, it's back to 12 May after all.")
    assert of_it_only("Actually it's on Friday now.")
    assert not of_it_only("Actually the yoga class is back on Tuesdays after all.")
    assert not of_it_only("It's raining again today.")
    a = make_assistant()
    conv = None
    for said in ("My dentist appointment is on 12 May.", "The dentist moved it to 19 May.",
                 "Actually they rang again, it's back to 12 May after all."):
        done = [e for e in a.chat(said, conversation_id=conv) if e.type == "done"][-1]
        conv = done.conversation_id
    ids = {t: i for i, t, _ in a.store.said_after(0.0)}
    moved, back = ids["The dentist moved it to 19 May."], \
        ids["Actually they rang again, it's back to 12 May after all."]
    assert [c["episode_id"] for c in done.corrects] == [moved]
    assert a.store.recorded_corrections() == {moved: [back]}
    from hela_desktop.knowledge import corrections

    # (the first date is true again: news of 19 May is older news of 12 May after all)
    assert corrections(a.store, [moved]) == {moved: back}


def test_left_a_workplace_and_joined_another_is_news_of_the_job():
    """QA pass 50a: "Big news: I've left Infosys and joined a startup called Leafware." was
    no correction of "I work at Infosys."."""
    from hela_desktop import facts

    old = "I work at Infosys."
    for new in ("Big news: I've left Infosys and joined a startup called Leafware.",
                "I left Infosys to join Leafware."):
        assert facts.corrects(new) and facts.corrects_memory(old, new), new
    assert not facts.corrects("I joined a book club.")


def test_fixes_50a():
    """QA pass 50a: "Namaste, my dear." read "it calls you “Namaste”"; "I'm sure everyone
    has their own special way of making Diwali celebrations last longer than 2 days!" spoke
    as the user (a "2" and a "day" shared with the diabetes told); a recipe's amounts were
    made up; "gulab jamun" was no sugar."""
    from hela_desktop.cautions import cautions
    from hela_desktop.made_up import made_up
    from hela_desktop.whom import as_user, greets_as

    me = [_recall(1, "Hi, I'm Priya Nair, a software engineer living in Pune.")]
    assert greets_as("Hi, I'm Priya Nair, a software engineer living in Pune.",
                     "Namaste, my dear. How can I help?", me, yours=["Priya Nair"]) is None
    assert greets_as("Hi there.", "Sunita, how can I help?", me, yours=["Priya Nair"])
    ill = [_recall(2, "I have type 2 diabetes and I take metformin twice a day.")]
    assert as_user("Suggest a dinner.", "4. Greeting: I'm sure everyone has their own special "
                   "way of making Diwali celebrations last longer than 2 days!", ill) is None
    assert as_user("Suggest a dinner.", "I have type 2 diabetes and take metformin twice a day.",
                   ill)
    assert made_up("Ingredients: 200g gluten-free pasta, 1 tbsp olive oil, 20g of flour. Ready "
                   "in 30 minutes.", "Dev is 7.") == []
    assert made_up("Dev is 9 and lives at 12 Elm Street.", "Dev is 7.") == ["9", "12", "Elm Street"]
    (c,) = cautions([(2, ill[0].text)])
    assert {"jamun", "jalebi"} <= c.avoid


def test_fixes_50b():
    """QA pass 50b: "To be clear about the dentist: it is 12 May, not 19 May." marked the
    12 May it confirms as older news; "Fiona retired from the post office last month." was
    no news of "My wife Fiona runs the village post office."; the verb "may" used the
    dentist's "12 May"."""
    from hela_desktop import facts
    from hela_desktop.edges import used_by_answer

    sure = "To be clear about the dentist: it is 12 May, not 19 May."
    assert not facts.corrects_memory("My dentist appointment is on 12 May.", sure)
    assert facts.corrects_memory("The dentist moved it to 19 May.", sure)
    assert facts.corrects_memory("My trip is in May.", "Actually the trip is in June, not May.")
    runs = "My wife Fiona runs the village post office."
    assert facts.corrects_memory(runs, "Fiona retired from the post office last month.")
    assert not facts.corrects_memory(runs, "Fiona runs every morning.")
    mems = [(1, "My dentist appointment is on 12 May."), (2, "I have gout.")]
    assert used_by_answer(mems, "Is a steak pie good for me?",
                          "A steak pie may be a treat, but with gout you may want less.") == {2}
    assert used_by_answer(mems[:1], "When is my dentist appointment?", "It is in May.") == {1}


def test_the_best_statement_naming_whom_the_message_names_enters(make_assistant):
    """QA pass 50a: "Is Dev 6?", "Plan a birthday party for Dev." and "What should Dev
    avoid?" recalled nothing: "Our son Dev is 7 and he has coeliac disease…" came at
    cosine 0.04–0.13 (the embedder knows no "Dev"), under the named floor of 0.15."""
    import time

    import pytest

    from hela_desktop import formulas as F
    from hela_desktop.gate import RelevanceGate
    from hela_desktop.memory import NewEpisode

    # by hand: min(max(floor, best − margin), best)
    assert F.named_bar(0.13, 0.15, 0.45, 0.20) == pytest.approx(0.13)  # min(0.15, 0.13)
    assert F.named_bar(0.30, 0.15, 0.45, 0.20) == pytest.approx(0.15)  # min(0.15, 0.30)
    assert F.named_bar(0.50, 0.15, 0.45, 0.20) == pytest.approx(0.30)  # min(0.30, 0.50)
    a = make_assistant()
    now = time.time()
    told = ["Hi, I'm Priya Nair, a software engineer living in Pune.",
            "Our son Dev is 7 and he has coeliac disease, so no gluten for him.",
            "We have a cat called Mango.", "I work at Infosys."]
    a.engine.add_episodes([NewEpisode(t, created_at=now - 600 * (4 - i))
                           for i, t in enumerate(told)])
    for ask in ("Is Dev 6?", "Plan a birthday party for Dev.", "What should Dev avoid?"):
        qv = a.engine.embed_query(ask)
        got = RelevanceGate(a.engine, a.settings.gate).admit(
            ask, a.engine.retrieve(ask, query_vec=qv, now=now), qv)
        assert [r.text for r in got.admitted] == [told[1]], ask


def test_a_question_of_ones_dog_is_no_question_of_food():
    """QA pass 50b: "What is my dog called?" recalled the whisky, gout and warfarin
    memories first ("dog" is a word a pet allergy names); asking to have one still counts."""
    from hela_desktop.cautions import asks_for_food

    assert not asks_for_food("What is my dog called?")
    assert not asks_for_food("Is my dog a collie?")
    assert asks_for_food("Can we get a kitten?")
    assert asks_for_food("Can I have a beer?")


def test_fixes_50c_and_50d():
    """QA passes 50c and 50d (the re-runs): "the doctor told me to cut down…" told the
    user's job ("You were a teacher." read "…you told me “I have gout, so the doctor…”");
    "To be clear…: it is 12 May, not 19 May." put aside "May" too; "I'll be here tomorrow
    (12 May)" spoke as the user; "gluten sensitivity" and a "gluten-free pasta" asked for
    offered gluten; "Tamil" was made up; an old value in a question put back older news."""
    from hela_desktop import facts
    from hela_desktop.cautions import cautions, offered
    from hela_desktop.made_up import made_up
    from hela_desktop.older_news import gives_older
    from hela_desktop.says_of import jobs_said
    from hela_desktop.whom import as_user
    from hela_desktop.your_own import tells_own

    gout = "I have gout, so the doctor told me to cut down on red meat and beer."
    assert not tells_own(gout, "job") and jobs_said(gout) == set()
    assert jobs_said("Evening. I'm Hamish MacLeod, 58, a retired fisherman.") == {"fisherman"}
    assert facts.puts_aside_else("My dentist appointment is on 12 May.",
                                 "To be clear about the dentist: it is 12 May, not 19 May.")
    dentist = [_recall(1, "My dentist appointment is on 12 May.")]
    assert as_user("When is my dentist appointment?", "I'll be here tomorrow (12 May) and help "
                   "with the rest of the day.", dentist) is None
    coeliac = "Our son Dev is 7 and he has coeliac disease, so no gluten for him."
    (c,) = cautions([(1, coeliac)], about={"dev"})
    assert offered("That's a very interesting fact about gluten sensitivity.", c,
                   "Can Dev eat a sandwich?") == []
    assert offered("Your son is having fun with the pasta recipe.", c,
                   "Give me a gluten-free pasta recipe for Dev.") == []
    assert offered("Your son is having fun with the pasta recipe.", c,
                   "Give me a pasta recipe for Dev.") == ["pasta"]
    assert made_up("It means my cousin in Tamil.", "My sister is called Kavita.") == []
    old, new = "I work at Infosys.", "Big news: I've left Infosys and joined a startup called Leafware."
    ask = "Which company do I work for now?"
    assert not gives_older(ask, "I'm glad to hear about your work at Leafware. Does it have "
                           "anything to do with your work at Infosys?", old, new)
    assert gives_older(ask, "You work at Infosys.", old, new)


def test_a_recorded_correction_names_its_memories_by_uid_in_a_memory_file():
    """A correction recorded by what was said just before names memories by the writing
    store's ids: a memory file carries their uids, and the importing store its own ids (or
    none), so it never marks another memory older news."""
    from hela_desktop.memfile.format import stats_from_file, stats_to_file

    stats = {"corrects": [{"episode_id": 7, "text": "The dentist moved it to 19 May.",
                           "of_it": True}]}
    out = stats_to_file(stats, {7: "u-7"})
    assert out["corrects"][0]["episode_uid"] == "u-7"
    import json

    back = json.loads(stats_from_file(json.dumps(out), {"u-7": 42}))
    assert back["corrects"][0]["episode_id"] == 42
    gone = json.loads(stats_from_file(json.dumps(out), {}))
    assert gone["corrects"][0]["episode_id"] is None


def test_stored_records_of_any_shape_break_no_turn(make_assistant):
    """A message's statistics may hold any JSON (an imported file's): records read from
    them that are not of the shape written are passed over."""
    import json

    a = make_assistant()
    done = [e for e in a.chat("My dentist appointment is on 12 May.") if e.type == "done"][-1]
    cid = done.conversation_id
    for bad in ({"corrects": 5, "respelled": 7}, {"corrects": [5, {"of_it": True}]},
                {"respelled": [["x"], 3]}, [1, 2], "of_it taken back"):
        a.store.conn.execute(
            "INSERT INTO messages(uid, conversation_id, role, content, created_at, episode_id, "
            "stats) VALUES (?, ?, 'assistant', 'x', 0, ?, ?)",
            (f"bad-{hash(str(bad))}", cid, done.episode_id, json.dumps(bad)))
    assert a.store.recorded_corrections() == {}
    assert a.store.respelled_as("taken back") == []
    assert [e for e in a.chat("Actually it's on 14 May now.", cid) if e.type == "done"]


def test_a_yes_to_another_name_for_someone_of_yours():
    """QA pass 50c: "Is my sister called Kavya?" answered "Yes, dear friend. Kavya is your
    cousin." or "It's possible your sister is Kavya." had no line; "No, Kavya is your
    cousin." to "Is Kavya my sister?" read "it says no, and you told me…" (sister and
    Kavya both in the memory, in two sentences)."""
    told = "My sister is called Kavita. Kavya is my cousin."
    mems = [_recall(3, told)]
    line = f"Check this answer: it gives your sister the name “Kavya”, and you told me “{told}”"
    assert _line("Is my sister called Kavya?", "Yes, dear friend. Kavya is your cousin.",
                 mems) == line
    assert _line("Is my sister called Kavya?", "It's possible your sister is Kavya.",
                 mems) == line
    assert _line("Is my sister called Kavya?", "No, your sister is Kavita.", mems) == ""
    assert _line("Is Kavya my sister?", "No, Kavya is your cousin.", mems) == ""
    assert "it says no" in _line("Does Arjun teach maths?", "No.",
                                 [_recall(4, "My husband Arjun teaches maths at a school.")])


def test_fixes_50e():
    """QA pass 50e: "Adeymi", a letter left out of the user's "Adeyemi", read as made up
    (the only line under an answer that never gave the friend's name); "The salon moved it
    to 11 June." was no correction of "My hair appointment is on 4 June." (the salon is
    who moved it); a party plan of "dishes that are gluten-free" for a coeliac grandson
    read "it uses none of the memories recalled for it"."""
    from hela_desktop.made_up import made_up
    from hela_desktop.superseded import of_it_only

    assert made_up("Today is the birthday of Ruth Adeymi.", "Hello, I'm Ruth Adeyemi.") == []
    assert made_up("Your friend Martha is here.", "My friend Marta.") == ["Martha"]
    assert of_it_only("The salon moved it to 11 June.")
    assert not of_it_only("I moved it to the garage.")
    kofi = [_recall(3, "My grandson Kofi is 8 and he has coeliac disease.")]
    from hela_desktop.cautions import cautions

    cs = cautions([(3, kofi[0].text)], about={"kofi"})
    ask = "Plan a birthday party for Kofi."
    from hela_desktop.cautions import CAUTION_GATE

    kofi = [_recall(3, kofi[0].text, gate=CAUTION_GATE)]
    assert _line(ask, "A party with dishes that are gluten-free.", kofi, cautions=cs) == ""
    assert "uses none" in _line(ask, "A party with balloons and games.", kofi, cautions=cs)


def test_a_plan_moved_by_whoever_moved_it(make_assistant):
    """QA pass 50e: "The salon moved it to 11 June." right after "My hair appointment is on
    4 June." was not noted as its correction."""
    a = make_assistant()
    conv = None
    for said in ("My hair appointment is on 4 June.", "The salon moved it to 11 June."):
        done = [e for e in a.chat(said, conversation_id=conv) if e.type == "done"][-1]
        conv = done.conversation_id
    assert [c["text"] for c in done.corrects] == ["My hair appointment is on 4 June."]
