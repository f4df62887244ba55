"""What the thirty-seventh pass (and the items pass 36c left open) found, fixed."""
from __future__ import annotations

from hela_desktop.cautions import cautions, offered
from hela_desktop.sources import answer_sources, made_up, source_lines


def test_a_peoples_word_is_no_made_up_name_and_a_long_name_mistyped_is_that_name():
    """QA pass 36c P12: "Danish" was marked made up (the languages listed were English,
    French and the like, not every people's word).  P8: "Ljubljan", a slip of the
    "Ljubljana" a memory said, was marked made up."""
    known = "My partner Søren grew up in Copenhagen. We met in Ljubljana in 2019."
    assert made_up("Søren is Danish and loves Norwegian films.", known) == []
    assert made_up("You met in Ljubljan in 2019.", known) == []
    assert made_up("You met in Lubljana in 2019.", known) == []  # (a letter left out)
    assert made_up("You met in Ljbuljana in 2019.", known) == []  # (two swapped)
    # a country no memory names is still marked, and so is a short name one letter off
    # ("Sören" is accents aside the same; "Søran" is another name)
    assert made_up("You met in Denmark in 2019.", known) == ["Denmark"]
    assert made_up("You and Soren met in 2019.", known) == []
    assert made_up("You and Søran met in 2019.", known) == ["Søran"]
    # two letters off a long name is another
    assert made_up("You met in Ljubljaxx in 2019.", known) == ["Ljubljaxx"]
    assert made_up("You met in Bratislava in 2019.", known) == ["Bratislava"]


def test_a_yes_to_whether_someone_may_eat_what_they_must_not_is_a_caution():
    """QA pass 36c P6: "Can Bill eat chicken?" was answered "Yes!", Bill being vegetarian,
    and nothing was marked: the answer never names the chicken."""
    said = cautions([(1, "My colleague Bill is vegetarian.")], about={"bill"})
    assert offered("Yes!", said[0], "Can Bill eat chicken?") == ["chicken"]
    assert offered("Yes, Bill can eat chicken.", said[0], "Can Bill eat chicken?") == ["chicken"]
    assert offered("Sure, go ahead.", said[0], "Is it okay for Bill to eat chicken?") == ["chicken"]
    # a no, a yes that turns it down, or a yes to something else is no offer
    assert offered("No, Bill is vegetarian.", said[0], "Can Bill eat chicken?") == []
    assert offered("Yes, but he can't eat chicken.", said[0], "Can Bill eat chicken?") == []
    assert offered("Yes!", said[0], "Can Bill eat rice?") == []
    assert offered("Yes!", said[0], "Bill cooked chicken for us.") == []
    mine = cautions([(2, "I'm allergic to shellfish.")])
    assert offered("Absolutely, enjoy!", mine[0], "Could I have the prawn linguine tonight?"
                   ) == ["prawn"]


def test_a_memory_the_message_corrects_in_part_reads_partly_older_news_under_the_reply():
    """QA pass 36c: the same two-fact memory read "(older news)" under the reply to the
    correction and "(partly older news)" under the next answer."""
    whole = "I fly to Porto on 14 March for a conference. My cat is called Miso."
    rec = [{"episode_id": 3, "text": whole}]
    part = [{"episode_id": 3, "text": "I fly to Porto on 14 March for a conference."}]
    s = answer_sources(rec, used=[], corrects=part)
    assert s.older_label(3) == " (partly older news)"
    assert dict(source_lines(s))["recalled, not used in the answer"][0].endswith(
        "(partly older news)")
    # the whole memory corrected is older news, and one not recalled is named nowhere
    assert answer_sources(rec, used=[], corrects=rec).older_label(3) == " (older news)"
    assert answer_sources([], corrects=part).partly == frozenset()
