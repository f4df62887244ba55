"""What the thirty-ninth pass (and the items pass 38 left open) found, fixed."""
from __future__ import annotations

from hela_desktop.cautions import cautions, missed
from hela_desktop.doubt import answer_doubt
from hela_desktop.sources import doubt_note

T0 = 1_780_000_000.0
_KWAME = "Kwame has a severe egg allergy, so we keep eggs out of the house."
_ZOFIA = "Our daughter Zofia is 9 and she is allergic to peanuts."


def test_a_safety_question_answered_without_a_no_or_the_allergy_is_doubted():
    """QA pass 38 (the window): "Can Kwame eat scrambled eggs?" got "It seems like there's
    a bit of an awkwardness with the way you've described Kwame's diet…", and QA pass 38c
    P6: "Can Zofia eat peanut butter?" got "The article does not provide information about
    a baby being allergic to peanuts."; neither had a line under it."""
    kwame = cautions([(3, _KWAME)], about={"kwame"})[0]
    ask = "Can Kwame eat scrambled eggs?"
    ramble = ("It seems like there's a bit of an awkwardness with the way you've described "
              "Kwame's diet.")
    assert missed(ramble, kwame, ask)
    got = answer_doubt(ask, ramble, [], set(), cautions=[kwame], unrecalled=True)
    # (what was asked, said: QA pass 45c)
    assert doubt_note(got, []) == ("Check this answer: it does not say no to “eggs”, and you "
                                   f"told me “{_KWAME}”")
    zofia = cautions([(2, _ZOFIA)], about={"zofia"})[0]
    assert missed("The article does not provide information about a baby being allergic to "
                  "peanuts.", zofia, "Can Zofia eat peanut butter?")
    # an answer denying the allergy is no warning
    assert missed("Kwame doesn't have an egg allergy, so it's fine.", kwame, ask)
    # a no, a "should not", an "avoid", or the allergy named, is
    for right in ("No, Kwame has a severe egg allergy.", "Kwame should not eat scrambled eggs.",
                  "It is best to avoid eggs.", "Eggs could set off his allergy.",
                  "No.", "That would not be safe for him.",
                  "Skip the eggs and try the porridge instead.", "How about porridge?"):
        assert not missed(right, kwame, ask), right
    # only a food the caution names, of whom the question asks
    assert not missed(ramble, kwame, "Can Kwame eat pasta?")
    assert not missed(ramble, kwame, "Where does Kwame go to school?")
    mine = cautions([(4, "I'm vegetarian.")])[0]
    assert missed("A ham sandwich is a classic lunch.", mine, "Can I eat a ham sandwich?")
    assert not missed("A ham sandwich is a classic lunch.", mine, "Can my son eat ham?")
    assert not missed("A cheese sandwich is a classic lunch.", mine,
                      "Can I eat a cheese sandwich?")
    # a yes is the stronger sign, said first ("it names “peanut” without a word…")
    yes = answer_doubt("Can Zofia eat peanut butter?", "Yes, she loves peanut butter.", [],
                       set(), cautions=[zofia], unrecalled=True)
    assert yes is not None and yes["kind"] == "caution"


def test_an_answer_giving_another_age_than_told_says_which_memory_it_goes_against():
    """QA pass 38c P8: "Is my mum 75?" answered "…My mum is 75 years old…" (she is 70)
    was marked only "“75” is in none of them: the model may have made it up"."""
    from hela_desktop.events import Recall
    from hela_desktop.says_of import says_otherwise, told

    texts = [(6, "My mum is 70."), (2, "Our son Sam is 7 and has type 1 diabetes."),
             (3, "My dad is 66."), (4, "Ruby is 4 and allergic to shellfish."),
             (5, "The school is 10 minutes away and my run is 5k."),
             (7, "Leo is 18 months old."), (9, "Ama just turned 40.")]
    assert told(t for _, t in texts) == {
        "mother": {"age": {"70"}}, "sam": {"age": {"7"}}, "father": {"age": {"66"}},
        "ruby": {"age": {"4"}}, "ama": {"age": {"40"}}}
    said = says_otherwise("He is 70.", texts, "", "Is my dad 70?")
    assert said == {"kind": "says_otherwise", "name": "your dad", "said": "70", "memory": 3,
                    "quote": "My dad is 66."}
    assert says_otherwise("Sam is 8 years old.", texts, "Sam", "How old is Sam?")["quote"] \
        == "Our son Sam is 7 and has type 1 diabetes."
    # (a few more jobs: QA pass 39 P7, "…works as an insurance claims adjuster" of a nurse)
    assert says_otherwise("Ama works as an insurance claims adjuster.",
                          [(5, "My sister Ama is a nurse.")], "Ama")["said"] == "adjuster"
    for fine in ("No, he is 66.", "Your dad is 66 and he is 6 feet tall.",
                 "The school is 15 minutes away.", "Sam is 7.", "Ruby is 4 and she's 40 "
                 "inches tall.", "It's 7 pm.", "Sam is 12th in his class.",
                 "Sam turns 8 next year."):
        assert says_otherwise(fine, texts, "", "Is my dad 70?") is None, fine
    mems = [Recall(episode_id=6, score=1.0, text="My mum is 70.")]

    def note(ask: str, answer: str) -> str:
        return doubt_note(answer_doubt(ask, answer, mems, set(),
                                       lambda t: {"mum"} if "mum" in t else set()), [])

    mum = "Check this answer: it says your mum is 75, and you told me “My mum is 70.”"
    # (said once: the number is not also "made up")
    assert note("Is my mum 75?", "I'm glad I could help clarify that. My mum is 75 years "
                "old, so she's currently living in a different country.") == mum
    assert note("Is my mum 75?", "Yes.") == mum


_SAM = "Our son Sam is 7 and has type 1 diabetes."


def test_an_answer_denying_what_the_user_told_of_someone_says_so():
    """QA pass 39 P1, P2: "Can Sam eat a big bag of sweets?" answered "Sam can have a large
    quantity of sweets… he does not have a type 1 diabetes" had no line; "Sam is not
    diagnosed with type 1 diabetes, but instead has type 2" was marked only for "2"."""
    from hela_desktop.events import Recall
    from hela_desktop.says_of import says_not

    texts = [(3, _SAM), (4, "Our daughter Ruby is 4 and allergic to shellfish."),
             (5, "My partner Leah is a dentist."), (6, "Ama moved from Accra to London."),
             (7, "My dad is 66 and doesn't eat pork.")]
    got = says_not("Sam can have a large quantity of sweets, as he does not have a type 1 "
                   "diabetes.", texts, "Sam", "Can Sam eat a big bag of sweets?")
    assert got == {"kind": "says_not", "name": "Sam", "said": "does not have a type 1 diabetes",
                   "memory": 3, "quote": _SAM}
    assert says_not("No, she doesn't have any allergies.", texts, "Ruby",
                    "Can Ruby eat prawns?")["memory"] == 4
    assert says_not("Leah isn't a dentist.", texts, "Leah", "x")["name"] == "Leah"
    for fine in ("Ruby doesn't have diabetes.",  # (another person's)
                 "Leah is not a teacher.",  # (not what was told)
                 "Ama doesn't live in Accra.",  # (no memory says she lives there now)
                 "Your dad does not eat pork.",  # (the memory says so itself)
                 "Sam does not have type 2 diabetes."):  # (not every word)
        assert says_not(fine, texts, "", "Is my dad well?") is None, fine
    assert says_not("He is not allergic to shellfish.", texts, "", "Is my son allergic?") \
        is None  # (the son is Sam)
    mems = [Recall(episode_id=3, score=1.0, text=_SAM)]
    said = cautions([(3, _SAM)], about={"sam"})

    def note(ask: str, answer: str) -> str:
        return doubt_note(answer_doubt(ask, answer, mems, {3}, lambda t: {"sam"} if "Sam" in t
                                       else set(), cautions=said), [m.to_dict() for m in mems])

    # (said once, as denied, not also as left out)
    assert note("Can Sam eat a big bag of sweets?", "Sam can have a large quantity of sweets, "
                "as he does not have a type 1 diabetes.") == (
        f"Check this answer: it says Sam does not have a type 1 diabetes, and you told me “{_SAM}”")
    # diabetes is a caution for what is mostly sugar; an answer minding it is not marked
    assert note("Can Sam eat a big bag of sweets?", "Sure, Sam can have a big bag of sweets!") \
        == ("Check this answer: it names “sweets” without a word of warning, and you told me "
            f"“{_SAM}”")
    for fine in ("Sam needs to watch his sugar; a few sweets with his insulin is fine.",
                 "A big bag is too much with his diabetes."):
        assert note("Can Sam eat a big bag of sweets?", fine) == "", fine
    assert note("What should Sam avoid?", "Sam should avoid running in the rain.") == (
        f"Check this answer: it leaves out what you told me: “{_SAM}”")
    assert cautions([(8, "My grandad had diabetes.")]) == []  # (not the user's own)
    assert "sweets" in cautions([(9, "I have type 2 diabetes.")])[0].avoid


def test_an_answer_that_says_the_old_value_was_replaced_gives_no_older_news():
    """QA pass 39 P6: "Where does Ama live?" answered "Ama moved from Accra to London. The
    news that she lives in Accra is replaced by a more recent one…" was marked as giving
    older news."""
    from hela_desktop.older_news import gives_older

    old, new = "My sister Ama lives in Accra and she is a nurse.", "Ama moved from Accra to London."
    ask = "Where does Ama live?"
    assert not gives_older(ask, "Ama moved from Accra to London. The news that she lives in "
                           "Accra is replaced by a more recent one.", old, new)
    assert gives_older(ask, "Ama lives in Accra.", old, new)


def test_a_follow_up_he_is_read_as_whom_the_last_message_named(make_assistant):
    """QA pass 39 P3: "How old is he?" after a question about Sam recalled nothing and
    "Sam is a 21-year-old male." had no line; end to end on the real model and embedder,
    it is read as "How old is Sam?", recalls Sam's memory and says how it was read."""
    from hela_desktop.chat_export import answer_notes
    from hela_desktop.events import DoneEvent, MemoriesEvent

    a = make_assistant()
    cid = a.new_conversation()

    def ask(text: str, at: float) -> tuple[MemoriesEvent, DoneEvent]:
        events = list(a.chat(text, cid, now=T0 + at))
        return (next(e for e in events if isinstance(e, MemoriesEvent)),
                next(e for e in events if isinstance(e, DoneEvent)))

    for k, t in enumerate((_SAM, "Our daughter Ruby is 4 and allergic to shellfish.",
                           "My friend Callum plays the bagpipes.", "What does Sam have?")):
        ask(t, k)
    shown, done = ask("How old is he?", 60)
    assert any(r.text == _SAM for r in shown.memories)
    assert done.respelled == [["he", "Sam"]]
    msgs = a.store.messages(cid)
    assert msgs[-2]["content"] == "How old is he?"  # (the chat keeps what was written)
    assert "Read “he” as “Sam”, from your last message." in answer_notes(msgs[-1]["stats"])
    # "she" is not Sam; and after a message naming two whom "he" can both be, no one
    assert ask("How old is she?", 70)[1].respelled == []
    ask("Where do Sam and Callum live?", 80)
    assert ask("What does he do?", 90)[1].respelled == []


def test_whom_a_pronoun_can_be_is_read_from_the_memories():
    from hela_desktop.follow_up import gender_in, refer

    assert gender_in("Sam", [_SAM]) == "m"
    assert gender_in("Ama", ["My sister Ama lives in Accra and she is a nurse."]) == "f"
    assert gender_in("Ama", ["Ama is my sister."]) == "f"
    assert gender_in("Callum", ["My friend Callum plays the bagpipes."]) == ""
    assert gender_in("Tom", ["Tom and Anna came; she cooked."]) == ""  # (whose "she"?)
    assert gender_in("my mum", []) == "f"
    known = {"Sam": "m", "Ruby": "f", "my mum": "f"}.get

    def read(message, *earlier):
        return refer(message, list(earlier), lambda n: known(n, ""))

    assert read("How old is he?", ("What does Sam have?", ["Sam"])) == (
        "How old is Sam?", [("he", "Sam")])
    assert read("Is his birthday soon?", ("Tell me about Callum.", ["Callum"])) == (
        "Is Callum's birthday soon?", [("his", "Callum's")])
    assert read("What is her job?", ("How is my mum?", ["my mum"]))[0] == "What is my mum's job?"
    assert read("Did I call her yesterday?", ("How is my mum?", ["my mum"]))[0] == \
        "Did I call my mum yesterday?"
    assert read("Did I tell her everything?", ("How is my mum?", ["my mum"]))[0] == \
        "Did I tell my mum everything?"
    # a message between that asks on about them carries it; another talk does not
    assert read("What does he like?", ("How old is he?", []), ("Sam?", ["Sam"]))[0] == \
        "What does Sam like?"
    assert read("What does he like?", ("What's the weather?", []), ("Sam?", ["Sam"]))[1] == []
    assert read("He is 7.", ("What does Sam have?", ["Sam"]))[1] == []  # (no question)
    assert read("How old is he?", ("What does Ruby have?", ["Ruby"]))[1] == []
    assert read("What does she do?", ("Where do Ruby and Sam live?", ["Ruby", "Sam"]))[0] == \
        "What does Ruby do?"


def test_a_name_spelt_another_common_way_is_read_as_the_users_own():
    """QA pass 39 P4: "What does Lea do?" (Leah) and "How old is Rubi?" (Ruby) got
    non-answers with no line: "Lea" was too short to be read, and i/y are no neighbouring
    keys."""
    from hela_desktop.name_index import NameIndex

    n = NameIndex()
    n.learn(["My partner Leah is a dentist.", "Our daughter Ruby is 4.", "My friend Tom is 30.",
             "My aunt Katie lives in Perth."])
    assert n.respell("What does Lea do?") == ("What does Leah do?", [("Lea", "Leah")])
    assert n.respell("How old is Rubi?") == ("How old is Ruby?", [("Rubi", "Ruby")])
    assert n.respell("Where does Katy live?")[1] == [("Katy", "Katie")]
    # another short name stays as written: "Tim" is no misspelt "Tom"
    for same in ("Is Tim coming?", "Is Leo coming?", "Lea is my new colleague."):
        assert n.respell(same) == (same, []), same


def test_the_list_of_what_you_told_puts_a_greeted_introduction_with_yourself():
    """QA pass 39 P11: "Hi, I'm Daniel Mensah, a bus driver in Glasgow." came tenth, after
    the family, and "She is a nurse." (of "My sister Ama lives in Accra and she is a
    nurse.", the rest corrected) named no one."""
    from hela_desktop.about_you import of_whom
    from hela_desktop.facts import self_rank

    assert self_rank("Hi, I'm Daniel Mensah, a bus driver in Glasgow.") == 0
    assert self_rank("Hello! My name is Oskar.") == 0
    assert self_rank("Hi, my sister Ama is a nurse.") == 2
    assert of_whom("She is a nurse.", "My sister Ama lives in Accra and she is a nurse.") \
        == "of your sister Ama"


def test_a_request_about_food_brings_in_what_the_household_must_not_eat(make_assistant):
    """QA pass 39 P12: "Suggest a dinner for the family" recalled nothing, so Ruby's
    shellfish allergy and Sam's diabetes were never in the prompt, and nothing was checked
    against them.  End to end on the real model and embedder."""
    from hela_desktop.cautions import asks_for_food, for_household
    from hela_desktop.events import MemoriesEvent

    assert asks_for_food("Suggest a dinner for the family") and asks_for_food(
        "Can Ruby eat prawns?") and not asks_for_food("We had pizza for dinner.")
    assert for_household("Plan a picnic for all of us.") and not for_household(
        "What should I bake for Zofia?")
    a = make_assistant()
    cid = a.new_conversation()
    ruby = "Our daughter Ruby is 4 and she is allergic to shellfish."
    for k, t in enumerate((_SAM, ruby, "My friend Callum plays the bagpipes.",
                           "I run 5k every Saturday.", "My friend Ola is vegan.")):
        list(a.chat(t, cid, now=T0 + k))

    def recalled(message: str, at: float) -> list[str]:
        return [r.text for r in next(e for e in a.chat(message, cid, now=T0 + at)
                                     if isinstance(e, MemoriesEvent)).memories]

    family = recalled("Suggest a dinner for the family", 60)
    assert _SAM in family[:3] and ruby in family[:3]
    assert "My friend Ola is vegan." not in family  # (a friend is no family)
    # whom a request names: theirs, not the others'
    for_ruby = recalled("What could I cook for Ruby?", 70)
    assert ruby in for_ruby and _SAM not in for_ruby
    # no food asked about: none brought in
    assert _SAM not in recalled("What does Callum play?", 80)
    # an answer to the family offering shellfish is checked against Ruby's allergy
    from hela_desktop.cautions import cautions as told_cautions

    about = a._asked_about("Suggest a dinner for the family")
    assert {"ruby", "sam"} <= about and "ola" not in about
    said = told_cautions([(2, ruby)], about=about)
    assert said and said[0].theirs


def test_an_answer_calling_someone_of_the_users_life_an_animal_is_marked():
    """QA pass 39 P5: "Is Ama a nurse?" answered "Ama is a cat… named Biscuit" was marked
    only as older news; QA pass 38c: "Zofia, a wonderful pet." and "Tomek, a wonderful and
    brave dog." went unmarked."""
    from hela_desktop.events import Recall
    from hela_desktop.says_of import called_animal

    texts = [(5, "My sister Ama lives in London and she is a nurse."),
             (7, "Our cat is a ginger tom called Biscuit."),
             (3, "Our daughter Zofia is 9 and she is allergic to peanuts."),
             (4, "My brother Tomek lives in Krakow."), (6, "Callum is my friend.")]
    assert called_animal("Zofia, a wonderful pet. She loves peanut butter.", texts) == {
        "kind": "says_otherwise", "name": "Zofia", "said": "pet", "memory": 3,
        "quote": "Our daughter Zofia is 9 and she is allergic to peanuts."}
    assert called_animal("Tomek, a wonderful and brave dog.", texts)["said"] == "dog"
    # (in the window on 5ea2446: "Your sister Ama is indeed a cat." had no such line)
    assert called_animal("Your sister Ama is indeed a cat.", texts)["name"] == "Ama"
    assert called_animal("Callum, a golden retriever, loves walks.", texts)["memory"] == 6
    for fine in ("Ama is a cat lover.", "Biscuit is a cat.", "Callum is a dog person.",
                 "Ama has a cat.", "Ama walks the dog's lead."):
        assert called_animal(fine, texts) is None, fine
    mems = [Recall(episode_id=5, score=1.0, text=texts[0][1])]
    got = answer_doubt("Is Ama a nurse?", "Ama is a cat, a ginger tom named Biscuit, and she "
                       "lives in London.", mems, {5}, lambda t: {"ama"} if "Ama" in t else set())
    assert doubt_note(got, [m.to_dict() for m in mems]).startswith(
        "Check this answer: it says Ama is a cat, and you told me “My sister Ama lives in "
        "London and she is a nurse.”")


def test_sober_for_good_is_a_caution_and_steer_clear_asks_for_one():
    """`bench personal`: "What should the best man steer clear of…?", the best man two years
    sober, went unmarked; "Dylan hit two years sober" said nothing of alcohol."""
    from hela_desktop.cautions import caution_of

    assert "beer" in caution_of("I've been sober since 2019.")
    assert "wine" in caution_of("I'm a recovering alcoholic.")
    assert caution_of("I'm sober tonight so I'll drive.") == frozenset()  # (for tonight)
    dylan = cautions([(5, "Proud of Dylan, he hit two years sober this week.")],
                     about={"dylan"})[0]
    assert dylan.theirs and "alcohol" in dylan.avoid
    ask = "What should Dylan steer clear of at my stag do?"
    assert missed("He should steer clear of the wedding plan.", dylan, ask)
    assert not missed("Keep him away from the beer.", dylan, ask)


def test_a_question_for_a_night_or_a_time_checks_the_dates_an_answer_gives():
    """`bench personal`: "What night of the week do we play at the Blue Heron?" answered "…the
    date of the event is 10 April 2025." went unmarked: only "when", "day", "date"… asked
    for a date."""
    from hela_desktop.events import Recall

    mems = [Recall(episode_id=1, score=1.0, text="Our trio has a standing Thursday night slot "
                   "at the Blue Heron.")]
    got = answer_doubt("What night of the week do we play at the Blue Heron?",
                       "The Blue Heron is a nightclub, and the date of the event is 10 April "
                       "2025.", mems, set(), lambda t: set(), now=T0)
    assert got is not None and got["kind"] == "made_up" and "2025" in got["words"]
    assert answer_doubt("What night of the week do we play at the Blue Heron?",
                        "You play there on Thursday night.", mems, {1}, lambda t: set(),
                        now=T0) is None


def test_qa_39b_each_caution_is_said_and_a_pet_called_another_animal_is_marked():
    """QA pass 39b: "Suggest a dessert for the family" offered peanut butter and hazelnut,
    and only Sam's sugar caution was said, not Dev's nut allergy; "sweet potato soup" was
    marked against Sam's diabetes; "Can Dev have a Snickers bar?" was answered without a
    word of his nut allergy; "Sam is currently 6 years old", "He's 4 years old" and "Mango
    is a cat" (a labrador) went unmarked."""
    from hela_desktop.says_of import says_otherwise

    dev = "Our son Dev is 10 and allergic to nuts."
    said = cautions([(3, _SAM), (9, dev)], about={"sam", "dev"})
    got = answer_doubt("Suggest a dessert for the family", "A big bag of sweets, then peanut "
                       "butter cookies with hazelnut.", [], set(), cautions=said,
                       unrecalled=True)
    assert [got["memory"], *(d["memory"] for d in got["also"])] == [3, 9]
    assert answer_doubt("Suggest a dinner for the family", "Try a sweet potato soup.", [],
                        set(), cautions=said, unrecalled=True) is None
    assert missed("Dev loves chocolate.", said[1], "Can Dev have a Snickers bar?")
    texts = [(2, _SAM), (7, "Our dog is a labrador called Mango."), (8, "Pepper is a tabby.")]
    for answer, who, what in (("Sam is currently 6 years old.", "Sam", "6"),
                              ("He's 4 years old.", "Sam", "4"), ("Sam's 8.", "Sam", "8"),
                              ("Mango is a cat, and she loves fish.", "Mango", "cat"),
                              ("Pepper is a dog.", "Pepper", "dog")):
        got = says_otherwise(answer, texts, who, "x")
        assert got is not None and got["said"] == what, answer
    for fine in ("Mango is a dog.", "Mango is a lovely puppy.", "Pepper is a cat.",
                 "Sam's dog is 3.", "Sam is 7."):
        assert says_otherwise(fine, texts, "Mango", "x") is None, fine


def test_a_correction_of_one_daughter_is_no_news_of_the_other(make_assistant):
    """QA pass 39b P3: after "Actually Meera is 7 now, not 6.", "Our daughter Ruby is 4 and
    she is allergic to shellfish." came in with Meera's memories through "my daughter" and
    was marked older news (and the answer "it may give older news"): two daughters."""
    from hela_desktop.events import MemoriesEvent

    a = make_assistant()
    cid = a.new_conversation()
    ruby = "Our daughter Ruby is 4 and she is allergic to shellfish."
    for k, t in enumerate((ruby, "Our daughter Meera is 6.", "Actually Meera is 7 now, not 6.")):
        list(a.chat(t, cid, now=T0 + k))
    shown = next(e for e in a.chat("Who is Meera?", cid, now=T0 + 60)
                 if isinstance(e, MemoriesEvent)).memories
    assert not any(r.text == ruby and r.extra.get("older_than") for r in shown)
    assert any(r.text == "Our daughter Meera is 6." and r.extra.get("superseded_by")
               for r in shown)


def test_what_a_memory_replaced_in_part_still_says_is_checked():
    """QA pass 39b P4: "Is Ama a nurse?" answered "Ama is not a nurse." had no line:
    "My sister Ama lives in Accra and she is a nurse." is older news for her home, not her
    job; and "Ama doesn't live in Accra anymore." gives no older news."""
    from hela_desktop.events import Recall

    old = Recall(episode_id=5, score=1.0, text="My sister Ama lives in Accra and she is a "
                 "nurse.", extra={"superseded_by": 13, "older_than": 13})
    mems = [Recall(episode_id=13, score=1.0, text="Ama moved from Accra to London."), old]

    def note(answer: str) -> str:
        return doubt_note(answer_doubt("Is Ama a nurse?", answer, mems, {13},
                                       lambda t: {"ama"} if "Ama" in t else set()),
                          [m.to_dict() for m in mems])

    assert note("Ama is not a nurse.") == (
        "Check this answer: it says Ama is not a nurse, and you told me “My sister Ama lives "
        "in Accra and she is a nurse.”")
    assert note("Ama doesn't live in Accra anymore.") == ""  # (what the newer says)
    assert note("Ama lives in Accra.").startswith("Check this answer: it may give older news")


def test_qa_39c_answers_about_the_allergy_itself_offer_nothing():
    """QA pass 39c: answers explaining coeliac disease or an egg allergy ("Coeliac means a
    condition where the body produces gluten, which is found in wheat.") were marked as
    naming gluten "without a word of warning"; "No, I'm afraid of eggs…" to "Can Isla eat
    cake?" too; "he has been sober for three years" to "What should Jamie avoid?" was said
    to leave that out; "It seems so, 71…" to "Is my dad 71?" used no memory; and the
    reply "…you're selling it to Caleb's nephew" offered Caleb (vegan) the cheese."""
    from hela_desktop.events import Recall

    leo = cautions([(3, "Our son Leo is 9 and he is coeliac.")], about={"leo"})[0]
    isla = cautions([(4, "Our daughter Isla is 5 and she is allergic to eggs.")],
                    about={"isla"})[0]
    from hela_desktop.cautions import offered

    assert offered("Coeliac means a condition where the body produces gluten, which is found "
                   "in wheat.", leo, "Our son Leo is 9 and he is coeliac.") == []
    assert offered("He is not just gluten intolerant but also contains other types of gluten "
                   "proteins in his body.", leo, "Is Leo coeliac?") == []
    assert offered("She has a special reaction to something she eats, which is made up of "
                   "egg whites.", isla, "What is Isla allergic to?") == []
    # (what has them eat it, or denies it, still counts)
    assert offered("She can have eggs.", isla, "What is Isla allergic to?") == ["eggs"]
    assert offered("Isla is not allergic to eggs.", isla, "Is Isla allergic to anything?") \
        == ["eggs"]
    for no in ("No, I'm afraid of eggs. I'll make something that doesn't contain any eggs!",
               "No, Isla cannot eat cake because it contains eggs."):
        assert offered(no, isla, "Can Isla eat cake?") == [], no
    jamie = cautions([(5, "My brother Jamie has been sober for three years.")],
                     about={"jamie"})[0]
    assert not missed("Your brother Jamie is a multi-talented person, but he has been sober "
                      "for three years.", jamie, "What should Jamie avoid?")
    caleb = cautions([(6, "Funny thing, Caleb went vegan last year.")], named={"caleb"})[0]
    assert offered("Your cheese is sold at the market and you're selling it to Caleb's "
                   "nephew.", caleb, "Where do I sell my cheese?") == []
    assert offered("Caleb's cheese is great, and Caleb loves it.", caleb, "x") == ["cheese"]
    mems = [Recall(episode_id=6, score=1.0, text="My dad is 71 and he lives in Bath.")]
    assert answer_doubt("Is my dad 71?", "It seems so, 71 is a special day in your life.",
                        mems, set(), lambda t: {"my father"} if "dad" in t else set()) is None


def test_the_assistant_saying_what_it_would_like_is_not_speaking_as_the_user():
    """QA pass 39c: the reply to "We also have a cat called Mochi." read "it speaks as if it
    were you (“I'd like to share a bit more about it, but let's just say…”)"."""
    from hela_desktop.whom import as_user

    assert as_user("We also have a cat called Mochi.", "I'd like to share a bit more about "
                   "it, but let's just say that Mochi is not a real cat.", []) is None
    assert as_user("I fly to Porto on 14 March.", "I fly to Porto on 14 March, so I'll pack.",
                   []) is not None  # (still: what the user told, said as its own)


def test_a_food_request_answered_without_the_cautions_it_brought_in_says_so():
    """In the window (50bf448): "Suggest a dinner for the family" brought in Ruby's and
    Sam's cautions and got "We're having a dinner for the family today.", listed as
    "Recalled, not used" with no line: the request was not read as about the user's
    life."""
    from hela_desktop.cautions import CAUTION_GATE
    from hela_desktop.events import Recall

    mems = [Recall(episode_id=i, score=0.2, text=t, extra={"gate": CAUTION_GATE})
            for i, t in ((2, "Our daughter Ruby is 4 and she is allergic to shellfish."),
                         (1, _SAM))]
    ask = "Suggest a dinner for the family"
    got = answer_doubt(ask, "We're having a dinner for the family today.", mems, set(),
                       lambda t: set())
    assert doubt_note(got, [m.to_dict() for m in mems]) == (
        "Check this answer: it uses none of the memories recalled for it; what you told me "
        "may matter here.")
    assert answer_doubt(ask, "A vegetable risotto, and no shellfish for Ruby.", mems, {2},
                        lambda t: set()) is None
    # (recalled for its meaning, not as a caution: not so)
    plain = [Recall(episode_id=m.episode_id, score=0.2, text=m.text) for m in mems]
    assert answer_doubt(ask, "We're having a dinner for the family today.", plain, set(),
                        lambda t: set()) is None


def test_a_common_word_before_your_relation_and_their_name_is_no_made_up_name():
    """`bench personal` on aa10037: "…First, your cheese is sold at the Montpelier farmers
    market… Second, your nephew Caleb has been staying with us…" (right) was marked for
    "Second": ", your nephew" read it as the nephew's name."""
    from hela_desktop.made_up import made_up

    assert made_up("First, your cheese is sold at the market. Second, your nephew Caleb has "
                   "been staying.", "cheese market nephew Caleb staying") == []
    assert made_up("Elsa, your daughter, loves horses.", "daughter horses") == ["Elsa"]
