"""A memory search that matches nothing offers the memories nearest in meaning, said as
such (QA pass 24: "job" found nothing with "I work as a physiotherapist…" stored)."""

from __future__ import annotations

import json
import time

from hela_desktop.cli import main
from hela_desktop.config import Settings
from hela_desktop.memory import MemoryEngine, NewEpisode
from hela_desktop.store import Store

LIFE = ["My sister Ines lives in Lyon.", "I work as a physiotherapist at the clinic.",
        "My dog is called Biscuit.", "We're going to Lisbon in June for a week.",
        "I play the cello on Thursdays."]


def _fill(d, embedder) -> list[int]:
    with Store(d) as st:
        return MemoryEngine(st, embedder, Settings()).add_episodes(
            [NewEpisode(u, created_at=time.time() - 60 * (9 - i)) for i, u in enumerate(LIFE)])


def test_an_answer_that_has_the_words_does_not_hide_the_nearest_in_meaning(tmp_path, embedder,
                                                                          capsys):
    """QA pass 25: "job" listed six memories whose stored answers said "job" (among them
    "Thanks, that's helpful!"), each marked "(meaning)", and not "I work as a
    physiotherapist.".  A match by the stored answer alone is said to be that, and does
    not keep the nearest in meaning out."""
    d = tmp_path / "data"
    ids = _fill(d, embedder)
    with Store(d) as st:
        eng = MemoryEngine(st, embedder, Settings())
        [thanks] = eng.add_episodes([NewEpisode("Thanks, that's helpful!",
                                                "Glad to help, and good job on the report.")])
        res = eng.search("job")
        paths = {r.episode_id: r.path for r in res}
        assert paths[thanks] == "answer" and paths[ids[1]] == "nearest", paths
        assert res[0].episode_id == ids[1]  # the nearer comes first
    assert main(["memories", "search", "job", "--data-dir", str(d)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("nothing matches “job”; the nearest in meaning and HeLa's answers "
                      "that have the words:")
    assert "physiotherapist" in out[1] and out[1].endswith("(near in meaning)")
    assert any("Thanks" in line and line.endswith("(in HeLa's answer)") for line in out)


def test_a_search_that_matches_nothing_offers_the_nearest_in_meaning(tmp_path, embedder, capsys):
    d = tmp_path / "data"
    ids = _fill(d, embedder)
    with Store(d) as st:
        eng = MemoryEngine(st, embedder, Settings())
        res = eng.search("job")
        assert res and res[0].episode_id == ids[1] and res[0].path == "nearest"
        assert len(res) <= 3 and all(r.path == "nearest" for r in res)
        assert 0.22 <= res[0].semantic < 0.35  # under the search's own floor
        # a real match is a match, with no "nearest" beside it
        sister = eng.search("sister")
        assert sister[0].episode_id == ids[0] and {r.path for r in sister} == {"search"}
        # nothing near at all: nothing offered
        assert eng.search("weather forecast") == []
        # (a word near in meaning is offered, though: "xylophone" brings the cello)
        assert [r.episode_id for r in eng.search("xylophone")][:1] == [ids[4]]
    assert main(["memories", "search", "job", "--data-dir", str(d)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "nothing matches “job”; the nearest in meaning:"
    assert "physiotherapist" in out[1] and out[1].endswith("(near in meaning)")
    assert main(["memories", "search", "job", "--json", "--data-dir", str(d)]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["id"] == ids[1] and hits[0]["nearest"] is True
    assert main(["memories", "search", "sister", "--json", "--data-dir", str(d)]) == 0
    assert json.loads(capsys.readouterr().out)[0]["nearest"] is False


def test_what_the_user_said_comes_before_a_question_as_close(tmp_path, embedder):
    """QA pass 24: "pet" listed "What's my dog's name?" (cos 0.52) above "My dog is called
    Biscuit." (0.43).  Among matches about as close, statements come first."""
    d = tmp_path / "data"
    with Store(d) as st:
        eng = MemoryEngine(st, embedder, Settings())
        fact, question = eng.add_episodes([NewEpisode("My dog is called Biscuit."),
                                           NewEpisode("What's my dog's name?")])
        res = eng.search("pet")
        assert [r.episode_id for r in res][:2] == [fact, question]
        by = {r.episode_id: r for r in res}
        assert by[question].semantic > by[fact].semantic  # (the question is the closer)
        assert by[fact].score == __import__("pytest").approx(by[fact].semantic + 0.1)


def test_when_only_a_question_matches_the_nearest_statements_come_too(tmp_path, embedder):
    """QA pass 28: "job" matched only "What does Samir do for a living?" (by meaning), and
    neither "I work as a civil engineer…" nor anything else the user had stated was
    offered.  A question holds nothing the user told: the statements nearest in meaning
    come too, as "nearest"."""
    d = tmp_path / "data"
    said = ["Hi! I'm Marta, I'm 41 and I work as a civil engineer in Rotterdam.",
            "My son Joost is 9 and he plays the violin.", "I'm allergic to peanuts.",
            "What does Samir do for a living?"]
    with Store(d) as st:
        eng = MemoryEngine(st, embedder, Settings())
        ids = eng.add_episodes([NewEpisode(u, created_at=time.time() - 60 * (9 - i))
                                for i, u in enumerate(said)])
        paths = {r.episode_id: r.path for r in eng.search("job")}
        assert paths.get(ids[3]) == "search"  # the question matches by meaning
        assert paths.get(ids[0]) == "nearest", paths  # and the job stated comes too
        assert ids[2] not in paths  # (the unrelated statement does not)
        # a statement that matches is enough: nothing is offered beside it
        assert {r.path for r in eng.search("violin")} == {"search"}
