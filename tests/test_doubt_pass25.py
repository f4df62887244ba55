"""Signs under an answer that QA pass 25 found missing: the old value told as a change,
and a made-up answer to a question about someone of the user's life named without "my".
A real SQLite store and the real embedder."""

from __future__ import annotations

import time

import pytest

from hela_desktop.doubt import answer_doubt
from hela_desktop.embedder import Embedder
from hela_desktop.events import Recall
from hela_desktop.facts import asks_about_user
from hela_desktop.memory import MemoryEngine, NewEpisode
from hela_desktop.store import Store


def test_an_answer_that_tells_the_change_with_the_old_value_is_doubted():
    """QA pass 25: "Ines moved to Lyon." and "Tomas's job is a freelance software engineer
    in Berlin." went unmarked: each said a word of the newer memory ("moved", "job")."""
    lyon = Recall(episode_id=1, score=0.5, text="My sister Ines lives in Lyon.",
                  extra={"superseded_by": 4})
    porto = Recall(episode_id=4, score=0.5, text="Actually Ines moved to Porto.")
    ask = "Where does my sister live now?"
    older = {"kind": "older", "newer": 4, "older": 1}
    assert answer_doubt(ask, "Ines moved to Lyon.", [porto, lyon], {1, 4}) == older
    assert answer_doubt(ask, "Ines moved to Porto.", [porto, lyon], {4}) is None
    # as much of each: no sign either way
    assert answer_doubt(ask, "Ines left Lyon for Porto.", [porto, lyon], {1, 4}) is None
    eng = Recall(episode_id=6, score=0.5, text="Tomas is a software engineer in Berlin.",
                 extra={"superseded_by": 14})
    chef = Recall(episode_id=14, score=0.5,
                  text="Actually Tomas quit his job and now works as a chef.")
    job = "What does my friend Tomas do for a living?"
    assert answer_doubt(job, "Tomas's job is a freelance software engineer in Berlin.",
                        [chef, eng], {6, 14}) == {"kind": "older", "newer": 14, "older": 6}
    assert answer_doubt(job, "He quit his job and works as a chef now.", [chef, eng],
                        {14}) is None


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


def test_a_question_about_someone_of_the_users_life_asks_about_it(tmp_path, embedder):
    """"Where is Ines now?" got a made-up answer and no mark: the check covered only
    questions with "my" or "I".  Names the user's memories call theirs count now; places
    and things they name do not."""
    t = time.time() - 3600
    with Store(tmp_path) as store:
        engine = MemoryEngine(store, embedder)
        engine.add_episodes([NewEpisode(u, "Noted.", created_at=t + i) for i, u in enumerate([
            "My sister Ines lives in Lyon.",
            "I'm planning a trip to Japan in May with my friend Tomas.",
            "Tomas is a software engineer in Berlin.",
            "Biscuit is my dog.",
            "I write my scripts in Python at work."])])
        people = engine.people_in
        assert people("Where is Ines now?") == {"ines"}
        assert people("What does Tomas do?") == {"tomas"}
        assert people("Is Biscuit a good boy?") == {"biscuit"}
        assert people("What's the weather in Berlin?") == set()
        assert people("Is Japan expensive?") == set()
        assert people("What is Python?") == set()
        assert asks_about_user("Where is Ines now?", people)
        assert not asks_about_user("Where is Ines now?")  # (no "my", no "I")
        assert not asks_about_user("What's the weather in Berlin?", people)
        assert not asks_about_user("Ines moved to Porto.", people)  # (it tells)
        # an answer that used none of what was recalled is doubted, as for "my sister"
        ines = Recall(episode_id=1, score=0.5, text="My sister Ines lives in Lyon.")
        # (with what was told of whom it asks about, since 0.45: QA pass 53a)
        assert answer_doubt("How is Ines now?", "She is in a flat with her cat.", [ines],
                            set(), people) == {"kind": "unused", "memory": ines.episode_id,
                                               "said": ines.text}
        assert answer_doubt("How is Ines now?", "She is in a flat with her cat.", [ines],
                            set()) is None
        # (asked where, it names no place the memory gives: it leaves the memory out, since
        # 0.35, whoever it is of, the memory holding every word asked; QA pass 43)
        for names in (people, None):
            assert answer_doubt("Where is Ines now?", "She is in a flat with her cat.", [ines],
                                set(), names) == {"kind": "left_out", "memory": 1,
                                                  "said": ines.text}
        # … and one naming a place no memory says, that too (since 0.20)
        assert answer_doubt("Where is Ines now?", "She is in Paris with her cat.", [ines],
                            set(), people) == {"kind": "made_up", "words": ["Paris"],
                                               "unused": True}
