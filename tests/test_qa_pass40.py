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
