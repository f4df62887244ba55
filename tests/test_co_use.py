"""Hebbian learning from co-use (0.12): after an answer, the memories it drew on are linked
to each other and to the new memory; memories that were only recalled together are not."""

from __future__ import annotations

import json

from hela_desktop import edges as G
from hela_desktop.events import DoneEvent, MemoriesEvent
from hela_desktop.memfile.format import stats_from_file, stats_to_file
from hela_desktop.memory import NewEpisode

GYM = "My gym is PureFit, and I go twice a week."
JOB = "My name is Dana and I work as a pharmacist in Leeds."
CAT = "My cat Biscuit is seven years old."


def test_used_by_answer_by_hand():
    """Worked by hand: message words {dentist, dr, okafor}; the answer's words {dentist, dr,
    okafor, train, purefit}.  GYM's words {gym, purefit, go, twice, week} share "purefit",
    which the message lacks: used.  JOB's {name, dana, work, pharmacist, leeds} share none.
    A memory whose only shared word the message already had ("dentist") is not used."""
    msg = "My dentist is Dr Okafor."
    answer = "Your dentist is Dr Okafor; you also train at PureFit."
    mems = [(1, GYM), (2, JOB), (3, "I need a new dentist.")]
    assert G.used_by_answer(mems, msg, answer) == {1}
    assert G.used_by_answer(mems, msg, answer, min_picked=2) == set()
    assert G.used_by_answer(mems, msg, "") == set()  # no answer uses nothing


def test_a_yes_or_no_question_uses_the_memory_it_restates():
    """QA pass 20: "Does Pixel like long walks?" with "Pixel likes long walks." recalled was
    never credited, since the memory has no word beyond the question to pick up.  The
    message holds 3 of its 4 words, the answer repeats 3 (`formulas.restated`); the dog's
    breed, of which the message holds one word, is not used by an answer without it."""
    mems = [(7, "Pixel likes long walks."), (8, "Pixel is a beagle.")]
    msg = "Does Pixel like long walks?"
    assert G.used_by_answer(mems, msg, "Yes, Pixel loves long walks!") == {7}
    assert G.used_by_answer(mems, msg, "The Beatles wrote that song.") == set()


def test_answer_links_only_what_it_drew_on(make_assistant, settings):
    """A real turn: every learned link joins memories the answer drew on (or the new memory
    and one of them); two recalled memories the answer says nothing of stay unlinked."""
    settings.gate.enabled = False  # recall every candidate: chance co-recalls are the point
    a = make_assistant(s=settings)
    a.engine.add_episodes([NewEpisode(t, "") for t in (GYM, JOB, CAT)])
    learned_before = {(e.src, e.dst) for e in a.store.all_edges() if e.weight > 0}
    assert not learned_before
    conv = a.new_conversation()
    events = list(a.chat("My dentist is Dr Okafor.", conv))
    recalled = {r.episode_id for e in events if isinstance(e, MemoriesEvent)
                for r in e.memories if r.kind == "episode"}
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.episode_id is not None
    assert len(recalled) >= 2, "the test needs at least two memories recalled together"
    stored = next(m for m in a.store.messages(conv) if m["id"] == done.message_id)
    assert done.answered_at == stored["created_at"]  # the window's heading shows it (0.13)
    stats = stored["stats"]
    drew_on = set(stats["drew_on"])
    texts = a.store.key_texts(sorted(recalled))
    # the reading, recomputed here from the stored answer
    assert drew_on == G.used_by_answer(texts.items(), "My dentist is Dr Okafor.", done.text)
    learned = {(e.src, e.dst) for e in a.store.all_edges() if e.weight > 0}
    allowed = drew_on | {done.episode_id}
    assert all(s in allowed and d in allowed for s, d in learned), (learned, drew_on)
    expect = {(min(x, y), max(x, y)) for x in allowed for y in allowed if x < y}
    assert learned == expect
    # the published rule would have linked every pair recalled together
    unused = sorted(recalled - drew_on)
    for i, x in enumerate(unused):
        for y in unused[i + 1:]:
            assert (min(x, y), max(x, y)) not in learned
    assert a.store.hebbian_step() == 1  # one step per answer


def test_drew_on_travels_by_uid():
    """A memory file names the memories an answer drew on by uid; an importing store gets
    its own ids back, and a memory not in the file is left out."""
    out = stats_to_file({"drew_on": [4, 9, 12]}, {4: "u4", 12: "u12"})
    assert out["drew_on_uids"] == ["u4", "u12"]
    back = json.loads(stats_from_file(json.dumps(out), {"u4": 40, "u12": 120}))
    assert back["drew_on"] == [40, 120]
    back = json.loads(stats_from_file(json.dumps({"drew_on": [1, 2]}), {"u4": 40}))
    assert back["drew_on"] == []  # an old id of another store names nothing here
