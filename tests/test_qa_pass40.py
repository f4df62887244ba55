"""What the fortieth pass (and the items pass 39 left open) found, fixed."""
from __future__ import annotations


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
    from hela_desktop.events import Recall
    from hela_desktop.says_of import says_otherwise
    from hela_desktop.sources import answer_doubt, doubt_note

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
    from hela_desktop.sources import answer_doubt, doubt_note

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
    from hela_desktop.sources import answer_doubt, doubt_note
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
