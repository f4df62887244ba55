"""What the fifty-fourth pass found, fixed: what pass 53 noticed and left alone, and QA passes
54a–d (Daniel, Isla, Margaret and Rosa)."""
from __future__ import annotations

from test_qa_pass51 import _line, _recall


def test_a_carers_word_against_a_single_food_is_a_caution():
    """Pass 53 noticed: "My doctor says I must avoid cranberry juice." was no caution of its
    own (only a group's name counted there: "avoid dairy"), and "My GP told me to avoid
    grapefruit." none at all without a medicine that names it. A food any group names is a
    food of its own there; "avoid stress" or "avoid mornings" names none, and "no
    unpasteurised cheese" is no caution against every cheese."""
    from hela_desktop.cautions import caution_of, cautions

    assert caution_of("My doctor says I must avoid cranberry juice.") == {"cranberry"}
    assert caution_of("My GP told me to avoid grapefruit.") == {"grapefruit"}
    assert caution_of("I avoid mornings and grapefruit.") == {"grapefruit"}
    assert caution_of("My doctor told me to avoid stress.") == frozenset()
    assert caution_of("I can't have my phone at work.") == frozenset()
    pregnant = caution_of("The midwife said no unpasteurised cheese, no liver.")
    assert "brie" in pregnant and "liver" in pregnant and "cheese" not in pregnant

    mems = [_recall(1, "I take warfarin, 3 mg a day. My doctor says I must avoid cranberry "
                       "juice."), _recall(2, "My GP told me to avoid grapefruit.")]
    cs = cautions((r.episode_id, r.text) for r in mems)
    assert _line("What juice should I have with breakfast?",
                 "Cranberry juice is a great choice for breakfast.", mems, cautions=cs) == (
        "Check this answer: it names “cranberry” without a word of warning, and you told me "
        "“My doctor says I must avoid cranberry juice.”")
    assert "“My GP told me to avoid grapefruit.”" in _line(
        "Can I have grapefruit for breakfast?", "Yes, grapefruit is a healthy breakfast.",
        mems[1:], cautions=cs[1:])
    assert _line("Can I have orange juice?", "Yes, orange juice is fine.", mems, cautions=cs) == ""
