"""What the fifty-second pass found, fixed: what pass 51 noticed and left alone, and QA pass
52a (Priya Raman)."""
from __future__ import annotations

import subprocess
import sys

import pytest
from test_qa_pass51 import _line, _recall


def _chat(a, *said: str) -> tuple[int, list]:
    """Tell `said` in one chat: (the chat, each reply's done event)."""
    conv, dones = None, []
    for text in said:
        dones.append([e for e in a.chat(text, conversation_id=conv) if e.type == "done"][-1])
        conv = dones[-1].conversation_id
    return conv, dones


def test_a_plan_moved_again_in_more_words():
    """Pass 52: "Now it's been moved again, to 1 July.", "They rescheduled it for 1 July.",
    "They've put it off until 3 March." and "It's on Friday now." corrected nothing (a comma
    or a word between the verb and the day, "for", "put it off"); "It got pushed to 1
    July." and "It was postponed to 1 July." were read as naming what they are about."""
    from hela_desktop import facts, superseded

    for text in ("Now it's been moved again, to 1 July.", "It has been moved again, to 1 July.",
                 "They rescheduled it for 1 July.", "Now it is on 1 July.", "It's on Friday now.",
                 "They've put it off until 3 March.", "It got pushed to 1 July.",
                 "It got delayed to 1 July.", "It was postponed to 1 July.",
                 "It's been pushed back to 1 July.", "It was brought forward to 1 July."):
        assert facts.corrects(text) and superseded.of_it_only(text), text
    for text in ("It's a lovely day now.", "I moved for work.", "It is on the shelf now.",
                 "The party is on Friday.", "I changed my mind about going on Friday."):
        assert not facts.corrects(text), text
    # a plan's time changed, a few words between; not a home moved in a month
    for text in ("They moved it again, to Friday.", "They put it off until March.",
                 "The dentist moved my appointment to Friday."):
        assert superseded.TIME_CHANGE.search(text), text
    for text in ("Actually I moved to York in March.", "We moved from Leeds in May."):
        assert not superseded.TIME_CHANGE.search(text), text


def test_a_plan_moved_twice_replaces_the_first_time_too(make_assistant):
    """Pass 52: 3pm Tuesday, "Actually it's been moved to Thursday.", "They moved it again,
    to Friday.": asked when, the Tuesday memory was listed unmarked beside the Friday one
    (the Friday correction is of the Thursday one, which was not recalled); once marked,
    "…on Friday at 3pm." read as older news for the 3pm that still holds."""
    a = make_assistant()
    a.settings.max_answer_tokens = 4
    said = ("My dentist appointment is on Tuesday at 3pm.",
            "Actually it's been moved to Thursday.", "They moved it again, to Friday.")
    conv, dones = _chat(a, *said)
    assert dones[2].corrects and dones[2].corrects[0]["episode_id"] == dones[1].episode_id
    first, last = dones[0].episode_id, dones[2].episode_id
    mems = [e for e in a.chat("When is my dentist appointment?", conversation_id=conv)
            if e.type == "memories"][0].memories
    old = next(r for r in mems if r.episode_id == first)
    assert old.extra.get("superseded_by") == last
    recalls = [_recall(last, said[2]), _recall(first, said[0], superseded_by=last)]
    ask = "When is my dentist appointment?"
    assert _line(ask, "Your dentist appointment is on Friday at 3pm.", recalls) == ""
    assert _line(ask, "Your dentist appointment is on Tuesday at 3pm.", recalls) == (
        "Check this answer: it may give older news — “They moved it again, to Friday.” is "
        "newer.")


def test_what_a_message_brings_back_is_no_older_news(make_assistant):
    """Pass 51: "It's back to 12 May after all." listed the 12 May memory it brings back
    as "(older news)" under its own reply.  A plan put back, then moved again, is replaced
    again."""
    from hela_desktop import superseded
    from hela_desktop.sources import stored_sources

    assert superseded.restores("It's back to 12 May after all.", "My op is on 12 May.")
    assert not superseded.restores("Now it's moved to 1 July.", "My op is on 12 May.")
    assert not superseded.restores("Actually it's back on.", "My op is on 12 May.")
    a = make_assistant()
    a.settings.max_answer_tokens = 4
    said = ("My hip operation is on 12 May.", "Actually they moved it to 11 June.",
            "It's back to 12 May after all.", "Now it's been moved again, to 1 July.")
    conv, dones = _chat(a, *said)
    first, moved, back, again = (d.episode_id for d in dones)
    assert dones[2].corrects == [{"episode_id": moved, "text": said[1], "of_it": True,
                                  "restores": [first]}]
    shown = stored_sources(a.store.messages(conv)[5]["stats"])
    assert first not in shown.older and moved in shown.older
    assert [c["episode_id"] for c in dones[3].corrects] == [back]
    mems = [e for e in a.chat("When is my hip operation?", conversation_id=conv)
            if e.type == "memories"][0].memories
    old = next((r for r in mems if r.episode_id == first), None)
    assert old is None or old.extra.get("superseded_by") == again


def test_a_question_that_restates_one_sentence_of_a_memory():
    """Pass 51b: "Is Sam a vet?" → "Sam is a vet." listed "I'm a backend developer at a
    startup called Ledgerly. My partner Sam is a vet." as not used: the question restates one
    sentence of it, and names Sam, whom it calls "my partner Sam"."""
    from hela_desktop.edges import used_by_answer

    two = "I'm a backend developer at a startup called Ledgerly. My partner Sam is a vet."
    for text in (two, "My partner Sam is a vet."):
        for answer in ("Sam is a vet.", "Yes, Sam is a vet."):
            assert used_by_answer([(1, text)], "Is Sam a vet?", answer) == {1}, (text, answer)
    assert used_by_answer([(1, two)], "Is Sam a vet?", "No, Sam is a doctor.") == set()
    assert used_by_answer([(1, "My partner Sam is a vet."), (2, "Sam likes hiking.")],
                          "Is Sam a vet?", "Yes.") == set()
    # (a relation word stands for the name only beside it)
    assert used_by_answer([(1, "My partner works with Sam, a vet.")], "Is Sam a vet?",
                          "Sam is a vet.") == set()


def test_what_someone_studies(make_assistant):
    """Pass 51b: "She studies law." of "…she studies medicine in Granada." had no line."""
    from hela_desktop.says_of import says_otherwise

    told = "My sister Lucía is 24 and she studies medicine in Granada."
    a = make_assistant()
    list(a.chat(told))
    mems = [_recall(1, told)]
    for ask, answer, who in (
            ("What does my sister study?", "She studies law.", "your sister"),
            ("What does Lucía study?", "Lucía is studying law at university.", "Lucía"),
            ("What does Lucía study?", "Lucía's studying law.", "Lucía")):
        assert _line(ask, answer, mems, names=a.engine.people_in) == (
            f"Check this answer: it says {who} is studying law, and you told me “{told}”"), answer
    texts = [(1, told)]
    for answer in ("She studies medicine.", "Lucía is studying medicine in Granada.",
                   "Lucía studies history books for fun.", "Lucía is a medical student."):
        assert says_otherwise(answer, texts, asking="What does Lucía study?") is None, answer


@pytest.mark.slow
def test_one_terminal_turn_says_which_conversation_to_go_on_with(tmp_path):
    """Pass 51b: `chat --message` never said the conversation id `--conversation` needs."""
    import os
    import re

    d = tmp_path / "data"
    env = dict(os.environ, HF_HUB_OFFLINE="1")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "hela_desktop", "chat", "--data-dir", str(d),
                               "--max-tokens", "4", "--temperature", "0", *args],
                              capture_output=True, text=True, timeout=300, env=env)

    r = run("--message", "My cat is called Biscuit.")
    assert r.returncode == 0, r.stderr
    got = re.search(r"\(conversation (\d+): go on with --conversation (\d+)\)", r.stderr)
    assert got and got.group(1) == got.group(2), r.stderr
    r2 = run("--conversation", got.group(1), "--message", "What is my cat called?")
    assert r2.returncode == 0 and f"(conversation {got.group(1)}:" in r2.stderr, r2.stderr
    r3 = run("--json", "--message", "Hello.")  # (JSON lines carry it: no hint)
    assert r3.returncode == 0 and "go on with" not in r3.stderr


def test_the_newest_memory_is_named_on_the_graph(qtbot, tmp_path):
    """QA passes 50 and 51b: the dot of what the user had just said often had no label (it
    is no answer's memory yet, and has no links to be among the most linked)."""
    import numpy as np
    from test_gui_pass42b import ASKED, TOLD, _qa_graph, _shown

    from hela_desktop.store import Store
    from hela_desktop.ui.graph_model import snapshot_from_store

    view, ids = _qa_graph(qtbot, tmp_path, TOLD + ASKED)
    assert view.newest == []  # (the first snapshot brings nothing new)
    with Store(tmp_path) as store:
        new = store.add_episode("My cat Biscuit is twelve.", "Noted.", np.ones(8, "float32"))
        view.set_snapshot(snapshot_from_store(store))
    view.settle(200)
    view._update_labels()
    assert view.newest == [new]
    assert new in [i for i, _ in _shown(view)], _shown(view)
    view.reset()
    assert view.newest == []


# ---------------------------------------------------------------- QA pass 52a (Priya Raman)
_T3 = ("um so Meera plays cricket and shes allergic to peanuts, and Kabir has asthma - he uses "
       "a blue inhaler")
_T4 = ("My mum Lakshmi lives with us, she's 72. She takes metformin 500 mg for her diabetes and "
       "amlodipine for blood pressure.")
_T6 = ("Parents evening is on Thursday 14 January, and I teach Year 11 this year. We're planning "
       "a trip to Chennai in April.")


def test_a_medicine_named_second_in_a_list():
    """Pass 52a: "She takes metformin 500 mg for her diabetes and amlodipine for blood
    pressure." gave no grapefruit caution (only a medicine right after "takes" was read)."""
    from hela_desktop.medicines import avoided

    for text in (_T4, "My mum takes metformin and amlodipine.",
                 "He takes vitamin D, aspirin and simvastatin.", "He is on metformin and warfarin."):
        assert {"grapefruit"} <= avoided(text) or "warfarin" in text and "ibuprofen" in avoided(
            text), text
    for text in ("I take metformin. I love grapefruit and amlodipine is a word.",
                 "She takes metformin for her diabetes."):
        assert "grapefruit" not in avoided(text), text


def test_each_clause_of_a_sentence_is_of_whom_it_begins_with():
    """Pass 52a: "Meera … allergic to peanuts, and Kabir has asthma" gave Kabir the peanuts;
    and Kabir's new inhaler replaced the whole sentence, Meera's allergy with it."""
    from hela_desktop.cautions import caution_of_others
    from hela_desktop.superseded import on_subject, still_true, told_parts

    for text in (_T3, "Meera plays cricket and she's allergic to peanuts, and Kabir has asthma",
                 "Kabir has asthma, and Meera is allergic to peanuts; she carries an EpiPen."):
        assert "satay" in caution_of_others(text, {"meera"})[0], text
        assert not caution_of_others(text, {"kabir"})[0], text
    for text in ("My son Kabir and my daughter Meera are both allergic to peanuts.",
                 "Kabir and Meera are allergic to peanuts."):
        assert caution_of_others(text, {"kabir"})[0] and caution_of_others(text, {"meera"})[0]
    assert told_parts(_T3) == ["um so Meera plays cricket and shes allergic to peanuts",
                               "Kabir has asthma", "he uses a blue inhaler"]
    assert told_parts("I work 9 - 5 at the bank, Monday - Friday.") == [
        "I work 9 - 5 at the bank, Monday - Friday."]
    inhaler = ("Kabir's inhaler changed btw - he's not on the blue one any more, it's a brown "
               "preventer inhaler now")
    assert on_subject(_T3, inhaler, shown=True) == "Kabir has asthma - he uses a blue inhaler"
    assert still_true(_T3, [inhaler]) == ("Um so Meera plays cricket and shes allergic to "
                                          "peanuts. Kabir has asthma.")
    # (a part that goes on from its subject is still quoted from it)
    assert on_subject("My dad Daniel has high blood pressure and takes lisinopril.",
                      "Actually the doctor switched him to amlodipine.", shown=True) == \
        "My dad Daniel has high blood pressure and takes lisinopril."


def test_what_a_stop_a_cancellation_or_a_scratch_corrects():
    """Pass 52a: "I've stopped teaching Year 11 - I've taken on the Sixth Form instead." was
    noted as a correction of "I teach chemistry at a secondary school in Leicester."; "Scratch
    that about Chennai, we cancelled it. We're going to Lisbon in May instead." corrected
    nothing (and once it did, the Sixth Form by its "instead")."""
    from hela_desktop import facts

    intro = "Hi! I'm Priya Raman, I'm 44 and I teach chemistry at a secondary school in Leicester."
    stop = "Also I've stopped teaching Year 11 - I've taken on the Sixth Form instead."
    assert not facts.corrects_memory(intro, stop) and facts.corrects_memory(_T6, stop)
    assert facts.corrects_memory("I work at Tesco in Leeds.", "I quit my job at Tesco.")
    assert not facts.corrects_memory("I work at Tesco in Leeds.", "I quit my job at Aldi.")
    assert facts.corrects_memory("I eat meat most days.", "I stopped eating meat.")
    lisbon = "Scratch that about Chennai, we cancelled it. We're going to Lisbon in May instead."
    for text in (lisbon, "We cancelled the Chennai trip.", "We called off the trip."):
        assert facts.corrects(text) and facts.corrects_memory(_T6, text), text
    assert not facts.corrects_memory("I go to the gym on Mondays.", lisbon)
    assert not facts.corrects_memory(stop, lisbon)
    assert facts.negated(lisbon) == ["chenn"]


def test_cautions_of_someone_named_and_what_a_correction_leaves(make_assistant):
    """Pass 52a: "Can Meera have satay?" after only "Meera plays cricket and she's allergic
    to peanuts…" had no line (Meera was never called "my daughter"); after "…it's 1000 mg
    now instead of 500" the amlodipine's grapefruit caution was gone with the metformin
    dose."""
    a = make_assistant()
    a.settings.max_answer_tokens = 4
    _chat(a, "Meera plays cricket and she's allergic to peanuts, and Kabir has asthma")
    assert any("satay" in c.avoid for c in a._cautions("Can Meera have satay?", "Yes.", []))
    assert not any(c.theirs for c in a._cautions("Can Kabir have satay?", "Yes.", []))
    b = make_assistant()
    b.settings.max_answer_tokens = 4
    _chat(b, _T4, "oh and the doctor upped mums metformin, it's 1000 mg now instead of 500")
    got = b._cautions("Can my mum have grapefruit juice?", "Yes.", [])
    assert any("grapefruit" in c.avoid for c in got), got
    c = make_assistant()
    c.settings.max_answer_tokens = 4
    _chat(c, "My partner Sam is vegetarian.",
          "Sam has started eating fish, so he's pescatarian now rather than vegetarian.")
    assert not any("fish" in x.avoid for x in c._cautions("Can Sam have fish pie?", "Yes.", []))


def test_an_older_news_line_quotes_the_clause_that_goes_on():
    """Pass 52a: "it may give older news — “Scratch that about Chennai,” is newer"."""
    from hela_desktop.sources import _part_about

    text = "Scratch that about Chennai, we cancelled it. We're going to Lisbon in May instead."
    assert _part_about(text, _T6) == text  # (what "we" do now, too)
    assert _part_about("I love my job. Scratch that about Chennai, we cancelled it.", _T6) == \
        "…Scratch that about Chennai, we cancelled it."


def test_when_a_plan_of_theirs_is_asked_without_a_name():
    """Pass 52a: "What's the date of parents' evening now?" answered "…now Wednesday 21
    March, which is the 4th." and "when's parents evening again?" answered "The next day, 15
    January." had no line: a question about a plan of theirs was read as about their life
    only with a name in it ("the Seville trip")."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.edges import used_by_answer

    moved = "Actually the parents evening got moved, it's now Tuesday 19 January not the 14th."
    mems = [_recall(2, moved), _recall(1, _T6, superseded_by=2)]

    def doubt(ask, answer):
        used = used_by_answer(((r.episode_id, r.text) for r in mems), ask, answer)
        return answer_doubt(ask, answer, mems, used, lambda t: set())

    for ask, answer, words in (
            ("What's the date of parents' evening now?",
             "The date of parents' evening is now Wednesday 21 March, which is the 4th.",
             ["Wednesday", "21 March"]),
            ("when's parents evening again?", "The next day, 15 January.", ["15 January"]),
            ("When is parents evening?", "It is on 15 January.", ["15 January"])):
        got = doubt(ask, answer)
        assert got and got["kind"] == "made_up" and set(words) <= set(got["words"]), (ask, got)
    for ask, answer in (("When is parents evening?", "Parents evening is on Tuesday 19 January."),
                        ("What's the date of parents' evening now?", "It's now Tuesday 19 January."),
                        ("When is the summer solstice?", "The summer solstice is on 21 June.")):
        assert doubt(ask, answer) is None, ask


def test_children_told_with_their_ages_and_he_asked_after_them(make_assistant):
    """Pass 52a: "We've got two kids, Meera who is 15 and Kabir who's 9." made Kabir no one
    of theirs: "How old is he?" after "Tell me about Kabir." recalled nothing and "He's 13
    years old now" had no line; and its footer read "asked before: memory #26", another
    chat's "How old is he?"."""
    from hela_desktop.kin import as_theirs
    from hela_desktop.says_of import told

    kids = "My husband is Arjun, he's an accountant. We've got two kids, Meera who is 15 and Kabir who's 9."
    for name in ("Meera", "Kabir", "Arjun"):
        assert as_theirs(name).search(kids), name
    assert as_theirs("Leo").search("I have two children, Mia (7) and Leo (4).")
    assert as_theirs("Leo").search("We have two kids, Mia, 7, and Leo, 4.")
    assert told([kids])["kabir"] == {"age": {"9"}} and told([kids])["meera"] == {"age": {"15"}}
    a = make_assistant()
    a.settings.max_answer_tokens = 4
    conv, _ = _chat(a, kids, "Tell me about Kabir.")
    first = [e for e in a.chat("How old is he?", conversation_id=conv)]
    assert any(r.episode_id for e in first if e.type == "memories" for r in e.memories)
    other = a.new_conversation()
    again = [e for e in a.chat("How old is he?", conversation_id=other) if e.type == "done"][-1]
    assert not again.repeated
    mems = [_recall(1, kids)]
    assert _line("How old is Kabir?", "He is 13 years old.", mems, names=a.engine.people_in) == (
        "Check this answer: it says Kabir is 13, and you told me “…Kabir who's 9.”")


def test_a_change_of_an_inhaler_is_no_older_news_of_the_childrens_ages():
    """Pass 52a: "We've got two kids, Meera who is 15 and Kabir who's 9." came in through
    Kabir and was listed "(partly older news)" beside "…it's a brown preventer inhaler now"
    (read as a new job, "…now")."""
    from hela_desktop import facts

    kids = "We've got two kids, Meera who is 15 and Kabir who's 9."
    inhaler = ("Kabir's inhaler changed btw - he's not on the blue one any more, it's a brown "
               "preventer inhaler now")
    assert facts.of_another_kind(kids, inhaler, unsaid=True)
    assert not facts.of_another_kind("Chloe lives in Cardiff.", "Chloe moved to Bath.",
                                     unsaid=True)


def test_an_illness_told_of_one_given_to_another():
    """Pass 52a: "And Meera?" answered "Meera plays cricket, she's allergic to peanuts and has
    asthma." had no line (the asthma is Kabir's)."""
    from hela_desktop.allergy_of import _ills_of, given_to_another

    assert _ills_of(_T3, "kabir") == {"asthma"} and _ills_of(_T3, "meera") == set()
    assert _ills_of("My mum has type 2 diabetes; she is also asthmatic.", "mum") == {
        "diabet", "asthma"}

    def names(text):
        return {n for n in ("meera", "kabir") if n in text.lower()}

    got = given_to_another("Meera plays cricket, she's allergic to peanuts and has asthma.",
                           [(3, _T3)], names)
    assert got and (got["name"], got["of"], got["said"], got["memory"]) == (
        "Meera", "Kabir", "has asthma", 3)
    for answer in ("Kabir has asthma and uses a brown inhaler.", "Meera does not have asthma.",
                   "Meera plays cricket.", "Asthma is common in children."):
        assert given_to_another(answer, [(3, _T3)], names) is None, answer


# ---------------------------------------------------------------- QA pass 52b (Graham Whitfield)
_W1 = ("Hello, I'm Graham, 67, retired bus driver from Sheffield. My wife is Maureen, she's 65 and "
       "she has coeliac disease, and she takes levothyroxine 50 micrograms for her thyroid. I've "
       "got type 2 diabetes and I take metformin and simvastatin. Oh and Im allergic to penicillin.")


def test_changes_an_older_man_typed():
    """Pass 52b: "…theyve changed my GP appointment to Thursday 12 March, same time." ("GP"
    read as a name), "…have gone from Leeds to Harrogate…" and "…they've put her
    levothyroxine up from 50 to 75 micrograms." were no corrections."""
    from hela_desktop import facts

    gp = "I've got a GP appointment on Monday 9 March at 10:40 for my diabetes review."
    moved = "no hang on, the surgery rang, theyve changed my GP appointment to Thursday 12 March, same time."
    assert facts.corrects_memory(gp, moved)
    son = ("Our son Daniel is 38, he's a firefighter in Leeds, married to Priti and they've got a "
           "baby girl Isla who is 8 months old.")
    gone = ("Some news - our Daniel has moved, him and Priti and the baby have gone from Leeds to "
            "Harrogate, bigger house. He's still with the fire service.")
    assert facts.corrects(gone) and facts.corrects_memory(son, gone) and facts.negated(gone) == ["leed"]
    assert not facts.corrects("I went from Leeds to London by train.")
    dose = "Maureens been to the doctor and they've put her levothyroxine up from 50 to 75 micrograms."
    assert facts.corrects(dose) and facts.corrects_memory(_W1, dose) and facts.negated(dose) == ["50"]
    for old in ("I'm 50 years old.", "I run 50 miles a week."):
        assert not facts.corrects_memory(old, dose), old


def test_an_illness_in_the_clause_speaks_only_of_its_own_foods():
    """Pass 52b: "I've got type 2 diabetes and I take grapefruit juice with my tablets today."
    (simvastatin told) and "It seems a bit unusual for someone with type 2 diabetes to have a
    pint of beer" (Maureen coeliac) were read as speaking of the diabetes: no caution."""
    from hela_desktop.cautions import caution_of_others, cautions, offered

    own = cautions([(1, "I've got type 2 diabetes and I take metformin and simvastatin.")])[0]
    ask = "can I have grapefruit juice with my tablets?"
    assert offered("I've got type 2 diabetes and I take grapefruit juice with my tablets today.",
                   own, ask) == ["grapefruit"]
    for answer in ("With diabetes, sweets are best kept small.",
                   "I've got type 2 diabetes so sweets are a treat."):
        assert offered(answer, own, "Can I have some sweets?") == [], answer
    words, said = caution_of_others(_W1, {"maureen"})
    from hela_desktop.cautions import Caution

    hers = Caution(1, said, words, theirs=True)
    assert offered("It seems a bit unusual for someone with type 2 diabetes to have a pint of "
                   "beer.", hers, "is it alright for Maureen to have a pint of beer?") == ["beer"]
    assert offered("Coeliac disease means no beer unless it is gluten-free.", hers,
                   "is it alright for Maureen to have a pint of beer?") == []


def test_an_older_news_line_quotes_the_rest_of_the_sentence():
    """Pass 52b: "“Also I've stopped doing Wednesdays at the food bank,” is newer" never said
    Saturdays; "“We've called off Whitby in July,” is newer" never said Scarborough."""
    from hela_desktop.sources import _part_about

    bank = "Also I've stopped doing Wednesdays at the food bank, I do Saturdays instead now."
    assert _part_about(bank, "And I volunteer at the food bank on Wednesdays.") == bank
    whitby = ("We've called off Whitby in July, the cottage owner cancelled on us. We've booked "
              "Scarborough in August instead.")
    assert _part_about(whitby, "we're going to Whitby for the family holiday in July") == whitby
    assert _part_about("Busy day today: Fenris had his check-up at the vet, all fine. Grace is "
                       "from Nigeria, not Ghana. Then we went shopping.", "Grace is from Ghana.") \
        == "…Grace is from Nigeria, not Ghana."


def test_which_antibiotic_to_avoid_is_of_the_penicillin_told():
    """Pass 52b: "what antibiotic should I avoid?" answered of diabetes read only "it
    speaks as if it were you" (the diabetes, of the same statement, counted as the caution
    given), and once it read as left out, its quote was cut before "penicillin"; a right
    answer was said to leave out the GP appointment "for my diabetes review"."""
    from hela_desktop.allergy_of import kind_said
    from hela_desktop.cautions import cautions, missed

    ask = "what antibiotic should I avoid?"
    own = cautions([(1, "I've got type 2 diabetes and I take metformin and simvastatin. Oh and "
                        "Im allergic to penicillin.")])[0]
    review = cautions([(4, "I've got a GP appointment on Monday 9 March at 10:40 for my "
                           "diabetes review.")])[0]
    assert missed("I was born with type 2 diabetes. I've got a good friend who is a nurse.",
                  own, ask)
    for answer in ("You should avoid penicillin, as you are allergic to it.", "Avoid amoxicillin."):
        assert not missed(answer, own, ask) and not missed(answer, review, ask), answer
    assert kind_said(own, ask) == "Oh and Im allergic to penicillin."
    assert kind_said(own, "What should I avoid eating?") == own.text
    assert missed("You are allergic to nothing.", own, "What am I allergic to?")


def test_an_illness_named_is_no_warning_of_a_food_it_does_not_rule_out():
    """Pass 52's window check: "Can my mum have grapefruit juice?" (amlodipine told beside her
    diabetes) answered "…memaltigrelide … It's used for managing high blood pressure (and
    diabetes)…" had no line: the diabetes named read as a warning of the grapefruit."""
    from hela_desktop.cautions import cautions, missed

    mum = cautions([(1, "My mum takes metformin for her diabetes and amlodipine for blood "
                        "pressure.")], about=frozenset({"mum", "mother"}))[0]
    ask = "Can my mum have grapefruit juice?"
    assert missed("You mentioned memaltigrelide. It's used for managing high blood pressure "
                  "(and diabetes).", mum, ask)
    assert not missed("Grapefruit can raise the level of her amlodipine.", mum, ask)
    assert not missed("Cake is a problem with her diabetes.", mum, "Can my mum have some cake?")
