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
                                           "single-hop", "tokens"}
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
