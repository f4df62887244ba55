"""Reflective consolidation on a real store, the real embedder and the real default model.

The model-using tests are few and short (greedy decoding, ≤ 96 tokens per cluster); the
rest exercise parsing, cleaning, merging and knowledge retrieval without the model.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from hela_desktop.consolidate import (
    DONE_PREFIX,
    ConsolidationParams,
    clean_items,
    consolidate,
    consolidated_variant,
    grounded,
    merge_item,
    negated,
    parse_items,
    plan_clusters,
    plan_pass,
    reset_markers,
)
from hela_desktop.embedder import Embedder
from hela_desktop.knowledge import list_knowledge, retrieve_knowledge
from hela_desktop.memory import MemoryEngine, NewEpisode
from hela_desktop.store import Store

DAY = 86400.0
REPO = Path(__file__).resolve().parent.parent

THEMES = {
    "hiking": [
        ("I love hiking in the mountains every weekend.", "That sounds like a wonderful way to spend weekends!"),
        ("Last Saturday I hiked up Mount Rainier with my dog Max.", "Rainier is a great hike. How did Max do?"),
        ("Max is a golden retriever and he loves the mountain trails too.", "Golden retrievers make great hiking buddies."),
        ("I'm planning another mountain hike next weekend, maybe in the Cascades.", "Enjoy the Cascades, check the weather first."),
    ],
    "cooking": [
        ("I am a vegetarian and I cook dinner at home most nights.", "Home cooking is a great habit."),
        ("Tonight I made a vegetarian lasagna with spinach.", "Spinach lasagna sounds delicious."),
        ("My favourite vegetarian dish to cook is a chickpea curry.", "Chickpea curry is tasty and filling."),
        ("I want to learn to cook more vegetarian Indian food.", "Try dal and palak paneer next."),
    ],
    "work": [
        ("I work as a nurse at the city hospital.", "Nursing is important work."),
        ("My night shifts at the hospital are exhausting.", "Make sure you rest between shifts."),
        ("The hospital is short of nurses so I do extra shifts.", "That sounds hard; take care of yourself."),
    ],
}
SMALL_TALK = [("What time is it in Tokyo?", "It depends on your time zone."),
              ("Tell me a joke.", "Why did the scarecrow win? He was outstanding in his field.")]
QUERIES = {
    "hiking": ["Where do I go hiking with my dog?", "What do I do on weekends in the mountains?"],
    "cooking": ["What vegetarian food do I cook?", "What is my favourite dish to cook at home?"],
    "work": ["Where do I work as a nurse?", "How are my hospital shifts?"],
}
# the short conversation's hubs, by an absolute bar (the default is δ_hub = 1.5 and the
# top 20% of degrees)
PARAMS = dict(hub_degree=1.3, hub_quantile=0.0)


def build_conversation(engine: MemoryEngine, *, hebbian_rounds: int = 3, age_days: float = 60.0,
                       now: float | None = None) -> dict[str, list[int]]:
    """A short real conversation with repeated themes (one chat per theme, plus small talk),
    ingested with old timestamps; themed questions are asked and their results co-activated
    (Hebbian updates), as the chat loop does."""
    now = time.time() if now is None else now
    store = engine.store
    ids: dict[str, list[int]] = {}
    t = now - age_days * DAY
    for theme, turns in THEMES.items():
        conv = store.add_conversation(theme, at=t)
        eps = []
        for u, a in turns:
            t += 600
            eps.append(NewEpisode(u, a, conversation_id=conv, created_at=t))
        ids[theme] = engine.add_episodes(eps)
    ids["small"] = []
    for u, a in SMALL_TALK:
        conv = store.add_conversation("misc", at=t)
        t += 600
        ids["small"] += engine.add_episodes([NewEpisode(u, a, conversation_id=conv, created_at=t)])
    for _ in range(hebbian_rounds):
        for qs in QUERIES.values():
            for q in qs:
                rec = engine.retrieve(q, k=4, now=now)
                engine.hebbian_update([r.episode_id for r in rec], now=now)
    return ids


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


@pytest.fixture(scope="module")
def llm():
    from hela_desktop.llm import LocalLLM

    m = LocalLLM(n_ctx=2048)
    yield m
    m.close()


@pytest.fixture()
def engine(tmp_path, embedder) -> MemoryEngine:
    e = MemoryEngine(Store(tmp_path), embedder)
    yield e
    e.store.close()


def theme_of(ids: dict[str, list[int]], eid: int) -> str:
    return next(t for t, lst in ids.items() if eid in lst)


# ------------------------------------------------------------------ without the model ---
def test_plan_finds_theme_hubs(engine):
    ids = build_conversation(engine)
    clusters, hubs, digest = plan_clusters(engine.store, engine.hela, ConsolidationParams(**PARAMS))
    assert hubs >= 3 and len(clusters) >= 2 and digest
    for c in clusters:
        assert 2 <= len(c.members) <= 6 and c.members[0] == c.hub
        assert c.degree > 1.3
        assert len({theme_of(ids, m) for m in c.members}) == 1  # a cluster is one theme
    assert not any(m in ids["small"] for c in clusters for m in c.members)
    # the default δ_hub is stricter
    fewer, _, _ = plan_clusters(engine.store, engine.hela, ConsolidationParams())
    assert len(fewer) <= len(clusters)


def test_parse_items_tolerates_truncation():
    full = '{"items": [{"kind": "fact", "text": "Max is a golden retriever.", "replaces": false}]}'
    assert parse_items(full)[0]["text"] == "Max is a golden retriever."
    cut = ('{"items": [{"kind": "user_model", "text": "The user hikes.", "replaces": false}, '
           '{"kind": "fact", "text": "Max is a')
    assert [i["kind"] for i in parse_items(cut)] == ["user_model"]
    with pytest.raises(ValueError):
        parse_items('{"items": [{"kind": "fact", "te')


def test_clean_items_rejects_trivial_and_ungrounded():
    ctx = "User: I work as a nurse at the city hospital.\nUser: My night shifts are exhausting."
    items = [
        {"kind": "user_model", "text": "The user works as a nurse at the city hospital", "replaces": False},
        {"kind": "user_model", "text": "The user works as a nurse at the city hospital.", "replaces": False},
        {"kind": "fact", "text": "User: ok", "replaces": False},
        {"kind": "user_model", "text": "The user drinks coffee every morning.", "replaces": False},
    ]
    kept, rejected = clean_items(items, 3, context=ctx)
    assert [k["text"] for k in kept] == ["The user works as a nurse at the city hospital."]
    assert sorted(r["reason"] for r in rejected) == [
        "not grounded in the memories", "repeated", "too short"]
    assert grounded("works night shifts", ctx) and not grounded("drinks coffee", ctx)
    # a copy of the user's own words is refused for speaking as them, and says so (QA pass
    # 35: "My husband Dariusz is a primary school teacher." was "not grounded")
    copy = {"kind": "fact", "text": "My night shifts are exhausting.", "replaces": False}
    assert clean_items([copy], 3, context=ctx)[1][0]["reason"] == (
        "speaks as “I” or to “you”, not of “The user”")
    assert negated("The user no longer eats meat.") and not negated("The user eats meat.")


def test_clean_items_weighs_the_whole_statement_as_the_knowledge_tab_does():
    """QA pass 22: Reflect now added "The user is a dog." from "my dog is called Pixel", and
    the Knowledge tab then said "not supported (0 %)": the check before adding saw only "is
    a dog" (the kind's "The user" cut off), so the identity rule (the user never said they
    are a dog) did not fire, and 1 of 1 content words ("dog") stood in their words."""
    from hela_desktop.knowledge import support

    ctx = "I am allergic to peanuts, and my dog is called Pixel."
    item = {"kind": "user_model", "text": "The user is a dog.", "replaces": False}
    kept, rejected = clean_items([item], 3, context=ctx)
    assert kept == [] and rejected[0]["reason"] == "not grounded in the memories"
    assert support("The user is a dog.", [ctx]) == 0.0  # what the Knowledge tab shows
    ok = {"kind": "user_model", "text": "The user is allergic to peanuts.", "replaces": False}
    assert [k["text"] for k in clean_items([ok], 3, context=ctx)[0]] == [
        "The user is allergic to peanuts."]


def _item(store, embedder, kind, text, sources, params, replaces=False, now=None):
    vec = embedder.embed_one(text)
    with store.transaction():
        return merge_item(store, {"kind": kind, "text": text, "replaces": replaces}, vec, sources,
                          params=params, embedder_name=embedder.name, now=now)


def test_merge_repeat_update_and_stale(engine, embedder):
    build_conversation(engine, hebbian_rounds=0)
    store, p = engine.store, ConsolidationParams()
    a = _item(store, embedder, "user_model", "The user eats meat every day.", [1, 2], p)
    assert a["action"] == "added"
    b = _item(store, embedder, "user_model", "The user eats meat every day.", [3], p)
    assert b["action"] == "strengthened" and b["knowledge_id"] == a["knowledge_id"]
    row = store.conn.execute("SELECT strength FROM knowledge WHERE id = ?",
                             (a["knowledge_id"],)).fetchone()
    assert row[0] == 2
    # negation flips: newer evidence supersedes, the old item is kept
    c = _item(store, embedder, "user_model", "The user does not eat meat any more.", [9], p)
    assert c["action"] == "superseded" and c["other_id"] == a["knowledge_id"]
    old = store.conn.execute("SELECT superseded_by FROM knowledge WHERE id = ?",
                             (a["knowledge_id"],)).fetchone()
    assert old[0] == c["knowledge_id"]
    # older evidence cannot supersede newer knowledge
    d = _item(store, embedder, "user_model", "The user eats meat every day.", [1], p)
    assert d["action"] == "stale"
    # provenance: the strengthened item gained the new source
    items = {k.id: k for k in list_knowledge(store, include_superseded=True)}
    assert items[a["knowledge_id"]].sources == [1, 2, 3]
    assert items[c["knowledge_id"]].sources == [9]
    # a different statement of another kind is simply added
    e = _item(store, embedder, "fact", "Max is a golden retriever.", [2, 3], p)
    assert e["action"] == "added"


def test_retrieve_knowledge_is_its_own_node_type(engine, embedder):
    build_conversation(engine, hebbian_rounds=0)
    p = ConsolidationParams()
    a = _item(engine.store, embedder, "fact", "Max is a golden retriever who loves trails.", [2, 3], p)
    _item(engine.store, embedder, "user_model", "The user works as a nurse at the hospital.", [9], p)
    q = engine.embed_query("What breed is my dog Max?")
    rec = retrieve_knowledge(engine, q, k=1)
    assert len(rec) == 1 and rec[0].kind == "knowledge"
    assert rec[0].episode_id == a["knowledge_id"] and rec[0].extra["sources"] == [2, 3]
    assert rec[0].extra["knowledge_kind"] == "fact" and 0 < rec[0].score <= 1
    # a superseding item replaces the old one in retrieval at once (fingerprint refresh)
    _item(engine.store, embedder, "fact", "Max is not a golden retriever who loves trails.", [4], p)
    rec = retrieve_knowledge(engine.store, q, k=5)
    assert a["knowledge_id"] not in [r.episode_id for r in rec]
    assert retrieve_knowledge(engine, q, k=3, kinds=["persona"]) == []


def test_assistant_puts_knowledge_in_the_memory_block(tmp_path, embedder, llm):
    from hela_desktop.assistant import MEMORY_HEADER
    from hela_desktop.loader import open_assistant

    a = open_assistant(tmp_path, llm=llm, embedder=embedder)
    build_conversation(a.engine, hebbian_rounds=0)
    p = ConsolidationParams()
    _item(a.store, embedder, "fact", "Max is a golden retriever who loves trails.", [2, 3], p)
    _item(a.store, embedder, "user_model", "The user loves hiking in the mountains.", [1], p)
    know = a._recall_knowledge(a.engine.embed_query("Tell me about my dog Max and hiking"))
    texts = [k.text for k in know]
    assert "Max is a golden retriever who loves trails." in texts
    assert "The user loves hiking in the mountains." not in texts  # already in the system prompt
    assert "The user loves hiking in the mountains." in a.user_model_text()
    a.turn_knowledge = know
    content = a._user_content([], "hello")
    assert content.startswith(MEMORY_HEADER) and "- Max is a golden retriever" in content
    a.turn_knowledge = []
    assert a._user_content([], "hello") == "hello"
    a.close(close_model=False)  # the module's model


# ------------------------------------------------------------------ with the model ------
@pytest.mark.slow
def test_consolidation_with_the_real_model(engine, llm):
    ids = build_conversation(engine)
    store = engine.store
    p = ConsolidationParams(**PARAMS)
    clusters, _, _ = plan_clusters(store, engine.hela, p)

    # dry run: the model runs, nothing is written
    dry = consolidate(engine, llm, params=ConsolidationParams(**PARAMS, max_clusters=1),
                      dry_run=True)
    assert dry.dry_run and dry.distilled + dry.failed == 1
    assert store.conn.execute("SELECT COUNT(*) FROM knowledge").fetchone()[0] == 0
    assert store.conn.execute("SELECT COUNT(*) FROM meta WHERE key LIKE 'consolidate.done.%'"
                              ).fetchone()[0] == 0

    rep = consolidate(engine, llm, params=p)
    assert rep.clusters == len(clusters) and rep.remaining == 0 and not rep.yielded
    assert rep.added >= 1, rep.details
    items = list_knowledge(store)
    assert len(items) == rep.added
    by_sig = {tuple(sorted(d["members"])): d for d in rep.details}
    for k in items:  # provenance: exactly the cluster it came from, one theme
        assert tuple(k.sources) in by_sig
        assert len({theme_of(ids, e) for e in k.sources}) == 1
        assert k.kind in ("user_model", "fact", "persona") and len(k.text.split()) >= 4
    acts = [a for a in store.activity() if a["job"] == "consolidate"]
    assert acts and acts[0]["summary"]["added"] == rep.added

    # re-running does not duplicate: every cluster is known as done
    again = consolidate(engine, llm, params=p)
    assert again.already_done == rep.clusters and again.distilled == 0
    assert len(list_knowledge(store)) == len(items)

    # a dry run of a redo previews every cluster and changes nothing (QA pass 22: it
    # reported them all "already done")
    one = ConsolidationParams(**PARAMS, max_clusters=1)
    assert plan_pass(store, engine.hela, p, redo=True, dry_run=True)[2] == rep.clusters
    preview = consolidate(engine, llm, params=one, dry_run=True, redo=True)
    assert preview.already_done == 0 and preview.distilled + preview.failed == 1
    assert consolidate(engine, llm, params=p, dry_run=True).already_done == rep.clusters

    # even redoing a cluster strengthens instead of duplicating (greedy decoding repeats)
    reset_markers(store)
    redo = consolidate(engine, llm, params=ConsolidationParams(**PARAMS, max_clusters=1))
    first = rep.details[0]
    assert redo.details[0]["signature"] == first["signature"]
    assert redo.added == 0
    assert redo.strengthened == sum(1 for i in first["items"] if i["action"] == "added")
    assert len(list_knowledge(store)) == len(items)


@pytest.mark.slow
def test_invalid_output_skips_cluster(engine, llm, caplog):
    build_conversation(engine)
    p = ConsolidationParams(**PARAMS, max_clusters=1, max_tokens=4)  # always cut off
    with caplog.at_level("WARNING"):
        rep = consolidate(engine, llm, params=p)
    assert rep.failed == 1 and rep.distilled == 0 and rep.added == 0
    assert "invalid model output" in caplog.text
    assert engine.store.conn.execute("SELECT COUNT(*) FROM knowledge").fetchone()[0] == 0
    assert engine.store.integrity_ok()


KILL_SCRIPT = textwrap.dedent("""
    import sys
    from hela_desktop.consolidate import ConsolidationParams, consolidate
    from hela_desktop.embedder import Embedder
    from hela_desktop.llm import LocalLLM
    from hela_desktop.memory import MemoryEngine
    from hela_desktop.store import Store

    engine = MemoryEngine(Store(sys.argv[1]), Embedder())
    llm = LocalLLM(n_ctx=2048)
    print("READY", flush=True)
    consolidate(engine, llm, params=ConsolidationParams(hub_degree=1.3, hub_quantile=0.0),
                on_cluster=lambda d: print("COMMITTED", d["signature"], flush=True))
    print("FINISHED", flush=True)
""")


@pytest.mark.slow
def test_kill_mid_job_loses_nothing_and_resumes(tmp_path, embedder, llm):
    store = Store(tmp_path)
    engine = MemoryEngine(store, embedder)
    build_conversation(engine)
    clusters, _, _ = plan_clusters(store, engine.hela, ConsolidationParams(**PARAMS))
    assert len(clusters) >= 2
    script = tmp_path / "job.py"
    script.write_text(KILL_SCRIPT)
    env = dict(os.environ, HF_HUB_OFFLINE="1", PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, str(script), str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env, cwd=str(REPO))
    committed = []
    try:
        deadline = time.time() + 300
        for line in proc.stdout:
            if line.startswith("COMMITTED"):
                committed.append(line.split()[1])
                break  # now the second cluster is in the model: kill -9 mid-job
            assert time.time() < deadline
        time.sleep(0.5)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL and committed

    store.close()
    store = Store(tmp_path)  # as after a crash: a fresh connection
    engine = MemoryEngine(store, embedder)
    assert store.integrity_ok()
    done = [r[0][len(DONE_PREFIX):] for r in store.conn.execute(
        "SELECT key FROM meta WHERE key LIKE 'consolidate.done.%'")]
    assert committed[0] in done and len(done) < len(clusters)
    n_items = store.conn.execute("SELECT COUNT(*) FROM knowledge").fetchone()[0]
    orphans = store.conn.execute(
        "SELECT COUNT(*) FROM knowledge k WHERE NOT EXISTS "
        "(SELECT 1 FROM knowledge_sources s WHERE s.knowledge_id = k.id)").fetchone()[0]
    assert orphans == 0
    marked_items = sum(len(json.loads(v)["items"]) for (v,) in store.conn.execute(
        "SELECT value FROM meta WHERE key LIKE 'consolidate.done.%'"))
    assert n_items <= marked_items  # every stored item belongs to a committed cluster

    rerun = consolidate(engine, llm, params=ConsolidationParams(**PARAMS))
    assert rerun.already_done == len(done) and rerun.remaining == 0 and not rerun.yielded
    assert rerun.already_done + rerun.distilled + rerun.failed == len(clusters)
    final = consolidate(engine, llm, params=ConsolidationParams(**PARAMS))
    assert final.already_done == len(clusters) and final.distilled == 0
    assert store.integrity_ok()
    # no duplicates among live items
    items = list_knowledge(store)
    vecs = np.vstack([embedder.embed_one(k.text) for k in items]) if items else np.zeros((0, 1))
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            if items[i].kind == items[j].kind:
                assert float(vecs[i] @ vecs[j]) < 0.9
    store.close()


@pytest.mark.slow
def test_consolidated_variant_covers_source_episodes(engine, llm):
    ids = build_conversation(engine)
    retr = consolidated_variant(engine, llm, params=ConsolidationParams(**PARAMS), k=4)
    assert retr.report is not None and retr.report.remaining == 0
    items = list_knowledge(engine.store)
    if not items:
        pytest.skip("the model produced no valid item for this conversation")
    k = items[0]
    recalls = retr.retrieve(k.text)
    assert any(r.kind == "knowledge" and r.episode_id == k.id for r in recalls)
    covered = retr(k.text)
    assert set(k.sources) <= set(covered)
    assert all(any(e in v for v in ids.values()) for e in covered)


def test_cli_consolidate_with_nothing_to_do(tmp_path, embedder, capsys):
    from hela_desktop.cli import main as cli_main

    engine = MemoryEngine(Store(tmp_path), embedder)
    build_conversation(engine, hebbian_rounds=0)
    engine.store.close()
    assert cli_main(["consolidate", "--hub-degree", "50", "--data-dir", str(tmp_path)]) == 0
    assert "nothing new to consolidate" in capsys.readouterr().out


@pytest.mark.slow
def test_cli_consolidate_dry_run_then_real(tmp_path, embedder, capsys):
    from hela_desktop.cli import main as cli_main

    engine = MemoryEngine(Store(tmp_path), embedder)
    build_conversation(engine)
    engine.store.close()
    args = ["consolidate", "--hub-degree", "1.3", "--max-clusters", "1",
            "--data-dir", str(tmp_path)]
    assert cli_main(args + ["--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "cluster #" in out and "dry run, nothing written" in out
    with Store(tmp_path) as s:
        assert s.conn.execute("SELECT COUNT(*) FROM knowledge").fetchone()[0] == 0
    assert cli_main(args) == 0
    out = capsys.readouterr().out
    assert "1 distilled" in out or "1 invalid" in out
    assert "2 clusters left" in out
    with Store(tmp_path) as s:
        n = s.conn.execute("SELECT COUNT(*) FROM knowledge").fetchone()[0]
        assert n == out.count("  added:")


def test_cli_consolidate_uses_the_server_the_settings_name(tmp_path, embedder, capsys):
    """doc15 (pass 15): with answers from a model server in the settings, `consolidate`
    loaded the local model all the same (the app's idle passes use the server).  It asks
    the server now; here nothing listens there, so it says so and writes nothing."""
    import socket

    from hela_desktop.cli import main as cli_main
    from hela_desktop.config import Settings

    engine = MemoryEngine(Store(tmp_path), embedder)
    build_conversation(engine)
    engine.store.close()
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    Settings().with_overrides(backend="server", server_url=f"http://127.0.0.1:{port}").save(tmp_path)
    assert cli_main(["consolidate", "--hub-degree", "1.3", "--max-clusters", "1",
                     "--data-dir", str(tmp_path)]) == 2
    assert f"cannot reach the model server at http://127.0.0.1:{port}" in capsys.readouterr().err
    with Store(tmp_path) as s:
        assert s.conn.execute("SELECT COUNT(*) FROM knowledge").fetchone()[0] == 0
