"""The LoCoMo benchmark on a small hand-made conversation in the LoCoMo format."""

from __future__ import annotations

import argparse
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from hela_desktop.bench import locomo as L
from hela_desktop.cli.bench import add_locomo

SAMPLE = {
    "sample_id": "tiny-1",
    "conversation": {
        "speaker_a": "Alice",
        "speaker_b": "Bob",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Alice", "dia_id": "D1:1", "text": "Hi Bob! I just adopted a puppy named Biscuit."},
            {"speaker": "Bob", "dia_id": "D1:2", "text": "Congrats! I started learning the cello last month."},
            {"speaker": "Alice", "dia_id": "D1:3", "text": "Look at this.",
             "blip_caption": "a photo of a small brown dog on a sofa", "img_url": ["x"]},
        ],
        "session_2_date_time": "10:05 am on 2 June, 2023",
        "session_2": [
            {"speaker": "Bob", "dia_id": "D2:1", "text": "My cello teacher says my bowing improved."},
            {"speaker": "Alice", "dia_id": "D2:2", "text": "I ran a half marathon in Lisbon on Sunday."},
            {"speaker": "Bob", "dia_id": "D2:3", "text": "Amazing, what was your finishing time?"},
        ],
    },
    "qa": [
        {"question": "What is the name of Alice's puppy?", "answer": "Biscuit",
         "evidence": ["D1:1"], "category": 4},
        {"question": "Which instrument does Bob play?", "answer": "cello",
         "evidence": ["D1:2; D2:1"], "category": 1},
        {"question": "When did Alice run a half marathon?", "answer": "Sunday before 2 June 2023",
         "evidence": ["D:2:2"], "category": 2},
        {"question": "What might Alice enjoy doing with her dog?", "answer": "walks",
         "evidence": ["D1:01", "D"], "category": 3},
        {"question": "What is the name of Bob's puppy?", "adversarial_answer": "Biscuit",
         "evidence": ["D1:1"], "category": 5},
    ],
}


def test_normalize_evidence_repairs_malformed_ids():
    assert L.normalize_evidence(["D8:6; D9:17"]) == ["D8:6", "D9:17"]
    assert L.normalize_evidence(["D:11:26"]) == ["D11:26"]
    assert L.normalize_evidence(["D30:05"]) == ["D30:5"]
    assert L.normalize_evidence(["D"]) == []
    assert L.normalize_evidence(["D1:3 D1:5", "D2:1,D2:2", "D1:3"]) == ["D1:3", "D1:5", "D2:1", "D2:2"]
    assert L.normalize_evidence([]) == []


def test_session_time_is_a_real_timestamp():
    want = datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc).timestamp()
    assert L.parse_session_time("1:56 pm on 8 May, 2023") == want
    with pytest.raises(ValueError):
        L.parse_session_time("yesterday")


def test_turns_include_captions_sessions_and_times():
    turns = L.conversation_turns(SAMPLE)
    assert [t.dia_id for t in turns] == ["D1:1", "D1:2", "D1:3", "D2:1", "D2:2", "D2:3"]
    assert turns[2].text == "Alice: Look at this. [shares a photo: a photo of a small brown dog on a sofa]"
    assert [t.session for t in turns] == [1, 1, 1, 2, 2, 2]
    assert all(a.at < b.at for a, b in zip(turns, turns[1:]))
    assert turns[3].at - turns[0].at > 20 * 86400  # the second session is weeks later
    pairs = L.build_episodes(turns, "pair")
    assert [ep.meta["dia_ids"] for _, ep in pairs] == [["D1:1", "D1:2"], ["D1:3"], ["D2:1", "D2:2"], ["D2:3"]]


def test_recall_and_category_split():
    # 2 of 3 evidence turns covered -> 2/3, not all
    assert L.evidence_recall(["D1:1", "D1:2", "D2:1"], {"D1:1", "D2:1", "D9:9"}) == (pytest.approx(2 / 3), False)
    assert L.evidence_recall(["D1:1"], {"D1:1"}) == (1.0, True)
    assert L.evidence_recall([], {"D1:1"}) == (0.0, False)
    split = L.split_by_category(SAMPLE["qa"])
    assert [len(split[c]) for c in (1, 2, 3, 4, 5)] == [1, 1, 1, 1, 1]
    t = L.Tally()
    for cat, rec in ((1, 0.5), (4, 1.0), (4, 0.0), (5, 1.0)):
        t.add(cat, rec, rec == 1.0, 100, 3)
    s = t.summary()
    # categories 1-4 only: (0.5 + 1 + 0)/3 = 50 %; single-hop (1 + 0)/2 = 50 %; 5 apart
    assert s["overall"] == 50.0 and s["multi-hop"] == 50.0 and s["single-hop"] == 50.0
    assert s["adversarial"] == 100.0 and s["questions"] == 3 and s["all-evidence"] == pytest.approx(33.3)


def test_token_f1():
    assert L.token_f1("Biscuit", "Biscuit") == 1.0
    # pred "the cello and violin" -> [cello, violin]; gold "cello" -> P=1/2, R=1 -> F1 = 2/3
    assert L.token_f1("the cello and violin", "cello") == pytest.approx(2 / 3)
    assert L.token_f1("", "cello") == 0.0


@pytest.fixture
def cached(tmp_path, embedder):
    return L.CachedEmbedder(tmp_path / "cache", factory=lambda: embedder)


def test_run_end_to_end_same_budget_and_dump(tmp_path, cached):
    lines: list[dict] = []
    res = L.run_locomo([SAMPLE], k=2, embedder=cached, dump=lines.append, progress=False,
                       workdir=tmp_path)
    ms = res["methods"]
    assert set(ms) == set(L.METHODS) and res["k"] == 2 and res["default_profile"] == "hela"
    for m, r in ms.items():
        assert r["questions"] == 4, m
        assert set(["overall", "multi-hop", "temporal", "open-domain", "single-hop", "tokens"]) <= set(r)
    # every method stays within the dense baseline's per-question budget
    by_q: dict[str, dict[str, int]] = {}
    for d in lines:
        by_q.setdefault(d["question"], {})[d["method"]] = d["tokens"]
        assert set(d) >= {"sample_id", "question", "category", "method", "retrieved_dia_ids", "tokens"}
    assert len(lines) == len(SAMPLE["qa"]) * len(L.METHODS)
    for q, toks in by_q.items():
        assert all(t <= toks["dense"] for t in toks.values()), q
    # the evidence of the malformed 'D1:2; D2:1' is scored as two turns
    mh = [d for d in lines if d["category"] == 1 and d["method"] == "dense"][0]
    assert mh["evidence"] == ["D1:2", "D2:1"]
    covered = set(mh["retrieved_dia_ids"])
    assert mh["recall"] == pytest.approx(len(covered & {"D1:2", "D2:1"}) / 2)
    # the cache was written and a second run embeds nothing new
    cached.save()
    again = L.CachedEmbedder(tmp_path / "cache", factory=lambda: (_ for _ in ()).throw(AssertionError))
    res2 = L.run_locomo([SAMPLE], k=2, embedder=again, progress=False, workdir=tmp_path)
    assert res2["methods"]["dense"] == ms["dense"]
    report = L.markdown_report(res)
    assert "| hela |" in report and "█" in report


def test_cli_registration_and_json(tmp_path, cached, monkeypatch, capsys):
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers()
    add_locomo(sub)
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps([SAMPLE]), encoding="utf-8")
    args = ap.parse_args(["locomo", str(data), "--k", "2", "--json", "--methods", "dense,bm25,hela",
                          "--out", str(tmp_path / "r.md"), "--dump", str(tmp_path / "d.jsonl")])
    args.data_dir = tmp_path
    monkeypatch.setattr(L, "CachedEmbedder", lambda cache: cached)
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["k"] == 2 and set(out["methods"]) == {"dense", "bm25", "hela"}
    assert set(out["methods"]["hela"]) == {"overall", "multi-hop", "temporal", "open-domain",
                                           "single-hop", "cross-session", "tokens"}
    assert Path(tmp_path / "r.md").read_text().startswith("## LoCoMo")
    assert len(Path(tmp_path / "d.jsonl").read_text().splitlines()) == 5 * 3


def test_consolidated_variant_runs_in_the_same_table(tmp_path, cached, llm):
    lines: list[dict] = []
    res = L.run_locomo([SAMPLE], k=2, embedder=cached, methods=("dense", "hela"),
                       dump=lines.append, progress=False, workdir=tmp_path, consolidate_llm=llm)
    assert set(res["methods"]) == {"dense", "hela", "hela-consolidated"}
    assert res["methods"]["hela-consolidated"]["questions"] == 4
    by_q: dict[str, dict[str, int]] = {}
    for d in lines:
        by_q.setdefault(d["question"], {})[d["method"]] = d["tokens"]
    for q, toks in by_q.items():  # knowledge items count their own tokens, within budget
        assert toks["hela-consolidated"] <= toks["dense"], q


# ------------------------------------------------------------ issue #16 -----------------
def test_cross_session_multi_hop_is_the_association_category():
    assert L.cross_session(1, ["D1:2", "D2:1"])
    assert not L.cross_session(1, ["D1:2", "D1:5"])  # one session
    assert not L.cross_session(4, ["D1:2", "D2:1"])  # not multi-hop
    t = L.Tally()
    t.add(1, 0.5, False, 10, 1, cross_session=True)
    t.add(1, 1.0, True, 10, 1)
    s = t.summary()
    assert s["multi-hop"] == 75.0 and s["cross-session"] == 50.0
    assert s["cross-session-questions"] == 1


def test_hebbian_update_with_rule_deltas(tmp_path, embedder):
    """A rule's own Δ per pair: positive creates or strengthens, negative weakens the learned
    weight (never below 0, the prior untouched) and creates nothing."""
    from hela_desktop.config import Settings
    from hela_desktop.memory import MemoryEngine, NewEpisode
    from hela_desktop.store import Store

    s = Settings()
    s.hela.lam = 0.1
    s.hela.semantic_prior = False
    s.hela.name_edge = 0.0
    eng = MemoryEngine(Store(tmp_path / "m.sqlite3"), embedder, s)
    a, b, c = eng.add_episodes([NewEpisode(t, "", created_at=1e9 + i) for i, t in
                                enumerate(["I like tea.", "My cat is grey.", "Rain today."])])
    eng.hebbian_update((), deltas={(a, b): 0.3, (a, c): -0.2})  # step 1
    edges = eng.store.edges_between([a, b, c])
    # a-b: temporal prior 0.5, learned 0.3; a-c: no edge (a negative Δ creates none)
    assert edges[(a, b)][2:5] == (pytest.approx(0.3), 0.5, 1)
    assert (a, c) not in edges
    eng.hebbian_update((), deltas={(a, b): -0.1})  # step 2: 0.9·0.3 - 0.1 = 0.17
    assert eng.store.edges_between([a, b])[(a, b)][2:4] == (pytest.approx(0.17), 0.5)
    eng.hebbian_update((), deltas={(a, b): -1.0})  # step 3: floored at 0, prior kept
    assert eng.store.edges_between([a, b])[(a, b)][2:4] == (0.0, 0.5)
    # without deltas: the published rule, η for every pair of the set
    eng.hebbian_update([b, c])
    assert eng.store.edges_between([b, c])[(b, c)][2] == pytest.approx(s.hela.eta)


def test_rule_deltas_by_hand():
    from hela_desktop.bench import lived
    from hela_desktop.events import Recall

    active = [Recall(1, 2.0), Recall(2, 1.0), Recall(3, 0.5)]
    turn = 9
    # used: turn + used {1, 2} -> pairs (1,2), (1,9), (2,9) at η
    d = lived.rule_deltas(lived.Rule("used"), 0.1, turn, active, {1, 2}, lambda e: 0, 1.0)
    assert d == {(1, 2): 0.1, (1, 9): 0.1, (2, 9): 0.1}
    # star: only the turn to what it used
    d = lived.rule_deltas(lived.Rule("star"), 0.1, turn, active, {1, 2}, lambda e: 0, 1.0)
    assert d == {(1, 9): 0.1, (2, 9): 0.1}
    # coact: a = [1, 0.5, 0.25], turn 1 -> (1,2) 0.1·0.5 = 0.05, (2,3) 0.1·0.125 = 0.0125
    d = lived.rule_deltas(lived.Rule("coact"), 0.1, turn, active, set(), lambda e: 0, 1.0)
    assert d[(1, 2)] == pytest.approx(0.05) and d[(2, 3)] == pytest.approx(0.0125)
    assert d[(3, 9)] == pytest.approx(0.025) and len(d) == 6
    # pmi: activity before +1 -> n_1 = 4, n_9 = 1, n̄ = 1: 0.1·min(1, 1/2) = 0.05
    d = lived.rule_deltas(lived.Rule("pmi"), 0.1, turn, active, {1}, {1: 3, 9: 0}.get, 1.0)
    assert d == {(1, 9): pytest.approx(0.05)}
    # anti: used pairs +η, the other co-active pairs -ρ·η = -0.05
    d = lived.rule_deltas(lived.Rule("anti"), 0.1, turn, active, {1}, lambda e: 0, 1.0)
    assert d[(1, 9)] == 0.1 and d[(1, 2)] == pytest.approx(-0.05) and len(d) == 6


def test_lived_replay_learns_while_the_conversation_is_played(tmp_path, cached):
    res = L.run_locomo([SAMPLE], k=2, embedder=cached, progress=False, workdir=tmp_path,
                       methods=("dense", "hela-cold", "hela-lived", "hela-lived-used",
                                "hela-lived-indicator", "hela-reference"))
    ms = res["methods"]
    assert ms["hela-lived"] == ms["hela-lived-used"]  # hela-lived replays the default rule
    assert res["lived_default"] == "hela-lived-used"
    for m in ms:
        assert ms[m]["questions"] == 4 and "cross-session" in ms[m]


def test_lived_replay_links_a_turn_to_the_memory_its_answer_used(tmp_path, cached):
    from dataclasses import replace

    from hela_desktop.bench import lived
    from hela_desktop.config import Settings
    from hela_desktop.memory import MemoryEngine
    from hela_desktop.store import Store

    s = Settings()
    s.gate.enabled = False  # every retrieved memory may be co-active in this tiny pool
    eng = MemoryEngine(Store(tmp_path / "l.sqlite3"), cached, s)
    eps = lived.with_conversations(eng.store, "t", L.build_episodes(L.conversation_turns(SAMPLE)))
    vecs = cached.embed([e.user_text for e in eps])
    replay = lived.LivedReplay(eng, lived.RULES["hela-lived-used"], s, cached.count_tokens)
    ids = replay.play([replace(e, embedding=v) for e, v in zip(eps, vecs, strict=True)])
    assert len(ids) == 6 and replay.turns == 6 and eng.store.hebbian_step() == 6
    # one Hebbian step per turn; learned edges join only stored turns
    learned = [(a, b) for a, b, w, *_ in eng.store.all_edges() if w > 0]
    assert learned and replay.used > 0
    assert all(a in ids and b in ids for a, b in learned)


def test_hela_reference_has_no_time_decay(tmp_path, cached):
    from hela_desktop.bench import lived
    from hela_desktop.config import Settings
    from hela_desktop.memory import MemoryEngine
    from hela_desktop.store import Store

    s = L.reference_settings(Settings())
    assert not s.hela.semantic_prior and s.hela.name_edge == 0.0
    eng = MemoryEngine(Store(tmp_path / "r.sqlite3"), cached, s)
    eng.add_episodes(lived.with_conversations(eng.store, "t", L.build_episodes(
        L.conversation_turns(SAMPLE))))
    # asked 10 years later, the published decay would be ~0; the reference code's is 1.0
    res = eng.retrieve("cello", profile="hela-paper", now=2e9, with_text=False)
    assert res and all(r.recency == 1.0 for r in res)


def test_personal_probes_retrieval_only(tmp_path, cached):
    from hela_desktop.bench import lived

    dialogue = {"id": "d", "sessions": [
        {"date": "2025-01-06T07:40:00", "turns": [
            "My brother Tobias is getting married in Bruges in June.",
            "Can you suggest a quick breakfast?"]},
        {"date": "2025-02-08T10:30:00", "turns": [
            "Tobias's fiancée Lien does pottery on weekends.",
            "Write me a poem about coffee."]}],
        "probes": [{"ask": "What does the bride do for fun?", "kind": "association",
                    "expect": ["pottery"], "evidence": [[1, 0]]},
                   {"ask": "Recommend a film.", "kind": "unrelated", "expect": [],
                    "evidence": []}]}
    res = lived.personal_probes([dialogue], cached, workdir=tmp_path,
                                methods=("hela-cold", "hela-lived"))
    assert set(res) == {"hela-cold", "hela-lived"}
    for m in res:  # probes without evidence are not scored
        assert set(res[m]) == {"association"} and res[m]["association"]["n"] == 1
        assert res[m]["association"]["in_prompt"] in (0, 1)


def test_a_rule_may_carry_its_own_decay(tmp_path, cached, monkeypatch):
    from hela_desktop.bench import lived
    from hela_desktop.config import Settings

    monkeypatch.setitem(lived.RULES, "x-nodecay", lived.Rule("used", eta=0.1, lam=0.0))
    monkeypatch.setattr(lived, "LIVED", (*lived.LIVED, "x-nodecay"))
    eps = L.build_episodes(L.conversation_turns(SAMPLE))
    s = Settings()
    out = lived.replay_methods(("hela-lived", "x-nodecay"), list(range(1, 7)), "t", eps, cached,
                               s, lambda rule: tmp_path / f"{rule}.sqlite3")
    assert out["x-nodecay"].settings.hela.lam == 0.0
    assert out["hela-lived"].settings.hela.lam == s.hela.lam
    assert out["hela-lived"] is out[lived.DEFAULT_RULE]


def test_lived_forget_runs_idle_forgetting_between_sessions(tmp_path, cached):
    """``hela-lived-forget`` runs the app's forgetting pass before each later session:
    small talk left unlinked and unrecalled for over 30 days is archived (and leaves
    retrieval); the default rule runs none."""
    from dataclasses import replace

    from hela_desktop.bench import lived
    from hela_desktop.config import HelaParams, Settings
    from hela_desktop.memory import MemoryEngine, NewEpisode
    from hela_desktop.store import Store

    day = 86400.0
    t0 = L.parse_session_time("1:00 pm on 1 January, 2023")
    talk = [(1, NewEpisode("Hi there!", "", created_at=t0)),
            (1, NewEpisode("Haha, sounds fun.", "", created_at=t0 + 60)),
            (2, NewEpisode("Morning!", "", created_at=t0 + 40 * day)),
            (3, NewEpisode("Good night!", "", created_at=t0 + 41 * day))]
    bare = Settings(hela=HelaParams(temporal_edge=0.0, semantic_prior=False, name_edge=0.0))
    eng = MemoryEngine(Store(tmp_path / "f.sqlite3"), cached, bare)
    eps = lived.with_conversations(eng.store, "t", talk)
    vecs = cached.embed([e.user_text for e in eps])
    replay = lived.LivedReplay(eng, lived.RULES["hela-lived-forget"], bare, cached.count_tokens)
    ids = replay.play([replace(e, embedding=v) for e, v in zip(eps, vecs, strict=True)])
    # before session 2 (40 days on): both of session 1 archived; before session 3 (a day
    # later): "Morning!" is a day old, so kept
    assert replay.archived == 2
    assert set(eng.store.archived_ids()) == set(ids[:2])
    assert {r.episode_id for r in eng.retrieve("Hi there, sounds fun", now=t0 + 42 * day)} \
        <= set(ids[2:])
    # the default rule forgets nothing
    kept = MemoryEngine(Store(tmp_path / "k.sqlite3"), cached, bare)
    eps = lived.with_conversations(kept.store, "t", talk)
    again = lived.LivedReplay(kept, lived.RULES[lived.DEFAULT_RULE], bare, cached.count_tokens)
    again.play([replace(e, embedding=v) for e, v in zip(eps, vecs, strict=True)])
    assert again.archived == 0 and kept.store.archived_ids() == []
    eng.store.close()
    kept.store.close()
