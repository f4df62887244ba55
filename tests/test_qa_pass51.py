"""What the fifty-first pass found, fixed (QA passes 51a, Margaret Doyle, and 51b, Tomás
Álvarez), and what pass 50 left open."""
from __future__ import annotations


def _recall(eid: int, text: str, **extra):
    from hela_desktop.events import Recall

    return Recall(episode_id=eid, score=1.0, text=text, extra={"statement": True, **extra})


def _line(ask: str, answer: str, mems, **kw) -> str:
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    d = answer_doubt(ask, answer, mems, set(), kw.pop("names", lambda t: set()), **kw)
    return doubt_note(d, [{"episode_id": r.episode_id, "text": r.text} for r in mems]) if d \
        else ""


def test_an_age_set_beside_a_name(make_assistant):
    """Pass 50: "Dev (12 years old) loves football." to "How old is Dev?" after "Our son
    Dev is 9 …" read only "it leaves out what you told me"; an age in brackets or in a
    clause beside the name is an age said of them."""
    from hela_desktop.says_of import says_otherwise

    told = "Our son Dev is 9 and our daughter Mira is 12."
    a = make_assistant()
    list(a.chat(told))  # (the store reads whom a text names: Dev is someone of theirs)
    mems = [_recall(1, told)]
    line = f"Check this answer: it says Dev is 12, and you told me “{told}”"
    for answer in ("Dev (12 years old) loves football.", "Dev, who is 12, loves football.",
                   "Dev (age 12) loves football.", "Your son Dev, aged 12 years old, loves it."):
        assert _line("How old is Dev?", answer, mems, names=a.engine.people_in) == line, answer
    texts = [(1, told)]
    for answer in ("Mira (12) is doing well.", "Dev, aged 9, and Mira, aged 12.",
                   "Dev, who is 9, and Mira (12 years old).",
                   "Dev (and Mira) are at school.", "Dev, who is 12 minutes away, is late.",
                   "On Monday (12 May) Dev has football."):
        assert says_otherwise(answer, texts, asking="How old is Dev?") is None, answer
