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
