"""What the thirty-sixth pass (and the items pass 35 left open) found, fixed."""
from __future__ import annotations

from hela_desktop import facts
from hela_desktop.edges import used_by_answer


def test_a_word_and_its_other_forms_share_one_stem():
    """Pass 35 left "mornings" and "morning" apart ("morni" and "morn"), and "swims" and
    "swimming", so a question's "Saturday mornings" did not find the memory's "Saturday
    morning"."""
    for forms in (("morning", "mornings"), ("swims", "swimming", "swim"),
                  ("glass", "glasses"), ("runs", "running"), ("stopped", "stops"),
                  ("hiked", "hiking", "hikes"), ("veterinary", "veterinarian")):
        assert len({facts.stem(w) for w in forms}) == 1, forms
    # kept apart: the doubled letters of the word itself
    assert facts.stem("calls") == facts.stem("calling") == "call"
    assert facts.stem("kissed") == "kiss"
    assert facts.stem("cats") == facts.stem("cat") == "cat"


def test_an_answer_in_another_form_of_the_memorys_word_used_it():
    """QA pass 35b P6: "…expertise in the veterinary industry." was marked as using none
    of its memories, one of which was "My wife Ilse is a veterinarian."."""
    mems = [(1, "Our trip to Krakow is in March."), (2, "My wife Ilse is a veterinarian.")]
    assert used_by_answer(mems, "What does my wife do?",
                          "She has expertise in the veterinary industry.") == {2}
    # a word as the memory says it still comes first: the other form adds nothing then
    mems.append((3, "Ilse's clinic is in the veterinary school."))
    assert used_by_answer(mems, "What does my wife do?",
                          "She has expertise in the veterinary industry.") == {3}
    assert used_by_answer(mems, "What does my wife do?", "I don't know.") == set()


def test_a_reply_that_echoes_a_correction_used_nothing():
    """QA pass 35b P8: the reply to "Actually the Krakow trip is in April, not March." said
    it used “Our trip to Krakow is in March.” (older news) though it only echoed the
    message."""
    mems = [(1, "Our trip to Krakow is in March."), (2, "My wife Ilse is a veterinarian.")]
    reply = "I'm so glad to hear about your dream trip to Krakow!"
    assert used_by_answer(mems, "Actually the Krakow trip is in April, not March.",
                          reply) == set()
    # a question that restates the memory still counts an answer that speaks of it
    assert used_by_answer(mems, "Is our Krakow trip in March?",
                          "Yes, your Krakow trip is in March.") == {1}


def test_a_name_signing_the_answer_as_a_letter_is_made_up_when_no_memory_gives_it():
    """QA pass 35: "…She's 7 years old… Yours truly, Doris" went unmarked: "Doris", first on
    its line, is a common word of the word list (first names are)."""
    from hela_desktop.sources import made_up

    known = "My daughter Lotte is 7 years old."
    assert made_up("She is 7 years old.\n\nYours truly,\nDoris", known) == ["Doris"]
    assert made_up("She is 7.\nBest regards,\nDoris Miller", known) == ["Doris Miller"]
    assert made_up("She is 7.\nCheers,\nLotte", known) == []  # (a name the memories give)
    # a sentence after a thank-you is no signature; a line that goes on is none either
    assert made_up("Thanks! Swimming is fun.", known) == []
    assert made_up("She is 7.\nThanks,\nHappy birthday to her!", known) == []


def test_the_export_line_keeps_to_with_the_counts_and_lists_kinds_in_one_order(tmp_path):
    """QA pass 35: the export's message box left "to" alone on a line above the path; the
    terminal listed the kinds in another order for Markdown than for a .hela file."""
    from pathlib import Path

    from hela_desktop.memfile.report import ExportReport

    counts = {"episodes": 3, "conversations": 1, "messages": 2, "timelines": 1, "edges": 4,
              "knowledge": 0}
    rep = ExportReport(Path("m.hela"), "native", counts, 2048, 0.1)
    assert rep.sentence().startswith("Exported 3 memories, 4 links, 1 chat and 2 messages "
                                     "(2 KB)\u00a0to\nm.hela")
    assert rep.summary() == ("exported to m.hela (native, 2 KB): 3 memories, 4 links, "
                             "0 distilled facts, 1 chat, 2 messages, 1 answer timeline")


def test_a_stray_byte_from_the_model_does_not_hold_back_the_rest_of_the_answer():
    """QA pass 36 P3: after "屈" the model gave one byte that begins no character; every
    later token waited for the end of the answer, which was then stored with "�"."""
    from hela_desktop.llm import Utf8Stream

    s = Utf8Stream()
    pieces = [s.push(b) for b in ("屈".encode(), b"\xe5", "ς".encode(), b", he", b"'s a")]
    assert pieces == ["屈", "", "ς", ", he", "'s a"]
    assert s.flush() == ""
    # a character the token limit cut short is left out, and the stream starts afresh
    assert s.push("café".encode()[:-1]) == "caf" and s.flush() == ""
    assert s.push("☕".encode()) == "☕"
