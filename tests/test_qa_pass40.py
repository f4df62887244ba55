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
