"""What the thirty-eighth pass (and the items pass 37 left open) found, fixed."""
from __future__ import annotations

from hela_desktop.name_index import NameIndex, _neighbours
from hela_desktop.words import folded, one_slip

T0 = 1_780_000_000.0


def test_one_slip_of_the_keys_is_a_letter_left_out_added_changed_or_two_swapped():
    assert one_slip("andres", "anders")  # (two neighbours swapped)
    assert one_slip("tomas", "tomasz") and one_slip("tomasz", "tomas")  # (left out, added)
    assert one_slip("efia", "efua")  # (one changed)
    assert not one_slip("anders", "anders")  # (no slip at all)
    assert not one_slip("andreas", "anders")  # (two slips)
    assert not one_slip("ab", "abcd")
    assert folded("Søren") == "Soren" and folded("Kraków") == "Krakow"


def test_keys_side_by_side_or_above_and_below_are_neighbours():
    # "d" touches "s" and "f" on its row, "e" and "r" above it, "x" and "c" below it
    for k in "sferxc":
        assert _neighbours("d", k) and _neighbours(k, "d")
    assert _neighbours("i", "u") and _neighbours("a", "q") and _neighbours("a", "z")
    assert not _neighbours("k", "y") and not _neighbours("a", "e")
    assert not _neighbours("a", "x") and not _neighbours("d", "t")
    assert not _neighbours("é", "e")  # (no key of its own here)


def _index(*told: str) -> NameIndex:
    n = NameIndex()
    n.learn(told)
    return n


def test_a_name_misspelt_in_a_question_is_read_as_the_users_own():
    """QA pass 37c: "Where does Andres live now?" recalled nothing (the memory says
    "Anders"), and the made-up answer "Andres lives in … San Alvarado" had no line at all."""
    n = _index("My brother Anders lives in Trondheim and is vegan.",
               "My partner Tomasz is a carpenter.", "My sister Efua is pescatarian.",
               "My husband Søren plays the cello.")
    assert n.respell("Where does Andres live now?") == (
        "Where does Anders live now?", [("Andres", "Anders")])
    assert n.respell("What does Tomas do? And Efia?") == (
        "What does Tomasz do? And Efua?", [("Efia", "Efua"), ("Tomas", "Tomasz")])
    assert n.respell("Does Soren play an instrument?") == (
        "Does Søren play an instrument?", [("Soren", "Søren")])
    assert n.respell("Is Trondhiem far from Oslo?")[1] == [("Trondhiem", "Trondheim")]
    # a name spelt right, a statement (it may bring in someone new), a name given in the
    # question itself, or a word the user wrote themself is read as written
    for same in ("Where does Anders live now?", "My new colleague Ander is from Oslo.",
                 "Should I invite my colleague Ander too?", "Is vegan food filling?"):
        assert n.respell(same) == (same, [])


def test_a_short_word_one_letter_off_is_read_as_a_name_only_for_a_slip_of_the_finger():
    """A short name one letter changed is often another name: "Mark" beside "Mary", "Anna"
    beside "Anne" (k/y and a/e are keys apart); "Efia" for "Efua" (i/u side by side) is a
    slip.  A first letter changed is read so only in a long name."""
    n = _index("My friend Mary is a dentist.", "My sister Anne lives in York.",
               "My cousin Bartholomew is a vet.")
    assert n.respell("What does Mark think of it?")[1] == []
    assert n.respell("Where does Anna live?")[1] == []
    assert n.respell("Is Nary a dentist?")[1] == []  # (a first letter, short name)
    assert n.respell("Is Marry a dentist?")[1] == [("Marry", "Mary")]  # (a letter added)
    assert n.respell("Is Vartholomew a vet?")[1] == [("Vartholomew", "Bartholomew")]


def test_a_misspelling_two_names_are_one_slip_off_is_read_as_neither():
    n = _index("My friend Elena is a nurse.", "My friend Elina is a teacher.")
    assert n.respell("What does Elna do?")[1] == []  # (a letter left out of either)
    assert n.respell("What does Eleena do?")[1] == [("Eleena", "Elena")]


def test_the_answer_to_a_misspelt_name_recalls_its_memories_and_says_how_it_was_read(
        make_assistant):
    """End to end on the real model and embedder: the memory of Anders is recalled for
    "Andres", the line under the answer says so (in the window, the terminal and an
    exported chat alike), and the chat keeps the message as the user wrote it."""
    from hela_desktop.chat_export import answer_notes
    from hela_desktop.events import DoneEvent, MemoriesEvent

    a = make_assistant()
    cid = a.new_conversation()
    told = ("My brother Anders lives in Trondheim and is vegan.",
            "My partner Tomasz is a carpenter.", "Our dog Fenris is a springer spaniel.")
    for k, t in enumerate(told):
        list(a.chat(t, cid, now=T0 + k))
    events = list(a.chat("Where does Andres live now?", cid, now=T0 + 60))
    shown = next(ev for ev in events if isinstance(ev, MemoriesEvent))
    done = next(ev for ev in events if isinstance(ev, DoneEvent))
    assert any("Anders" in r.text for r in shown.memories)
    assert done.respelled == [["Andres", "Anders"]]
    msgs = a.store.messages(cid)
    assert msgs[-2]["content"] == "Where does Andres live now?"
    stats = msgs[-1]["stats"]
    assert stats["respelled"] == [["Andres", "Anders"]]
    assert "Read “Andres” as “Anders”, a name you told me." in answer_notes(stats)
    # the memory keeps the question as read: "Andres" is no name of the user's now, and
    # the same slip asked again is read the same way
    assert a.store.episodes([done.episode_id])[done.episode_id].user_text == \
        "Where does Anders live now?"
    assert a.engine.respell("Where does Andres work?")[1] == [("Andres", "Anders")]
    # a name spelt right gets no such line
    again = next(ev for ev in a.chat("Where does Anders live now?", cid, now=T0 + 120)
                 if isinstance(ev, DoneEvent))
    assert again.respelled == []


def test_a_respelled_note_from_a_stored_answer_is_read_safely():
    from hela_desktop.sources import respelled_note, stored_sources

    assert respelled_note([["Tomas", "Tomasz"], ["Efia", "Efua"]]) == (
        "Read “Tomas” as “Tomasz” and “Efia” as “Efua”, names you told me.")
    for bad in (None, "Andres", [["Andres"]], [[1, 2]], [["", "Anders"]], {"a": "b"}):
        assert respelled_note(bad) == ""
    assert stored_sources({"respelled": [["Andres", "Anders"]]}).lines()
    assert not stored_sources({}).lines()


def test_a_bare_yes_to_what_no_memory_says_is_doubted():
    """QA pass 37c r17: "Is my mum 75?" answered "Yes." (she is 72) had no line; the check
    of a yes to a number the question supplies read only numbers the answer restated."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.sources import doubt_note

    mems = [Recall(episode_id=1, score=1.0, text="My mum is 72 and lives in Kumasi."),
            Recall(episode_id=2, score=1.0, text="Our dog Fenris is a springer spaniel.")]

    def doubt(ask, said):
        return answer_doubt(ask, said, mems, set(), lambda t: {"my mum"} if "mum" in t
                            else {"fenris"} if "Fenris" in t else set(), known="")

    got = doubt("Is Fenris 5?", "Yes.")
    assert got is not None and got["kind"] == "made_up" and got["words"] == ["5"]
    assert doubt_note(got, [m.to_dict() for m in mems]) == (
        "Check this answer: it says yes to “5”, and none of the memories it was given "
        "says so.")
    assert doubt("Is Fenris 5?", "Yes, he is.")["words"] == ["5"]
    # (where a memory tells another age, it says which: pass 39)
    assert doubt_note(doubt("Is my mum 75?", "Yes."), []) == (
        "Check this answer: it says your mum is 75, and you told me “My mum is 72 and "
        "lives in Kumasi.”")
    # a yes to what a memory says, or a no, is not doubted so
    assert doubt("Is my mum 72?", "Yes.") is None
    assert doubt("Is Fenris a springer spaniel?", "Yes!") is None
    assert doubt("Is my mum 75?", "No, she is 72.") is None


def test_what_the_user_asked_in_the_chat_is_not_what_they_told(make_assistant):
    """The numbers and names of a question the user asked (this one, or the same one
    before) are no fact they told: a yes to them was not marked in the window though the
    same check passed its tests (the message itself was among "what you said in the
    chat"); what they told earlier in the chat still counts."""
    a = make_assistant()
    cid = a.new_conversation()
    for k, t in enumerate(("My mum is 72.", "Is my mum 75?", "My mum lives in Braga.")):
        list(a.chat(t, cid, now=T0 + k))
    said = a._said_in_chat(cid, "Is my mum 75?").splitlines()
    assert said == ["My mum lives in Braga.", "My mum is 72."]
    assert "My mum lives in Braga." not in a._said_in_chat(cid, "My mum lives in Braga.")


def test_a_question_about_an_event_of_the_users_is_about_their_life():
    """QA pass 37c: "What happened at the vet?" recalled nothing: read as a general
    question, it needed a general question's bar, and the memory (the dog's check-up among
    other news of the day) was too weak for it; nor did "Not from your memories" show."""
    from hela_desktop.facts import is_personal

    for q in ("What happened at the vet?", "What happened on the trip?", "How was the party?",
              "How did the interview go?", "How were the holidays?"):
        assert is_personal(q), q
    for q in ("What happened at the Battle of Hastings?", "What happened to the dinosaurs?",
              "What happened during the war?", "How was the universe made?",
              "What happened in 1066?", "What is a comet?"):
        assert not is_personal(q), q


def test_the_vet_visit_told_among_other_news_is_recalled_for_what_happened_there(
        make_assistant):
    from hela_desktop.events import MemoriesEvent

    a = make_assistant()
    cid = a.new_conversation()
    told = ("We also have a dog, a springer spaniel called Fenris.",
            "Busy day today: Fenris had his check-up at the vet and all was fine, Tomasz "
            "built a new bookshelf for Solveig, and by the way Grace is not from Ghana, she "
            "is from Nigeria, I mixed that up earlier.",
            "My brother Anders lives in Trondheim and is vegan.")
    for k, t in enumerate(told):
        list(a.chat(t, cid, now=T0 + k))
    shown = next(ev for ev in a.chat("What happened at the vet?", cid, now=T0 + 60)
                 if isinstance(ev, MemoriesEvent))
    assert any("at the vet" in r.text for r in shown.memories)
    assert not any("Anders" in r.text for r in shown.memories)


def test_a_value_denied_outright_is_older_news_said_again_or_put_in_the_past():
    """QA pass 37c o04, P2: after "…Grace is not from Ghana, she is from Nigeria, I mixed
    that up earlier.", "Grace is from Ghana." and "Grace was born in Ghana." went unmarked:
    "is not from Ghana" was no denial (only ", not …" was), and "was" read as putting Ghana
    in the past, as for a move.  A value denied outright was never so."""
    from hela_desktop import facts
    from hela_desktop.older_news import gives_older

    new = ("Busy day today: Fenris had his check-up at the vet and all was fine, Tomasz "
           "built a new bookshelf for Solveig, and by the way Grace is not from Ghana, she "
           "is from Nigeria, I mixed that up earlier.")
    old = "At the hospital my closest colleague is Grace, she is a midwife from Ghana."
    assert facts.negated(new) == ["ghana"]
    assert facts.negated("I am not sure. It is not sure yet.") == []
    assert facts.negated("The dog is not a poodle but a spaniel.") == ["poodl"]
    where = "Where is Grace from?"
    for wrong in ("Grace is from Ghana.", "Grace was born in Ghana.",
                  "Grace is a Ghanaian woman who works as a midwife."):
        assert gives_older(where, wrong, old, new), wrong
    for right in ("Grace is from Nigeria.", "Grace is not from Ghana; she is from Nigeria."):
        assert not gives_older(where, right, old, new), right
    assert gives_older("Is Grace from Ghana?", "Yes.", old, new)
    assert not gives_older("Is Grace from Ghana?", "No, she is from Nigeria.", old, new)
    # a move told is a change: the old value put in the past beside the new is right
    moved, lived = "Anders moved from Trondheim to Oslo.", "My brother Anders lives in Trondheim."
    assert not gives_older("Where does Anders live?", "Anders used to live in Trondheim, now "
                           "he lives in Oslo.", lived, moved)
    assert gives_older("Where does Anders live?", "Anders lives in Trondheim.", lived, moved)


def test_a_name_given_to_one_of_two_asked_about_is_said_of_that_one(make_assistant):
    """QA pass 37c N13: "What are the names of our dog and our daughter?" answered "Tomasz -
    a dog." read "it calls your daughter “Tomasz”": the first asked about, not the one the
    sentence speaks of."""
    from test_qa_pass34 import _told

    from hela_desktop.sources import doubt_note

    told = ("My partner Tomasz is a carpenter, and we have a daughter, Solveig, who is 8.",
            "We also have a dog, a springer spaniel called Fenris.")
    check = _told(make_assistant, told, len(told))
    ask = "What are the names of our dog and our daughter?"
    got = check(ask, "Tomasz - a dog.")
    assert got["kind"] == "misnamed" and got["asked"] == "your dog"
    assert doubt_note(got, []) == (
        "Check this answer: it calls your dog “Tomasz”, the name of your partner.")
    assert check(ask, "Your daughter is called Tomasz.")["asked"] == "your daughter"


def test_a_recall_crowded_by_questions_looks_further_though_one_memory_came_in(
        make_assistant, settings):
    """QA pass 37 P9 was fixed only for a recall that let nothing in: with one memory in and
    the rest of the ten best the user's own questions, what they told of the others was
    left out ("Plan a Saturday lunch for Tomasz, Solveig, Anders and me." recalled neither
    the allergy nor the vegan brother before the deeper look)."""
    from hela_desktop.events import MemoriesEvent

    settings.max_answer_tokens = 8  # (the answers do not matter here)
    a = make_assistant(s=settings)
    cid = a.new_conversation()
    told = ("My partner Tomasz is a carpenter, and we have a daughter, Solveig, who is 8.",
            "Solveig is allergic to peanuts, so we have to be very careful with snacks.",
            "My brother Anders lives in Trondheim. He is vegan, so no meat, fish, eggs or "
            "dairy for him.")
    for k, t in enumerate(told):
        list(a.chat(t, cid, now=T0 + k))
    for k, q in enumerate(("Plan a lunch for Tomasz and me.", "What should we have for lunch?",
                           "Plan a Saturday for Solveig.", "Any lunch ideas for Saturday?",
                           "Plan a lunch for Anders and me.", "What can Tomasz make for lunch?",
                           "Should Solveig and Anders come to lunch?",
                           "Plan a Saturday lunch for Tomasz and Solveig.",
                           "Where should Tomasz, Solveig and I have lunch on Saturday?",
                           "Plan a Saturday lunch for me.", "Plan a Saturday lunch for Anders.",
                           "Is Saturday good for lunch with Tomasz, Solveig and Anders?")):
        list(a.chat(q, cid, now=T0 + 60 * (k + 1)))
    first = next(e for e in a.chat("Plan a Saturday lunch for Tomasz, Solveig, Anders and me.",
                                   cid, now=T0 + 3600) if isinstance(e, MemoriesEvent))
    got = {r.episode_id for r in first.memories}
    assert {1, 2, 3} <= got, got


def test_an_answer_that_tells_the_users_news_as_its_own_is_doubted_in_a_clause_too():
    """QA pass 37 P18: "I have a daughter named Solveig, who is 8 years old." (the reply to
    "…we have a daughter, Solveig, who is 8.") and "…when I was flying to Lisbon, I wanted
    to celebrate my birthday" went unmarked: the message was not read, nor a clause after
    "when".  The assistant's own talk ("I'm sorry to hear…", "I remember…") is not so."""
    from hela_desktop.events import Recall
    from hela_desktop.whom import as_user

    mems = [Recall(episode_id=1, score=1.0,
                   text="I'm flying to Lisbon on 3 June for a short holiday.")]
    told = "My partner Tomasz is a carpenter, and we have a daughter, Solveig, who is 8."
    got = as_user(told, "I have a daughter named Solveig, who is 8 years old.", [])
    assert got == {"kind": "as_user",
                   "said": "I have a daughter named Solveig, who is 8 years old."}
    assert as_user("We have a daughter, Solveig, who is 8.", "I have a daughter named "
                   "Solveig, who is 8 years old.", []) is not None
    got = as_user("Tell me a story.", "When I was flying to Lisbon on 3 June, I wanted to "
                  "celebrate my birthday.", mems)
    assert got is not None and got["said"].startswith("When I was flying to Lisbon on 3 June")
    assert as_user("Where do I fly?", "Sure, I fly to Lisbon on 3 June.", mems) is not None
    for talk in ("I'm sorry to hear about Solveig, she is 8.", "I remember Solveig is 8.",
                 "I see you fly to Lisbon on 3 June.", "Solveig is 8.",
                 "I'm glad to help, Lisbon on 3 June sounds lovely."):
        assert as_user(told, talk, mems) is None, talk


def test_a_country_whose_city_a_memory_names_is_no_made_up_name():
    """QA pass 37: "Portugal" in an answer about the user's trip to Lisbon was marked made
    up; QA pass 38 P12: "UK" beside Bristol.  A country no memory's city is in still is."""
    from hela_desktop.made_up import made_up

    trip = "I'm flying to Lisbon on 3 June for a short holiday."
    assert made_up("You fly to Portugal on 3 June.", trip) == []
    assert made_up("Efua lives in Bristol, UK.", "Efua moved from Manchester to Bristol.") == []
    assert made_up("Your brother lives in Norway's capital.", "Anders moved to Oslo.") == []
    assert made_up("You fly to Spain on 3 June.", trip) == ["Spain"]
    assert made_up("Efua lives in Bristol, France.", "Efua moved to Bristol.") == ["France"]


_KWAME = "Kwame has a severe egg allergy, so we have to be careful with food."


def test_an_allergy_named_before_the_word_allergy_is_a_caution():
    """QA pass 38 P5: "Kwame has a severe egg allergy…" set no caution, so "Can I make
    pancakes for Kwame's breakfast?" had no line about it."""
    from hela_desktop.cautions import cautions, offered

    got = cautions([(3, _KWAME)], about={"kwame"})
    assert len(got) == 1 and {"egg", "eggs", "pancakes", "omelette"} <= got[0].avoid
    assert got[0].theirs
    assert offered("Sure! Pancakes are a lovely breakfast.", got[0],
                   "Can I make pancakes for Kwame's breakfast?") == ["pancakes"]
    assert offered("Yes, scrambled eggs are great for him.", got[0],
                   "Can Kwame eat scrambled eggs?") == ["eggs"]
    assert offered("No: Kwame has an egg allergy.", got[0], "Can Kwame eat eggs?") == []
    mine = cautions([(4, "I have a life-threatening shellfish allergy.")])
    assert "prawns" in mine[0].avoid and not mine[0].theirs
    assert cautions([(5, "I have a food allergy. It is a serious allergy.")]) == []


def test_an_answer_that_leaves_out_the_allergy_it_was_asked_for_is_doubted():
    """QA pass 38 P2: "What is Kwame allergic to?" answered "…a specific type of nut …
    the hazelnut" was marked only for "EpiPen"."""
    from hela_desktop.cautions import cautions, missed
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    said = cautions([(3, _KWAME), (4, "I am allergic to shellfish.")], about={"kwame"})
    ask = "What is Kwame allergic to?"
    hazel = "Kwame is allergic to a specific type of nut, the hazelnut."
    assert [missed(hazel, c, ask) for c in said] == [True, False]
    got = answer_doubt(ask, hazel, [], set(), cautions=said, unrecalled=True)
    assert doubt_note(got, []) == ("Check this answer: it leaves out what you told me: "
                                   f"“{_KWAME}”")
    for right in ("Kwame is allergic to eggs.", "He has an egg allergy."):
        assert not missed(right, said[0], ask)
    assert not missed(hazel, said[0], "Where does Kwame go to school?")
    # the user's own, asked of themselves; not asked of someone else
    mine = cautions([(4, "I am allergic to shellfish.")])[0]
    assert missed("You are allergic to nuts.", mine, "What am I allergic to?")
    assert not missed("Shellfish.", mine, "What am I allergic to?")
    assert not missed("Nuts.", mine, "What is my son allergic to?")
    diet = cautions([(5, "My sister Efua lives in Manchester. She is pescatarian.")],
                    about={"efua", "sister"})[0]
    assert missed("She is vegan.", diet, "What diet is my sister on?")
    assert not missed("Efua is pescatarian.", diet, "What diet is Efua on?")


def test_a_flat_no_to_what_a_memory_says_is_doubted_with_that_memory():
    """QA pass 38 P7: "Is Abena a pharmacist?" answered "No, I'm sorry." read only "it
    uses none of the memories recalled for it"."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.sources import doubt_note

    mems = [Recall(episode_id=2, score=1.0,
                   text="My wife Abena is a pharmacist, and our son Kwame is 6."),
            Recall(episode_id=8, score=1.0, text="My friend Callum and I met at university "
                   "in Sheffield; he is an engineer now."),
            Recall(episode_id=14, score=1.0, text="Pepper is a ginger cat, not a tabby, and "
                   "she loves the garden."),
            Recall(episode_id=3, score=1.0, text=_KWAME)]
    recs = [m.to_dict() for m in mems]

    def note(ask, said):
        return doubt_note(answer_doubt(ask, said, mems, set(), lambda t: {
            n for n in ("abena", "callum", "pepper", "kwame") if n in t.lower()}), recs)

    assert note("Is Abena a pharmacist?", "No, I'm sorry.") == (
        "Check this answer: it says no, and you told me “My wife Abena is a pharmacist, and "
        "our son Kwame is 6.”")
    assert "you told me “My friend Callum" in note("Does Callum work as an engineer?", "No.")
    assert _KWAME in note("Is Kwame allergic to eggs?", "No.")
    assert "says no" in note("Does Pepper like the garden?", "No, I'm sorry for that.")
    # a no that is right, or a yes, is not doubted so
    assert "says no" not in note("Is Pepper a tabby?", "No, she is ginger.")
    assert "says no" not in note("Is Abena a doctor?", "No, she is a pharmacist.")
    assert note("Is Abena a pharmacist?", "Yes.") == ""
    older = Recall(episode_id=5, score=1.0, text="My sister Efua lives in Manchester.",
                   extra={"superseded_by": 13})
    assert answer_doubt("Does Efua live in Manchester?", "No.", [older], set(),
                        lambda t: {"efua"}) is None


def test_a_breed_is_of_its_kind_of_animal_and_another_is_misrelated():
    """QA pass 38 P1: "your cat Pepper" was marked "it calls Pepper your cat, and Pepper is
    your tabby"; a tabby is a cat.  A dog called so, or another breed, still is marked."""
    from hela_desktop.events import Recall
    from hela_desktop.whom import misrelated

    mems = [Recall(episode_id=4, score=1.0, text="Our cat is a tabby called Pepper."),
            Recall(episode_id=5, score=1.0,
                   text="We also have a dog, a springer spaniel called Fenris.")]
    for right in ("I'm glad your cat Pepper is well.", "Your dog Fenris is well.",
                  "Your puppy Fenris is well.", "Your pet Pepper is well."):
        assert misrelated(right, mems) is None, right
    for wrong, said in (("Your dog Pepper is well.", "dog"),
                        ("Your poodle Fenris is well.", "poodle"),
                        ("Your cat Fenris is well.", "cat")):
        got = misrelated(wrong, mems)
        assert got is not None and got["said"] == said, wrong


def test_a_sign_off_and_a_name_cut_short_are_no_made_up_names():
    """QA pass 38 P10: "Warmest" of "Warmest wishes to Kwame…" was a made-up name; P11:
    "Efu", the model's "Efua" cut short, was "not from anything you told me"."""
    from hela_desktop.made_up import made_up

    assert made_up("She loves orchids. Warmest wishes to Kwame and your family,",
                   "My son Kwame is 6.") == []
    assert made_up("I am so proud of you, Efu, for that.", "My sister Efua lives in Leeds.") == []
    assert made_up("I am so proud of you, Ef, and Efuaa.", "My sister Efua lives in Leeds.") \
        == ["Ef", "Efuaa"]


def test_an_exported_chat_names_every_memory_recalled():
    """QA pass 38 P19: the exported chat said "· and 1 more", and a file has no timeline to
    show which; the window keeps its four and the count."""
    from hela_desktop.chat_export import answer_notes
    from hela_desktop.sources import stored_sources

    stats = {"memories": [{"episode_id": i, "text": f"My note number {i}."} for i in range(1, 7)],
             "drew_on": [1]}
    assert stored_sources(stats).more == 2 and len(stored_sources(stats).shown) == 4
    lines = answer_notes(stats)
    assert not any("more" in line for line in lines)
    assert all(f"#{i} “My note number {i}.”" in " ".join(lines) for i in range(1, 7))


def test_a_tooltip_with_a_long_line_is_wrapped(qapp):
    """QA pass 38 P18: a memory's tooltip in the Memories tab was one line 1,200 pixels
    wide (Qt wraps only rich text); another, rich by chance, was wrapped."""
    from PySide6 import QtGui

    from hela_desktop.ui.plain import tip

    long = "My friend Callum and I met at university in Sheffield; he is an engineer now, " * 2
    got = tip(long)
    assert QtGui.Qt.mightBeRichText(got) and "white-space:pre-wrap" in got
    assert "Callum and I met" in got and "&#x27;" not in tip(long + " it's")
    assert tip("Recalled by 2 answers; last used today.") == \
        "Recalled by 2 answers; last used today."  # (short: as it was)


def test_a_memory_lines_note_in_the_models_likeness_is_taken_out_of_the_answer():
    """QA pass 38 P8: answers ended "(tomorrow; younger news, since replaced)" and
    "(tomorrow)", the memory lines' "(today; older news, since replaced)" copied."""
    from hela_desktop.prompt import AnswerFilter

    def shown(text: str) -> str:
        f = AnswerFilter()
        return "".join(f.push(c) for c in text) + f.flush()

    assert shown("She is a tabby. (tomorrow; younger news, since replaced)") == "She is a tabby."
    assert shown("The best dish I've ever had! (tomorrow)") == "The best dish I've ever had!"
    assert shown("Pepper is ginger (older news) now.") == "Pepper is ginger now."
    assert shown("See you tomorrow (at noon).") == "See you tomorrow (at noon)."


def test_an_answer_that_says_someone_is_what_they_are_not_is_doubted():
    """QA pass 38 P4, P10: "she's an amazing doctor" of Abena the pharmacist, "Efua is a
    vegetarian" (pescatarian), Callum "a pharmacist" (an engineer) went unmarked or were
    marked for a side word; QA pass 37 N3: "a poodle" for the springer spaniel."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.says_of import says_otherwise, told
    from hela_desktop.sources import doubt_note

    texts = [(2, "My wife Abena is a pharmacist, and our son Kwame is 6."),
             (8, "My friend Callum and I met at university in Sheffield; he is an engineer now."),
             (5, "My sister Efua lives in Manchester. She is pescatarian."),
             (4, "We also have a dog, a springer spaniel called Fenris."),
             (14, "Pepper is a ginger cat, not a tabby, and she loves the garden.")]
    assert told(t for _, t in texts) == {
        "abena": {"job": {"pharmacist"}}, "callum": {"job": {"engineer"}},
        "efua": {"diet": {"pescatarian"}}, "fenris": {"pet": {"spaniel"}},
        "kwame": {"age": {"6"}},  # (an age too, since pass 39)
        "pepper": {"pet": {"cat"}}}  # (and the animal, since pass 39b)
    for answer, who, said in (
            ("I have a wonderful wife, and she is an amazing doctor.", "Abena", "doctor"),
            ("Efua is a vegetarian.", "Efua", "vegetarian"),
            ("Callum is a pharmacist in Sheffield.", "Callum", "pharmacist"),
            ("Fenris is a poodle.", "Fenris", "poodle")):
        got = says_otherwise(answer, texts, who)
        assert got is not None and (got["name"], got["said"]) == (who, said), answer
    for right in ("Abena is a pharmacist.", "Efua eats fish; she is pescatarian.",
                  "Abena works with doctors.", "Pepper is a tabby."):  # (a tabby denied)
        assert says_otherwise(right, texts) is None, right
    # a yes says what the question does
    assert says_otherwise("Yes.", texts, "Abena", "Is Abena a doctor?")["said"] == "doctor"
    assert says_otherwise("No.", texts, "Abena", "Is Abena a doctor?") is None
    assert says_otherwise("Yes.", texts, "Abena", "Is Abena a pharmacist?") is None
    mems = [Recall(episode_id=i, score=1.0, text=t) for i, t in texts]
    got = answer_doubt("Is Efua vegetarian?", "Efua is a vegetarian.", mems, set(),
                       lambda t: {"efua"} if "Efua" in t else set())
    assert doubt_note(got, []) == (
        "Check this answer: it says Efua is a vegetarian, and you told me “My sister Efua "
        "lives in Manchester. She is pescatarian.”")


def test_qa_38b_the_lines_on_a_family_of_a_son_with_an_egg_allergy(make_assistant):
    """QA pass 38b: "Kwame has a severe egg allergy, which is an allergen…" read "it names
    “eggs” without a word of warning" (N2); "you can call her Pepper" read "it calls your
    cat “Pepper”, the name of your tabby" (N1); the allergy memory was taken for the user's
    own, "it says of Abena what you told me of yourself" (N4); "Yes, Callum does work as an
    engineer." used no memory (N3)."""
    from test_qa_pass34 import _told

    from hela_desktop.cautions import cautions, offered
    from hela_desktop.edges import used_by_answer

    said = cautions([(3, _KWAME)], about={"kwame"})[0]
    assert offered("Kwame has a severe egg allergy, which can cause anaphylaxis. He is also "
                   "allergic to leucine, which is found in eggs.", said,
                   "What is Kwame allergic to?") == []
    assert offered("Yes! Kwame has an egg allergy, but pancakes are fine.", said,
                   "Can Kwame eat pancakes?") == ["pancakes"]
    # (a clause of its own that offers it still does, the allergy named before: seen in
    # the window on this pass's first form of the rule, which read the whole answer)
    assert offered("A rare allergy known as a nut-free egg allergy is common. To avoid "
                   "this situation, Kwame can eat eggs without any noticeable side effects "
                   "for now.", said,
                   "What is Kwame allergic to?") == ["eggs"]
    told = ("My wife Abena is a pharmacist, and our son Kwame is 6.", _KWAME,
            "Our cat is a tabby called Pepper.", "My sister Efua lives in Manchester.")
    check = _told(make_assistant, told, len(told))
    got = check("What is my cat called?", "You can call her Pepper.")
    assert got is None or got["kind"] != "misnamed", got
    # (not "what you told me of yourself"; nor, so far, "of Kwame": a memory named by a
    # looser word, "Finn, my eight-year-old", would then read as another's than the son's,
    # `bench personal` on this pass)
    got = check("What does Abena like?", "Abena has a severe egg allergy and loves orchids.")
    assert got is None or got["kind"] != "misattributed" or got.get("of"), got
    # a yes to what a memory says in the question's every word is no "not from what you
    # told me" (the message's own words still make no use: QA pass 28's "Yes, 9.")
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall

    callum = Recall(episode_id=8, score=1.0, text="My friend Callum and I met at university "
                    "in Sheffield; he is an engineer now.")
    ask, yes = ("Does Callum work as an engineer?", "Yes, Callum does work as an engineer. He "
                "is a product manager at a company that helps people live healthier lives.")
    assert used_by_answer([(8, callum.text)], ask, yes) == set()
    got = answer_doubt(ask, yes, [callum], set(), lambda t: {"callum"} if "Callum" in t
                       else set())
    assert got is None or got["kind"] != "unused", got
    got = answer_doubt("Does Callum work as a nurse?", yes, [callum], set(),
                       lambda t: {"callum"} if "Callum" in t else set())
    assert got is not None and got["kind"] == "unused", got


def test_a_quote_cut_after_a_sentence_end_reads_so():
    """QA pass 38b: a line quoted "…and she loves the garden.…"."""
    from hela_desktop.sources import doubt_note

    said = ("Quick update on the cat: Pepper is a ginger cat, not a tabby, and she loves the "
            "garden. She caught a mouse yesterday.")
    note = doubt_note({"kind": "denies_told", "memory": 14, "said": said}, [])
    assert note.endswith("and she loves the garden. …”") and ".…" not in note


def test_qa_38c_a_new_family_a_vegetarian_brother_who_moves_and_a_daughters_allergy(
        make_assistant):
    """QA pass 38c: the reply to "Actually the Rome trip is on 19 April, not 12 April." said
    "The correct date is 12 April, not 19 April." unmarked (P2); "Tomek moved from Krakow
    to Warsaw." made "…lives in Krakow and he is vegetarian." older news whole (P3); "The
    answer to your question is yes, Zofia is allergic to peanuts." and "You swim on
    Mondays." were "not from what you told me" (P4); the reply to "My mum is 70." offered
    "a big cake with peanuts" for Zofia, unmarked (P1); "a German Shepherd" for the
    beagle was only "made up" (P8)."""
    from hela_desktop.cautions import cautions, offered
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.older_news import repeats_corrected
    from hela_desktop.says_of import says_otherwise
    from hela_desktop.superseded import still_true

    rome = "We are going on a trip to Rome on 12 April."
    fix = "Actually the Rome trip is on 19 April, not 12 April."
    assert repeats_corrected(fix, "The correct date is 12 April, not 19 April.", rome)
    assert not repeats_corrected(fix, "Got it: the trip is on 19 April, not 12 April.", rome)
    tomek = "My brother Tomek lives in Krakow and he is vegetarian."
    assert still_true(tomek, ["Tomek moved from Krakow to Warsaw."]) == "He is vegetarian."
    assert still_true("My sister lives in Lyon and she hates the rain.",
                      ["My sister moved to Porto."]) == ""  # (what came before: one thing)
    mems = [Recall(episode_id=7, score=1.0, text="I swim every Monday."),
            Recall(episode_id=3, score=1.0,
                   text="Our daughter Zofia is 9 and she is allergic to peanuts.")]

    def people(t):
        return {"zofia"} if "Zofia" in t else set()

    assert answer_doubt("Do I swim on Mondays?", "The answer can be simplified: \"You swim "
                        "on Mondays.\"", mems, set(), people) is None
    assert answer_doubt("Is Zofia allergic to peanuts?", "The answer to your question is "
                        "yes, Zofia is allergic to peanuts.", mems, set(), people) is None
    a = make_assistant()
    cid = a.new_conversation()
    for k, t in enumerate(("Our daughter Zofia is 9 and she is allergic to peanuts.",
                           "Our dog is a beagle called Bruno.")):
        list(a.chat(t, cid, now=T0 + k))
    reply = "Happy birthday to your mum! Bake a big cake with peanuts for Zofia to share."
    assert "zofia" in a._asked_about(reply) and "zofia" not in a._asked_about("My mum is 70.")
    said = cautions([(1, "Our daughter Zofia is 9 and she is allergic to peanuts.")],
                    about=a._asked_about("My mum is 70."), named=a._asked_about(reply))
    assert [w for c in said for w in offered(reply, c, "My mum is 70.")] == ["peanuts"]
    # … in a sentence that names them: `bench personal` marked "your cheese is sold at the
    # Montpelier farmers market… Second, your nephew Caleb…", Caleb vegan, on this pass's
    # first form, which read the whole answer
    caleb = cautions([(6, "Funny thing, Caleb went vegan last year. He is very polite about "
                          "my cheese.")], named={"caleb"})
    assert caleb[0].within == {"caleb"}
    assert offered("First, your cheese is sold at the farmers market on Saturdays. Second, "
                   "your nephew Caleb has been staying with us.", caleb[0],
                   "Where do I sell my cheese each week?") == []
    assert offered("Caleb will love a cheese board.", caleb[0], "Plan a party.") == ["cheese"]
    got = says_otherwise("Bruno is a German Shepherd.", [(2, "Our dog is a beagle called "
                                                            "Bruno.")])
    assert got is not None and got["said"] == "shepherd"
