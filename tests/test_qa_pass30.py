"""QA pass 29 and the thirtieth pass (4 December 2026): what a person met and this pass
fixed."""

from __future__ import annotations

from hela_desktop import facts

T0 = 1_780_000_000.0


# ---- "… instead of …" corrects (`facts.corrects`, `facts.negated`) ---------------------

def test_instead_of_and_rather_than_say_what_is_no_longer_so():
    # QA pass 29: "…May instead of June" moved the trip and nothing was marked
    moved = "We now fly to Lisbon in May instead of June."
    assert facts.corrects(moved) and facts.negated(moved) == facts.stems("June")
    tea = "I drink tea rather than coffee these days."
    # when the new state holds is not what is denied
    assert facts.corrects(tea) and facts.negated(tea) == facts.stems("coffee")
    assert facts.negated("Asha turned 7, so she is not 6 any more.") == ["6"]
    # asked, not told: no correction of anything
    assert not facts.corrects_memory("We fly to Lisbon in June.",
                                     "Can we fly to Lisbon in May instead of June?")


def test_a_move_said_with_instead_of_is_confirmed_as_a_correction(make_assistant):
    """Through the real turn path and model: the answer to the move names the plan it
    replaces, and a statement that only shares a word with an unrelated memory does not."""
    a = make_assistant()
    cid = a.new_conversation()
    june = "We fly to Lisbon on 14 June for my sister's wedding."
    told = list(a.chat(june, cid, now=T0))[-1]
    work = list(a.chat("I work at the bakery on Elm Street.", cid, now=T0 + 60))[-1]
    done = list(a.chat("The wedding moved, so we fly to Lisbon in May instead of June.", cid,
                       now=T0 + 120))[-1]
    assert done.corrects == [{"episode_id": told.episode_id, "text": june}]
    other = list(a.chat("I walk to work instead of driving.", cid, now=T0 + 180))[-1]
    assert work.episode_id not in [c["episode_id"] for c in other.corrects]
    # the store's reading (older news in retrieval and prompts) is the same
    from hela_desktop.knowledge import corrections

    assert corrections(a.store, {told.episode_id, work.episode_id}) == {
        told.episode_id: done.episode_id}
    assert facts.corrected_words("I walk to work instead of driving.") == frozenset(
        facts.stems("driving"))
    assert facts.said_words("We fly on 14 June.") >= {"14", *facts.stems("June")}
