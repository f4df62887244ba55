"""What the fortieth pass (and the items pass 39 left open) found, fixed."""
from __future__ import annotations

T0 = 1_780_000_000.0


def test_a_name_with_a_doubled_letter_written_once_is_read_as_the_users_own():
    """QA pass 39c: "What does Hana do?" (Hannah) got an invented job and "Where does Skie
    live?" (Skye) an invented place, neither with a line: "Hana" is two changes off
    "Hannah", and "ye" was no ending `_variant` knew."""
    from hela_desktop.name_index import NameIndex

    n = NameIndex()
    n.learn(["My wife Hannah is a midwife.", "Our dog is a collie called Skye.",
             "My friend Matt is 30.", "My friend Tom lives in Leeds."])
    assert n.respell("What does Hana do?") == ("What does Hannah do?", [("Hana", "Hannah")])
    assert n.respell("Where does Skie live?")[1] == [("Skie", "Skye")]
    assert n.respell("Is Mat coming?")[1] == [("Mat", "Matt")]
    # another name stays as written
    for same in ("Is Tim coming?", "Is Hans coming?", "Is Tam here?"):
        assert n.respell(same) == (same, []), same


def test_an_answer_giving_the_told_age_and_another_names_the_other():
    """QA pass 39c row 38: "How old is Leo?" answered "The correct answer is 9. Leo is 10
    years old…" was marked only as made-up numbers: the told 9 said elsewhere in the
    answer hid the age it gives Leo."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.says_of import says_otherwise
    from hela_desktop.sources import doubt_note

    leo = "Our son Leo is 9 and he is coeliac."
    texts = [(3, leo)]
    both = "The correct answer is 9. Leo is 10 years old and he is 2 months old."
    assert says_otherwise(both, texts, "", "How old is Leo?") == {
        "kind": "says_otherwise", "name": "Leo", "said": "10", "memory": 3, "quote": leo}
    # an age at another time is no other age
    for fine in ("Leo is 9. Next year he is 10.", "When Leo is 10 he can go to camp.",
                 "Leo is 9.", "Yes, Leo is 9 years old.", "Leo is 9 and Isla is 5."):
        assert says_otherwise(fine, texts, "", "How old is Leo?") is None, fine
    got = answer_doubt("How old is Leo?", both, [Recall(episode_id=3, score=1.0, text=leo)],
                       set(), lambda t: {"leo"} if "Leo" in t else set())
    assert doubt_note(got, []).startswith(
        f"Check this answer: it says Leo is 10, and you told me “{leo}”")


def test_the_reply_to_a_statement_that_says_otherwise_quotes_the_statement():
    """QA pass 38 ("Leah is actually a hairstylist" to "My sister Leah is a nurse.") and
    39c P8 ("…let's just say that Mochi is not a real cat. He's actually a mythical
    creature…" to "We also have a cat called Mochi."): the reply went against what the
    user had just said, with no line, or a false one ("it speaks as if it were you")."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    def note(message: str, answer: str) -> str:
        return doubt_note(answer_doubt(message, answer, [], set(), lambda t: set()), [])

    assert note("My sister Leah is a nurse.", "Leah is actually a hairstylist, and she loves "
                "it.") == ("Check this answer: it says Leah is a hairstylist, and you told me "
                           "“My sister Leah is a nurse.”")
    assert note("We also have a cat called Mochi.", "I'd like to share a bit more about it, "
                "but let's just say that Mochi is not a real cat. He's actually a mythical "
                "creature.") == ("Check this answer: it says Mochi is not a real cat, and you "
                                 "told me “We also have a cat called Mochi.”")
    assert note("Our son Leo is 9 and he is coeliac.", "Leo is 12 and loves bread.") == (
        "Check this answer: it says Leo is 12, and you told me “Our son Leo is 9 and he is "
        "coeliac.”")
    assert note("My sister Ama lives in Accra.", "Ama is a cat.").startswith(
        "Check this answer: it says Ama is a cat")
    # a reply that agrees, or speaks of another time, has no such line
    for message, answer in (("Marco is a paramedic.", "Marco is a paramedic, how lovely."),
                            ("My dad is 71 and he lives in Bath.", "Your dad is 71? Great."),
                            ("Our son Leo is 9.", "Next year Leo is 10!"),
                            ("My wife Hannah is a midwife.", "Hannah is a wonderful mother.")):
        assert "it says" not in note(message, answer), (message, answer)


def test_a_friend_or_relation_by_a_name_never_told_is_doubted_in_any_answer():
    """QA pass 39c P7: "Plan a party for Jamie's birthday" answered "…with your friend
    Sarah and me.", no Sarah ever told: a request for ideas has no made-up check, so
    nothing was said."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note
    from hela_desktop.whom import invented

    def note(message: str, answer: str, names: frozenset[str] = frozenset({"jamie"})) -> str:
        return doubt_note(answer_doubt(message, answer, [], set(), lambda t: set(),
                                       user_names=names), [])

    party = "Plan a party for Jamie's birthday"
    assert note(party, "Let's have a party in the park with your friend Sarah and me.") == (
        "Check this answer: it speaks of “your friend Sarah”, and you never told me of Sarah.")
    assert note("Suggest a dinner", "Emily, your sister, loves pasta.") == (
        "Check this answer: it speaks of “Emily, your sister”, and you never told me of Emily.")
    # a name the user wrote, in their memories or in this chat, or spelt another way
    assert invented("Invite your brother Jamie.", party, frozenset()) is None
    assert invented("Invite your brother Jamie and your friend Chloe.", "",
                    frozenset({"jamie", "chloe"})) is None
    assert invented("Cook with your wife Hana.", "", frozenset({"hannah"})) is None
    # no name at all, or a word that is none
    for fine in ("Cook pasta with your sister. Then relax.", "Ask your family On Sunday.",
                 "Your friend, Monday, is here."):
        assert invented(fine, "", frozenset()) is None, fine


def test_qa_40b_dairy_and_meat_dishes_are_caution_words():
    """QA pass 40b P3: "…fresh fruit and creamy gelato…" for lactose-intolerant Sofia and
    "…a pasta with garlic and meatballs…" for a vegetarian got only "it uses none of the
    memories recalled for it"."""
    from hela_desktop.cautions import cautions, offered

    sofia = cautions([(4, "Our daughter Sofia is 3 and she is lactose intolerant.")],
                     about={"sofia"})[0]
    assert offered("I've created an Italian dessert with fresh fruit and creamy gelato.",
                   sofia, "Suggest a dessert for Sofia") == ["gelato"]
    mine = cautions([(9, "I am vegetarian.")])[0]
    assert offered("I'll have a pasta with garlic and meatballs.", mine,
                   "Suggest a dinner for the family") == ["meatballs"]
    # (chocolate and "creamy" are no dairy words: dark chocolate, a creamy coconut curry)
    assert offered("Try dark chocolate or a creamy coconut curry.", sofia,
                   "Suggest a dessert for Sofia") == []


def test_qa_40b_names_spelt_by_sound_and_quoted_names_are_read():
    """QA pass 40b P5 ("What does Marko do?" for Marco: "a Roman soldier", no line) and P6
    ('You are correct. "Chloe" is a cat that lives in Manchester.' to "Chloe lives in
    Manchester.", Chloe being the user's best friend: no line)."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.name_index import NameIndex
    from hela_desktop.sources import doubt_note

    n = NameIndex()
    n.learn(["My partner Marco is a paramedic.", "My friend Eric lives in Leeds."])
    assert n.respell("What does Marko do?") == ("What does Marco do?", [("Marko", "Marco")])
    assert n.respell("Where does Erik live?")[1] == [("Erik", "Eric")]
    assert n.respell("Is Marta coming?")[1] == []
    vet = [Recall(episode_id=6, score=1.0, text="My best friend Chloe is a vet.")]
    got = answer_doubt("Chloe lives in Manchester.",
                       'You are correct. "Chloe" is a cat that lives in Manchester.', vet,
                       set(), lambda t: {"chloe"} if "Chloe" in t else set())
    assert doubt_note(got, []) == ("Check this answer: it says Chloe is a cat, and you told "
                                   "me “My best friend Chloe is a vet.”")


def test_a_friends_job_is_no_old_state_of_her_move(make_assistant):
    """QA pass 40b P2: "My best friend Chloe is a vet." came in through Chloe's old home
    ("Chloe lives in Manchester.", replaced by "Chloe moved to York last month.") and was
    marked older news, and "What do I do for a living?" got "it may give older news"."""
    from hela_desktop import facts
    from hela_desktop.events import MemoriesEvent

    assert facts.of_another_kind("My best friend Chloe is a vet.",
                                 "Chloe moved to York last month.")
    assert not facts.of_another_kind("Ines sent me photos of the garden at her flat.",
                                     "Actually my sister moved to Porto.")
    a = make_assistant()
    cid = a.new_conversation()
    vet = "My best friend Chloe is a vet."
    for k, t in enumerate((vet, "I go swimming on Monday mornings.", "I am vegetarian.",
                           "Chloe lives in Manchester.", "Chloe moved to York last month.")):
        list(a.chat(t, cid, now=T0 + k))
    shown = next(e for e in a.chat("What do I do for a living?", cid, now=T0 + 60)
                 if isinstance(e, MemoriesEvent)).memories
    assert any(r.text == "Chloe lives in Manchester." and r.extra.get("superseded_by")
               for r in shown)
    # (it comes in with her old home, through her name, and stays current)
    assert [r.extra.get("older_than") for r in shown if r.text == vet] == [None]


def test_the_users_own_diet_is_no_business_of_a_question_about_another():
    """QA pass 40b P8: "Can Luca eat satay chicken?" answered "…He may eat other types of
    meat such as lamb or beef…" was doubted for the user's own "I am vegetarian.", which
    says nothing of Luca."""
    from hela_desktop.cautions import cautions, of_others_only

    told = [(9, "I am vegetarian."), (3, "Our son Luca is 8 and he is allergic to peanuts.")]
    for ask, about, own in (("Can Luca eat satay chicken?", {"luca"}, False),
                            ("Can my dad take aspirin?", {"dad", "father"}, False),
                            ("What can I cook for Luca?", {"luca"}, True),
                            ("Suggest a dinner for the family", {"luca"}, True),
                            ("Can I eat meatballs?", set(), True)):
        assert of_others_only(ask, about) is not own, ask
        got = cautions(told, about=about, own=not of_others_only(ask, about))
        assert any(c.text == "I am vegetarian." for c in got) is own, ask
    assert [c.text for c in cautions(told, about={"luca"}, own=False)] == [
        "Our son Luca is 8 and he is allergic to peanuts."]


def test_qa_40_an_answer_saying_the_allergen_does_no_harm_is_doubted():
    """QA pass 40 (unsafe, no line): "Can Isla eat cake?" answered "…Your daughter Isla has
    an allergy to eggs, which means she can eat chocolate or any other type of food that
    contains eggs without having allergic reactions."; and "Is he 9?" (Leo, 9) answered
    "The answer is no, Leo is only 9 years old." had no line."""
    from hela_desktop.cautions import cautions, offered
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.sources import doubt_note

    isla = cautions([(4, "Our daughter Isla is 5 and she is allergic to eggs.")],
                    about={"isla"})[0]
    ask = "Can Isla eat cake?"
    assert offered("This is a common and safe assumption. Your daughter Isla has an allergy "
                   "to eggs, which means she can eat chocolate or any other type of food that "
                   "contains eggs without having allergic reactions.", isla, ask) == ["eggs"]
    for warns in ("Isla is allergic to eggs, so she should not eat cake.",
                  "Eggs can cause her allergic reactions.",
                  "Isla has an allergy to eggs, which means she cannot eat cake.",
                  "She is allergic to leucine, which is found in eggs.",
                  "Isla is allergic to eggs, so avoid the cake."):
        assert offered(warns, isla, ask) == [], warns
    leo = [Recall(episode_id=3, score=1.0, text="Our son Leo is 9 and he is coeliac.")]
    assert doubt_note(answer_doubt("Is Leo 9?", "The answer is no, Leo is only 9 years old.",
                                   leo, {3}, lambda t: {"leo"} if "Leo" in t else set()),
                      []) == ("Check this answer: it says no, and you told me “Our son Leo "
                              "is 9 and he is coeliac.”")


def test_a_job_age_or_pets_kind_asked_and_not_given_says_what_was_told():
    """QA pass 40 P7: "What does Hannah do?" answered "…Hannah's birthday is indeed 2
    May…" listed "My wife Hannah is a midwife." as used, with no line."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.says_of import leaves_out
    from hela_desktop.sources import doubt_note

    texts = [(2, "My wife Hannah is a midwife."), (6, "My dad is 71 and he lives in Bath."),
             (7, "Our dog is a collie called Skye."), (8, "We also have a cat called Mochi.")]
    for ask, answer, eid in (
            ("What does Hannah do?", "You're right, Hannah's birthday is indeed 2 May.", 2),
            ("What is Hannah's job?", "She loves her family.", 2),
            ("How old is my dad?", "Your dad lives in Bath.", 6),
            ("What is Mochi?", "Mochi is a Japanese rice cake.", 8)):
        assert leaves_out(ask, answer, texts) == {
            "kind": "left_out", "memory": eid, "said": dict(texts)[eid]}, ask
    for ask, answer in (("What does Hannah do?", "Hannah is a midwife."),
                        ("How old is my dad?", "He is seventy-one."),
                        ("What is Mochi?", "Mochi is your cat."),
                        ("What kind of dog is Skye?", "Skye is a collie."),
                        ("What does Hannah do at the weekend?", "She swims."),
                        ("What does a midwife do?", "Delivers babies.")):
        assert leaves_out(ask, answer, texts) is None, ask
    mems = [Recall(episode_id=10, score=1.0, text="Hannah's birthday is 2 May."),
            Recall(episode_id=2, score=1.0, text="My wife Hannah is a midwife.")]
    got = answer_doubt("What does Hannah do?", "You're absolutely right, Hannah's birthday is "
                       "indeed 2 May.", mems, {10, 2}, lambda t: {"hannah"} if "Hannah" in t
                       else set())
    assert doubt_note(got, []) == ("Check this answer: it leaves out what you told me: “My "
                                   "wife Hannah is a midwife.”")


def test_qa_40_a_pet_called_two_animals_and_a_greeting_by_anothers_name():
    """QA pass 40: "Is Skye a cat?" (a collie) answered "Skye is actually a cat named Luna…
    Skye is actually a dog named Luna." marked only "Luna"; "How old is my dad?" answered
    "Hi Jamie, …" (Jamie being the brother) and "…dear Tom Becker…" was read as the
    user's own words given to the dad."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.says_of import says_otherwise
    from hela_desktop.sources import doubt_note
    from hela_desktop.whom import greets_as

    pets = [(7, "Our dog is a collie called Skye."), (8, "We also have a cat called Mochi.")]
    assert says_otherwise("Skye is actually a cat named Luna. So, in short, yes, Mochi is a "
                          "cat, but Skye is actually a dog named Luna.", pets, "Skye",
                          "Is Skye a cat?")["said"] == "cat"
    for fine in ("Skye is a collie, a lovely dog.", "Skye is a dog, not a cat."):
        assert says_otherwise(fine, pets, "Skye", "Is Skye a cat?") is None, fine
    mems = [Recall(episode_id=5, score=1.0, text="My brother Jamie has been sober for three "
                   "years."),
            Recall(episode_id=1, score=1.0, text="Hi, I'm Tom Becker, a carpenter in Bristol."),
            Recall(episode_id=6, score=1.0, text="My dad is 71 and he lives in Bath.")]

    def note(ask: str, answer: str) -> str:
        return doubt_note(answer_doubt(ask, answer, mems, {6}, lambda t: {"my dad"}
                                       if "dad" in t else set()), [])

    assert note("How old is my dad?", "Hi Jamie, your dad is 71.") == (
        "Check this answer: it calls you “Jamie”, the name of your brother.")
    assert note("How old is my dad?", "Your dad is 71. Thanks for the reminder, dear Tom "
                "Becker, about meeting your dad.") == ""
    # a greeting by the user's own name, or to whom the message names, is none
    assert greets_as("Suggest a plan", "Hi Tom, here is a plan.", mems) is None
    assert greets_as("Write a note to my brother", "Dear Jamie, well done.", mems) is None
    assert greets_as("Write a card for Jamie", "Dear Jamie, happy birthday!", mems) is None


def test_when_a_change_was_made_is_no_new_value():
    """QA pass 40b P1: "Where does Chloe live?" answered "You're right, Chloe moved to
    Manchester last month." (her old city; "Chloe moved to York last month." told) had no
    line: "last month" counted as much of the new value as "Manchester" of the old."""
    from hela_desktop.older_news import gives_older, repeats_corrected

    old, new, ask = "Chloe lives in Manchester.", "Chloe moved to York last month.", \
        "Where does Chloe live?"
    assert gives_older(ask, "You're right, Chloe moved to Manchester last month.", old, new)
    assert repeats_corrected(new, "I should have said Chloe moved to Manchester.", old)
    for fine in ("Chloe moved to York last month.", "Chloe lives in York now.",
                 "Chloe lived in Manchester, but moved to York last month."):
        assert not gives_older(ask, fine, old, new), fine
    # a time the old memory said too is a value ("last month" → "last week")
    assert gives_older("When did I start?", "You started at Acme last month.",
                       "I started at Acme last month.", "Actually I started at Acme last week.")


def test_a_clause_in_the_users_voice_is_read_before_the_sentence_goes_on_to_you():
    """QA pass 40 P8: "What night do I play football?" answered "I played football on
    Tuesdays, but that's not the only way you can play football." had no line (pass 39c
    had a true one): the "you" later in the sentence set it aside."""
    from hela_desktop.events import Recall
    from hela_desktop.whom import as_user

    mems = [Recall(episode_id=9, score=1.0, text="I play five-a-side football on Tuesdays.")]
    ask = "What night do I play football?"
    assert as_user(ask, "I played football on Tuesdays, but that's not the only way you can "
                   "play football.", mems) == {"kind": "as_user",
                                               "said": "I played football on Tuesdays"}
    for fine in ("I see you play football on Tuesdays.",
                 "I play football on Tuesdays too, like you!"):
        assert as_user(ask, fine, mems) is None, fine


def test_a_question_about_your_own_job_brings_what_you_told_of_it(make_assistant):
    """QA pass 40b P2: "What do I do for a living?" recalled a friend's job and her move,
    not "Hi, I'm Elena Rossi, a primary school teacher in Leeds." ("What is my job?" did),
    and the answer was kindness advice."""
    from hela_desktop.events import MemoriesEvent
    from hela_desktop.gate import YOUR_OWN_GATE
    from hela_desktop.your_own import asks_own, tells_own

    intro = "Hi, I'm Elena Rossi, a primary school teacher in Leeds."
    assert [asks_own(m) for m in ("What do I do for a living?", "What is my job?",
                                  "Where do I live?", "How old am I?", "What do I do on "
                                  "Sundays?", "Where does Chloe live?")] == [
        "job", "job", "home", "age", "", ""]
    assert tells_own(intro, "job") and tells_own(intro, "home")
    assert tells_own("Actually I'm a nurse now.", "job") and tells_own("I'm 34.", "age")
    for other in ("My best friend Chloe is a vet.", "I am vegetarian.",
                  "I go swimming on Monday mornings."):
        assert not tells_own(other, "job"), other
    a = make_assistant()
    cid = a.new_conversation()
    for k, t in enumerate((intro, "My best friend Chloe is a vet.",
                           "I go swimming on Monday mornings.", "I am vegetarian.",
                           "Chloe moved to York last month.")):
        list(a.chat(t, cid, now=T0 + k))
    shown = next(e for e in a.chat("What do I do for a living?", cid, now=T0 + 60)
                 if isinstance(e, MemoriesEvent)).memories
    assert shown[0].text == intro and shown[0].extra["gate"] == YOUR_OWN_GATE


def test_the_why_recalled_panel_says_why_a_caution_or_your_own_statement_came_in():
    """A caution brought in for a question about food read "Not used: what you told me must
    not be eaten or drunk." in the why-recalled panel, though the prompt held it (0.31)."""
    from hela_desktop.cautions import CAUTION_GATE
    from hela_desktop.gate import YOUR_OWN_GATE, explain

    assert explain({"gate": CAUTION_GATE}) == [
        "Came in because you asked about food, drink or a medicine: what you told me to "
        "avoid comes first."]
    assert explain({"gate": YOUR_OWN_GATE}) == [
        "Came in because you asked about your own home, job or age: what you told me of it "
        "comes first."]
    assert explain({"gate": "too weak"}) == ["Not used: too weak."]


def test_a_blood_thinner_is_a_caution_for_aspirin_and_a_warning_after_the_food_counts():
    """QA pass 40b P7: "Can my dad take aspirin?", "My dad Paolo is 74, lives in Turin and
    takes warfarin." told, had nothing to check an answer against.  And "No, peanuts are
    not safe for him." was read as offering peanuts: only the words before a mention were
    read for a warning."""
    from hela_desktop.cautions import cautions, missed, offered

    dad = cautions([(5, "My dad Paolo is 74, lives in Turin and takes warfarin.")],
                   about={"father", "dad", "paolo"})[0]
    ask = "Can my dad take aspirin?"
    assert offered("Yes, your dad can take aspirin for his headache.", dad, ask) == ["aspirin"]
    assert offered("Yes, aspirin is fine and causes no problems.", dad, ask) == ["aspirin"]
    for warns in ("No, aspirin is not safe with warfarin.", "He should avoid aspirin.",
                  "Aspirin interacts with warfarin.", "Aspirin can increase bleeding."):
        assert offered(warns, dad, ask) == [], warns
    assert missed("Your dad likes pasta.", dad, "What should my dad avoid?")
    assert not missed("He should avoid aspirin and ibuprofen.", dad, "What should my dad avoid?")
    assert cautions([(1, "I take warfarin every day.")])[0].avoid >= {"aspirin", "ibuprofen"}
    assert cautions([(1, "Warfarin is a rat poison too.")]) == []  # (no one takes it)
    luca = cautions([(3, "Our son Luca is 8 and he is allergic to peanuts.")],
                    about={"luca"})[0]
    ask = "Can Luca have a peanut butter sandwich?"
    for warns in ("No, peanuts are not safe for him.", "Peanut butter isn't a good idea.",
                  "Peanuts are dangerous for him.", "Peanut butter is a bad idea for Luca.",
                  "Peanuts can trigger a reaction."):
        assert offered(warns, luca, ask) == [], warns
    for offers in ("Peanut butter is a great snack for Luca.",
                   "A peanut butter sandwich, not too big, is great."):
        assert offered(offers, luca, ask) == ["peanut"], offers


def test_qa_40c_false_reasons():
    """QA pass 40c: "No, Skye is not a cat." read "it says Skye is a cat" (three answers,
    two of them right); "I'm" was read as a name ("it says “I'm” of your mum, and only
    another memory says it"); "He is allergic to milk and has no stomach for it" read "it
    leaves out what you told me"; "peanut butter" was a milk caution; "No, carbonara has
    bacon in it." offered the carbonara; "Eric is not allergic to milk" got a caution line
    beside the denial; "your friend Chef Tunde" would read "you never told me of Chef"."""
    from hela_desktop.cautions import cautions, missed, offered
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.says_of import says_otherwise
    from hela_desktop.sources import doubt_note
    from hela_desktop.whom import invented, misplaced

    pets = [(7, "We have a rabbit called Skye."), (10, "My best friend Tunde is a chef.")]
    assert says_otherwise("No, Skye is not a cat.", pets, "Skye", "Is Skye a cat?") is None
    assert says_otherwise("No, Tunde is not a teacher.", pets, "Tunde", "Is Tunde a teacher?") \
        is None
    assert says_otherwise("Skye is a cat.", pets, "Skye", "Is Skye a cat?")["said"] == "cat"
    mums = [Recall(episode_id=6, score=1.0, text="My mum is 66."),
            Recall(episode_id=1, score=1.0, text="Hi, I'm Sam Okafor, a nurse in Cardiff.")]

    def of_mum(t: str) -> set[str]:
        return {"my mum"} if "mum" in t or "mom" in t else set()

    told = "My mum lives in Swansea."
    assert misplaced(told, "Sorry to hear about your mom, but I'm sure she is fine.", mums,
                     of_mum) is None
    assert misplaced(told, "Your mum lives in Cardiff now.", mums, of_mum)["words"] == [
        "Cardiff"]
    eric = cautions([(3, "Our son Eric is 11 and he is allergic to milk.")], about={"eric"})[0]
    assert not missed("He is allergic to milk and has no stomach for it.", eric,
                      "Can Eric have cheese?")
    assert missed("Eric isn't allergic to milk.", eric, "Can Eric have cheese?")
    assert not missed("The answer is no.", eric, "Can Eric have cheese?")
    for other in ("Eric can eat peanut butter.", "Try oat milk or coconut milk.",
                  "Butter beans on toast."):
        assert offered(other, eric, "Suggest a lunch for Eric") == [], other
    assert offered("Eric can have milk.", eric, "Can Eric have milk?") == ["milk"]
    veg = cautions([(4, "Our daughter Hannah is 7 and she is vegetarian.")],
                   about={"hannah"})[0]
    ask = "Can Hannah eat carbonara?"
    for reason in ("No, carbonara has bacon in it.", "No. Carbonara contains bacon.",
                   "No, because carbonara is made with pancetta."):
        assert offered(reason, veg, ask) == [], reason
    for offers in ("No, Hannah can have carbonara with bacon.", "Carbonara has bacon in it, "
                   "enjoy!", "Veggie burgers or a ham sandwich."):
        assert offered(offers, veg, ask), offers
    assert offered("Veggie burgers or a meat substitute.", veg, ask) == []
    got = answer_doubt("Is Eric allergic to milk?", "No, Eric is not allergic to milk. He "
                       "loves eating meat.", [Recall(episode_id=3, score=1.0, text=eric.text)],
                       set(), lambda t: {"eric"} if "Eric" in t else set(), cautions=[eric])
    assert doubt_note(got, []) == ("Check this answer: it says Eric is not allergic to milk, "
                                   f"and you told me “{eric.text}”")
    assert invented("Invite your friend Chef Tunde.", "", frozenset({"tunde"})) is None


def test_qa_40c_a_second_thing_of_the_subject_and_bird_breeds_are_read():
    """QA pass 40c P7 and P8: "My brother Marco lives in Lagos and is a pilot." told no job
    ("Is Marco a doctor?" → "Marco is a medical doctor…", no line), and "Kiwi is an African
    grey." of "a parrot called Kiwi" would have read "it leaves out what you told me"."""
    from hela_desktop.says_of import leaves_out, says_otherwise, told

    assert told(["My brother Marco lives in Lagos and is a pilot."]) == {
        "marco": {"job": {"pilot"}}}
    marco = [(5, "My brother Marco lives in Lagos and is a pilot.")]
    assert says_otherwise("Marco is a medical doctor who works in a hospital.", marco,
                          "Marco", "Is Marco a doctor?")["said"] == "doctor"
    assert leaves_out("What does Marco do?", "Marco lives in Lagos.", marco)["memory"] == 5
    birds = [(8, "We also have a parrot called Kiwi."), (7, "We have a rabbit called Skye.")]
    assert leaves_out("What is Kiwi?", "Kiwi is an African grey.", birds) is None
    assert says_otherwise("Kiwi is an African grey.", birds, "Kiwi", "What is Kiwi?") is None
    assert says_otherwise("Skye is the Australian Macaw.", birds, "Skye", "What is Skye?")[
        "said"] == "macaw"


def test_a_date_note_of_another_shape_is_cut_from_the_answer():
    """QA pass 40c: "…will soon become 7. (later; replacement to Hannah)" and "(2019;
    earlier version of Hannah)": the prompt's "(today; older news)" copied in another
    shape."""
    from hela_desktop.prompt import AnswerFilter

    def shown(text: str) -> str:
        f = AnswerFilter()
        return "".join(f.push(c) for c in text) + f.flush()

    assert shown("Hannah will soon be 7. (later; replacement to Hannah)\nBorn in May. (2019; "
                 "earlier version of Hannah)\n") == "Hannah will soon be 7.\nBorn in May.\n"
    for kept in ("It was in (2019) that we met.", "I came (later) than you."):
        assert shown(kept) == kept


def test_bench_personal_misses_a_job_said_in_passing_a_name_or_breed_left_out():
    """`bench personal` on 0.32's first fixes: "What do I do for a living?" recalled nothing
    ("As a physio I should know better…" told); "What's my pet called?" answered "Your
    pet's name is a ginger cat." (Marmalade) and "Remind me, what breed is my pooch?"
    answered about the dog walker (Pepper, "She's a beagle…"), neither with a line."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.says_of import leaves_out, told
    from hela_desktop.sources import doubt_note
    from hela_desktop.your_own import asks_own, tells_own

    assert tells_own("As a physio I should know better, but my left Achilles is grumbling.",
                     "job")
    assert tells_own("Starting in August I'll be teaching at Cherry Creek Academy.", "job")
    assert not tells_own("My brother works as a pilot at Emirates and I visit him.", "job")
    assert not tells_own("As a kid I loved it.", "job")
    assert asks_own("Where am I working these days?") == "job"
    assert asks_own("Which school will I be working at this fall?") == "job"
    pepper = "The hardest part is Pepper. She's a beagle and she's decided 8am is walkies time."
    assert told([pepper]) == {"pepper": {"pet": {"beagle"}}}
    assert told(["Pepper's dog is a beagle."]) == {}  # (Pepper's dog is no Pepper)
    pets = [(3, pepper), (9, "We also have a cat called Miso.")]
    ask = "Remind me, what breed is my pooch?"
    assert leaves_out(ask, "I'm glad you asked about the dog walker.", pets)["memory"] == 3
    assert leaves_out(ask, "Pepper is a beagle.", pets) is None
    assert leaves_out("What is Miso?", "Miso is a kitten.", pets) is None
    cat = ("I've done something impulsive. I adopted a ginger cat from the Humane Society on "
           "Saturday. Her name is Marmalade and she's four.")
    mems = [Recall(episode_id=5, score=1.0, text=cat)]

    def note(ask: str, answer: str) -> str:
        return doubt_note(answer_doubt(ask, answer, mems, {5}, lambda x: set()), [])

    assert note("What's my pet called?", "Your pet's name is a ginger cat.") == (
        "Check this answer: it leaves out what you told me: “I adopted a ginger cat from the "
        "Humane Society on Saturday. Her name is Marmalade and…”")
    assert note("What's my pet called?", "Her name is Marmalade.") == ""


def test_handing_in_your_notice_makes_the_old_employer_older_news():
    """`bench personal` (left open since 0.30): "Where am I working these days?" answered
    "I'm currently working on a project at Ledgerly…" after "Handed in my notice at
    Ledgerly yesterday! I'm joining Pinebrook Games as a tools programmer." had no line."""
    from hela_desktop import facts
    from hela_desktop.older_news import gives_older

    new = ("Handed in my notice at Ledgerly yesterday! I'm joining Pinebrook Games as a tools "
           "programmer.")
    old = "I'm basically the backend person at Ledgerly, a small fintech startup."
    assert facts.negated(new) == [facts.stem("ledgerly")]
    assert facts.negated("Ines left Lyon for Porto.") == ["lyon"]
    assert facts.negated("I left early.") == []
    ask = "Where am I working these days?"
    for older in ("I'm currently working on a project at Ledgerly.", "You work at Ledgerly."):
        assert gives_older(ask, older, old, new), older
    for fine in ("You are joining Pinebrook Games as a tools programmer.",
                 "You left Ledgerly and now work at Pinebrook Games."):
        assert not gives_older(ask, fine, old, new), fine


def test_qa_40d_a_correction_of_one_child_and_a_yes_to_another_food():
    """QA pass 40d: "Actually Zain is 7 now." was noted as a correction of "Actually Hannah
    is 8 now." too, and Hannah's age was listed as older news; a "Yes" to "Can Eric have
    oat milk?" and "Peanut butter has no milk in it, so it is fine." to "Can Eric eat
    peanut butter?" were doubted for his milk allergy; "I drive buses in Birmingham" told
    no job."""
    from hela_desktop import facts
    from hela_desktop.cautions import cautions, missed, offered
    from hela_desktop.your_own import tells_own

    assert not facts.corrects_memory("Actually Hannah is 8 now.", "Actually Zain is 7 now.")
    assert facts.corrects_memory("Our son Zain is 6 and allergic to eggs.",
                                 "Actually Zain is 7 now.")
    assert facts.corrects_memory("My sister Ines lives in Lyon.",
                                 "Actually my sister moved to Porto.")
    # (a sentence's first word is no name: `bench personal` on 831eb09 lost this one)
    assert facts.corrects_memory("Sorry for the late questions, I just got off my shift at "
                                 "the front desk of the campus climbing gym.",
                                 "Quit the climbing gym job. I got hired as an undergrad "
                                 "teaching assistant for intro statics instead.")
    eric = cautions([(3, "Our son Eric is 11 and he is allergic to milk.")], about={"eric"})[0]
    assert offered("Yes!", eric, "Can Eric have oat milk?") == []
    assert offered("Yes!", eric, "Can Eric have milk?") == ["milk"]
    assert not missed("Peanut butter has no milk in it, so it is fine.", eric,
                      "Can Eric eat peanut butter?")
    assert missed("Sure thing.", eric, "Can Eric have cheese?")
    assert tells_own("Hi, I'm Aisha Khan and I drive buses in Birmingham.", "job")


def test_bench_personal_older_news_of_a_notice_and_no_change_in_starting_to_wheeze():
    """`bench personal` on 78c39eb: "Where am I working these days?" answered "I'm currently
    working on a project at Ledgerly…" was not marked (the notice was only "older than",
    no correction); "…Her name is Marmalade…" was older news of "…Mateo is allergic to
    cats. He gets hives and starts wheezing.", a change read in "starts"."""
    from hela_desktop import facts
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall

    assert not facts.tells_change("My daughter called to remind me that Mateo is allergic to "
                                  "cats. He gets hives and starts wheezing.")
    for change in ("I started working at Voltra.", "I started a new job.",
                   "She starts school in September."):
        assert facts.tells_change(change), change
    new = ("Handed in my notice at Ledgerly yesterday! I'm joining Pinebrook Games as a tools "
           "engineer in April.")
    old = "I'm basically the backend person at Ledgerly, a small fintech startup."
    mems = [Recall(episode_id=17, score=1.0, text=new),
            Recall(episode_id=2, score=1.0, text=old, extra={"older_than": 17})]
    ask = "Where am I working these days?"
    assert answer_doubt(ask, "I'm currently working on a project at Ledgerly.", mems, {2},
                        lambda t: set()) == {"kind": "older", "newer": 17, "older": 2}
    assert answer_doubt(ask, "You are joining Pinebrook Games as a tools engineer.", mems,
                        {17}, lambda t: set()) is None


def test_qa_40e_a_card_in_your_voice_synonyms_and_a_dogs_name():
    """QA pass 40e: a right birthday card ("My brother Dan, the bravest firefighter in
    Norwich: happy birthday! Love, Ben") read "it speaks as if it were you"; "She's a
    lawyer." of a solicitor and "Dan is a fireman." of a firefighter were read as other
    jobs; "What is my dog called?" → "Your dog is a spaniel." (Bramble) had no line; "Check
    the label for sesame." was read as offering sesame."""
    from hela_desktop.cautions import cautions, offered
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.says_of import leaves_out, says_otherwise
    from hela_desktop.sources import doubt_note
    from hela_desktop.whom import name_left_out

    mems = [Recall(episode_id=6, score=1.0, text="My brother Dan is a firefighter."),
            Recall(episode_id=1, score=1.0, text="Hi, I'm Ben Harper, a postman in Norwich.")]
    card = "My brother Dan, the bravest firefighter in Norwich: happy birthday! Love, Ben"
    got = answer_doubt("Write a birthday card for Dan", card, mems, {6},
                       lambda t: {"dan"} if "Dan" in t else set(),
                       user_names=frozenset({"dan", "ben", "harper", "norwich"}))
    assert doubt_note(got, []) == ""
    jobs = [(2, "My partner Lucy is a solicitor."), (6, "My brother Dan is a firefighter.")]
    assert says_otherwise("She's a lawyer.", jobs, "Lucy", "What does Lucy do?") is None
    assert says_otherwise("She's a nurse.", jobs, "Lucy", "What does Lucy do?")["said"] == \
        "nurse"
    assert leaves_out("What does Dan do?", "Dan is a fireman.", jobs) is None
    assert leaves_out("What does Dan do?", "Dan is brave.", jobs)["memory"] == 6
    dog = [Recall(episode_id=7, score=1.0, text="We have a dog, a spaniel called Bramble.")]
    assert name_left_out("What is my dog called?", "Your dog is a spaniel.", dog,
                         lambda t: set())["memory"] == 7
    assert name_left_out("What is my dog called?", "Bramble!", dog, lambda t: set()) is None
    rosie = cautions([(4, "Our daughter Rosie is 9 and allergic to sesame.")],
                     about={"rosie"})[0]
    assert offered("Check the label for sesame.", rosie, "Suggest a snack for Rosie") == []


def test_an_answer_giving_you_another_job_than_you_told_says_so():
    """QA pass 40e P3: "You're a solicitor who lives in Cromer." to Ben, a postman who is
    joining a bike shop as a mechanic, was marked only for a made-up word."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.sources import doubt_note

    notice = ("I handed in my notice at Royal Mail last week and I'm joining a bike shop as a "
              "mechanic.")
    mems = [Recall(episode_id=1, score=1.0, text="Hi, I'm Ben Harper, a postman in Norwich."),
            Recall(episode_id=9, score=1.0, text=notice)]

    def note(answer: str) -> str:
        return doubt_note(answer_doubt("What do I do for a living?", answer, mems, {1},
                                       lambda t: set()), [])

    assert note("You're a solicitor.") == (
        f"Check this answer: it says you are a solicitor, and you told me “{notice}”")
    for fine in ("You are a mechanic now.", "You're a postman."):
        assert note(fine) == "", fine
    # (no job at all is one left out, the newest quoted: pass 44b's "What did I do for a
    # living?" answered with nothing of it had no line)
    for none in ("You are not a doctor.", "You're a great dad."):
        assert note(none) == f"Check this answer: it leaves out what you told me: “{notice}”", none
