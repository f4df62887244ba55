"""``bench headroom``: how much missed evidence the links reach, counted by hand and run
on the small LoCoMo-format conversation of test_locomo."""

from __future__ import annotations

import argparse
import json

import pytest
from test_locomo import SAMPLE  # the small LoCoMo-format conversation

from hela_desktop.bench import headroom as H
from hela_desktop.bench import locomo as L
from hela_desktop.cli.bench import add_headroom
from hela_desktop.config import HelaParams, Settings
from hela_desktop.memory import MemoryEngine, NewEpisode
from hela_desktop.store import Store


def test_link_tally_by_hand():
    t = H.LinkTally()
    # recalled 1, 2; the ranking goes on 3, 4, 5, 6; evidence 2, 4, 7; linked 4, 5 (by
    # three links), 7 (two), 8
    t.add([1, 2], [3, 4, 5, 6], {2, 4, 7}, {4: 1, 5: 3, 7: 2, 8: 1}, margin=3)
    s = t.summary()
    assert (s["questions"], s["missed"], s["one_link"], s["linked"]) == (1, 2, 2, 4)
    assert s["one_link_pct"] == 100.0  # both missed (4, 7) are linked
    assert s["evidence_among_linked"] == 50.0  # 4 and 7 of 4, 5, 7, 8
    assert (s["next"], s["next_evidence"], s["next_linked"]) == (3, 1, 2)  # 3, 4, 5
    assert s["evidence_next"] == 33.3
    assert s["evidence_next_linked"] == 50.0  # 4 of 4, 5
    assert s["evidence_next_unlinked"] == 0.0  # 3
    assert (s["tail"], s["evidence_in_tail"]) == (2, 50.0)  # 1, 2 (fewer than TAIL = 3)
    assert (s["many"], s["evidence_among_many"]) == (1, 0.0)  # 5 alone has ≥ 3 links
    # a second question with nothing missed and nothing linked
    t.add([9], [], {9}, {}, margin=3)
    s = t.summary()
    assert s["questions"] == 2 and s["linked_per_question"] == 2.0 and s["missed"] == 2
    assert s["evidence_in_tail"] == 66.7  # 2 of 1, 2, 9
    assert H.LinkTally().summary()["evidence_next"] is None  # nothing counted: no share


def test_linked_to_tells_prior_from_learned(tmp_path, embedder):
    bare = HelaParams(temporal_edge=0.0, semantic_prior=False, name_edge=0.0)
    eng = MemoryEngine(Store(tmp_path / "g.sqlite3"), embedder, Settings(hela=bare))
    a, b, c, d = eng.add_episodes([NewEpisode(t, "") for t in ("one", "two", "three", "four")])
    assert eng.store.all_edges() == []
    # a-b a prior only, a-c learned only, c-d learned (both outside the recalled set)
    eng.store.upsert_edges([(a, b, 0.0, 0.5, 0, 0, 0.0), (a, c, 0.02, 0.0, 1, 1, 0.0),
                            (c, d, 0.3, 0.0, 1, 1, 0.0)])
    assert H.linked_to(eng.store, {a}, H.PRIOR) == {b: 1}
    assert H.linked_to(eng.store, {a}, "learned") == {c: 1}
    assert H.linked_to(eng.store, {a, c}, "learned") == {d: 1}  # a-c joins two recalled
    eng.store.upsert_edges([(a, d, 0.1, 0.0, 1, 1, 0.0)])
    assert H.linked_to(eng.store, {a, c}, "learned") == {d: 2}  # d now linked to both
    stats = H.replay_stats(eng.store, [a, b, c, d], [2, 0, 1, 0])
    assert stats == {"recalled_once_pct": 50.0, "learned_links_per_memory": 1.5}  # 3 learned
    eng.store.close()


@pytest.fixture
def cached(tmp_path, embedder):
    return L.CachedEmbedder(tmp_path / "cache", factory=lambda: embedder)


def test_headroom_on_a_small_conversation(tmp_path, cached):
    res = H.headroom([SAMPLE], embedder=cached, k=2, margin=2, workdir=tmp_path)
    assert set(res["graphs"]) == {"prior", "hela-lived-used", "hela-lived-indicator"}
    for by in res["graphs"].values():
        assert by["multi-hop"]["questions"] == 1 and by["other"]["questions"] == 3
        for s in by.values():
            assert 0 <= s["one_link"] <= s["missed"] and s["linked_evidence"] <= s["linked"]
            assert s["next"] <= 2 * s["questions"] and s["many_evidence"] <= s["many"]
            assert s["tail"] <= H.TAIL * s["questions"]
    # every lived graph and the prior graph judge the same recalled sets
    assert len({json.dumps([by[g]["missed"] for g in H.GROUPS])
                for by in res["graphs"].values()}) == 1
    assert set(res["replays"]["hela-lived-used"]) == {"recalled_once_pct",
                                                      "learned_links_per_memory"}
    assert "| prior | multi-hop | 1 |" in H.markdown(res)
    with pytest.raises(ValueError, match="unknown lived rule"):
        H.headroom([SAMPLE], embedder=cached, rules=("hela-lived-nope",), workdir=tmp_path)


def test_cli_headroom_json_and_refusals(tmp_path, cached, monkeypatch, capsys):
    ap = argparse.ArgumentParser()
    add_headroom(ap.add_subparsers())
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps([SAMPLE]), encoding="utf-8")
    monkeypatch.setattr(L, "CachedEmbedder", lambda cache: cached)
    args = ap.parse_args(["headroom", str(data), "--k", "2", "--json", "--rules",
                          "hela-lived-used", "--data-dir", str(tmp_path)])
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["graphs"]) == {"prior", "hela-lived-used"} and out["k"] == 2
    args = ap.parse_args(["headroom", str(data), "--rules", "nope", "--data-dir", str(tmp_path)])
    assert args.func(args) == 2
    assert "unknown lived rule" in capsys.readouterr().err
    args = ap.parse_args(["headroom", str(tmp_path / "missing.json"), "--data-dir", str(tmp_path)])
    assert args.func(args) == 2
    assert "missing.json" in capsys.readouterr().err


@pytest.mark.parametrize("bad", [["--k", "0"], ["--next", "0"], ["--conversations", "-1"]])
def test_cli_headroom_refuses_out_of_range_numbers(tmp_path, bad, capsys):
    ap = argparse.ArgumentParser()
    add_headroom(ap.add_subparsers())
    with pytest.raises(SystemExit) as exc:
        ap.parse_args(["headroom", str(tmp_path / "x.json"), *bad])
    assert exc.value.code == 2 and "must be at least 1" in capsys.readouterr().err
