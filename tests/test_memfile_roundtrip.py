"""Memory files: round trips (also as a property), merge rules and Hebbian steps,
selections, re-embedding and plain JSON / text imports.

Real parts only: SQLite stores in temporary folders and, where memories must be embedded,
the bundled embedder (the session-wide ``embedder`` fixture of conftest.py).
"""

from __future__ import annotations

import json
import re
import tempfile
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hela_desktop.formulas import decayed_weight
from hela_desktop.memfile import Selection, export_store, import_file
from hela_desktop.store import Store, key_text
from hela_desktop.words import printable

# the shared helpers and fixtures, with pytest's assertion messages in them too
pytest.register_assert_rewrite("memfile_support")
from memfile_support import (  # noqa: E402
    EMB,
    LAM,
    _must_not_embed,
    consistent,
    content,
    jsonl,
    members,
    records,
    snapshot,
    unit,
    write_zip,
)

pytest_plugins = ["memfile_support"]


# ------------------------------------------------------------------- round trips ------
def test_full_round_trip_loses_nothing(sample, tmp_path):
    store, _ = sample
    a, b = tmp_path / "a.hela", tmp_path / "b.hela"
    rep = export_store(store, a, include_deleted=True)  # a backup that keeps the deleted one
    assert rep.counts == {"episodes": 6, "conversations": 2, "messages": 3, "timelines": 2,
                          "edges": 4, "knowledge": 2}
    with Store(tmp_path / "dst") as dst:
        imp = import_file(dst, a)
        assert imp.added == {k: v for k, v in rep.counts.items()}
        assert imp.embedded == 0
        consistent(dst)
        assert dst.hebbian_step() == 120
        export_store(dst, b, include_deleted=True)
        # the stores agree row by row, apart from numeric ids
        assert snapshot(dst)["edges"] == snapshot(store)["edges"]
    assert content(a) == content(b)


def test_reimport_adds_nothing(sample, sample_file):
    store, _ = sample
    before = snapshot(store)
    rep = import_file(store, sample_file)
    assert sum(rep.added.values()) == 0 and sum(rep.merged.values()) == 0
    assert rep.skipped["episodes"] == 6 and rep.skipped["edges"] == 4
    assert snapshot(store) == before


def test_an_old_export_imported_again_after_more_talk_changes_nothing(sample, sample_file):
    """QA pass 35: the file's edge steps are moved to the store's clock, so each import of
    an old export "brought 10 links up to date", one Hebbian step younger, and made a
    backup.  An edge the store holds in the same or a later state is kept as it is."""
    store, _ = sample
    with store.transaction():
        store.set_meta("hebbian_step", str(store.hebbian_step() + 7))  # (turns since)
    before = snapshot(store)
    rep = import_file(store, sample_file)
    assert sum(rep.added.values()) == 0 and sum(rep.merged.values()) == 0
    assert rep.skipped["edges"] == 4
    assert snapshot(store) == before


def test_dry_run_counts_without_writing(sample_file, tmp_path):
    with Store(tmp_path / "dst") as dst:
        before = snapshot(dst)
        dry = import_file(dst, sample_file, dry_run=True)
        assert snapshot(dst) == before
        real = import_file(dst, sample_file)
        assert dry.dry_run and dry.added == real.added and dry.merged == real.merged


def test_progress_reports_reach_total(sample_file, tmp_path):
    calls = []
    with Store(tmp_path / "dst") as dst:
        import_file(dst, sample_file, progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1][0] == calls[-1][1] > 0
    assert all(d <= t or t == 0 for d, t in calls)


# --------------------------------------------------------------- property: round trip --
# (control characters do not survive an import: `words.printable`, tested on its own)
_text = st.text(max_size=40).map(printable)
_ts = st.floats(min_value=-6e10, max_value=2.5e11, allow_nan=False, allow_infinity=False)
_json_obj = st.none() | st.dictionaries(st.text(max_size=5),
                                        st.integers(-5, 5) | st.text(max_size=5), max_size=3)


@st.composite
def stores(draw):
    n_conv = draw(st.integers(0, 2))
    n_eps = draw(st.integers(0, 6))
    convs = [dict(title=draw(_text), created=draw(_ts), updated=draw(_ts)) for _ in range(n_conv)]
    eps = []
    for _ in range(n_eps):
        eps.append(dict(
            user=draw(_text), assistant=draw(_text), created=draw(_ts),
            conv=draw(st.none() | st.integers(0, n_conv - 1)) if n_conv else None,
            emb=draw(st.none() | st.just("v")), embedder=draw(st.sampled_from([EMB, None])),
            access=draw(st.integers(0, 1000)), last=draw(st.none() | _ts),
            importance=draw(st.floats(0, 1)), pinned=draw(st.booleans()),
            archived=draw(st.none() | _ts), reason=draw(st.none() | _text),
            deleted=draw(st.none() | _ts), centroid=draw(st.booleans()),
            qcount=draw(st.integers(0, 50)), recall=draw(_json_obj),
            source=draw(st.sampled_from(["chat", "import", "note"])), meta=draw(_json_obj)))
    pairs = [(i, j) for i in range(n_eps) for j in range(i + 1, n_eps)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=8)) if pairs else []
    edge_vals = [dict(w=draw(st.floats(0, 1)), p=draw(st.floats(0, 1)),
                      c=draw(st.integers(0, 99)), s=draw(st.integers(0, 500)), u=draw(_ts))
                 for _ in edges]
    msgs = []
    for ci in range(n_conv):
        for _ in range(draw(st.integers(0, 3))):
            msgs.append(dict(conv=ci, role=draw(st.sampled_from(["user", "assistant"])),
                             content=draw(_text), at=draw(_ts), interrupted=draw(st.booleans()),
                             ep=draw(st.none() | st.integers(0, n_eps - 1)) if n_eps else None,
                             stats=draw(_json_obj)))
    spans = []
    for mi in range(len(msgs)):
        for start in draw(st.lists(st.integers(0, 30), unique=True, max_size=2)):
            spans.append((mi, start, start + draw(st.integers(0, 9)),
                          draw(st.lists(st.integers(0, n_eps - 1), max_size=3)) if n_eps else []))
    know = []
    for _ in range(draw(st.integers(0, 3))):
        know.append(dict(kind=draw(st.sampled_from(["fact", "user_model", "persona"])),
                         text=draw(_text), emb=draw(st.booleans()), created=draw(_ts),
                         updated=draw(_ts), strength=draw(st.floats(0, 5)),
                         archived=draw(st.none() | _ts), access=draw(st.integers(0, 9)),
                         last=draw(st.none() | _ts),
                         sources=draw(st.lists(st.integers(0, n_eps - 1), unique=True,
                                               max_size=3)) if n_eps else []))
    sup = [draw(st.none() | st.integers(0, len(know) - 1)) for _ in know]
    step = draw(st.integers(0, 10_000))
    seed = draw(st.integers(0, 2**16))
    return dict(convs=convs, eps=eps, edges=list(zip(edges, edge_vals, strict=True)), msgs=msgs,
                spans=spans, know=know, sup=sup, step=step, seed=seed)


def build(store: Store, spec: dict) -> None:
    rng = np.random.default_rng(spec["seed"])
    c = store.conn
    with store.transaction():
        cids = [c.execute("INSERT INTO conversations(uid, title, created_at, updated_at) "
                          "VALUES (?,?,?,?)", (f"c{i}", v["title"], v["created"], v["updated"]))
                .lastrowid for i, v in enumerate(spec["convs"])]
        eids = []
        for i, e in enumerate(spec["eps"]):
            eids.append(c.execute(
                "INSERT INTO episodes(uid, conversation_id, user_text, assistant_text, "
                "created_at, embedding, embedder, access_count, last_access, importance, pinned, "
                "archived_at, archive_reason, deleted_at, query_centroid, query_count, "
                "last_recall, source, meta) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (f"e{i}", None if e["conv"] is None else cids[e["conv"]], e["user"],
                 e["assistant"], e["created"], unit(rng).tobytes() if e["emb"] else None,
                 e["embedder"], e["access"], e["last"], e["importance"], int(e["pinned"]),
                 e["archived"], e["reason"], e["deleted"],
                 unit(rng).tobytes() if e["centroid"] else None, e["qcount"],
                 json.dumps(e["recall"]) if e["recall"] is not None else None, e["source"],
                 json.dumps(e["meta"]) if e["meta"] is not None else None)).lastrowid)
        for (i, j), v in spec["edges"]:
            c.execute("INSERT INTO edges VALUES (?,?,?,?,?,?,?)",
                      (eids[i], eids[j], v["w"], v["p"], v["c"], v["s"], v["u"]))
        mids = []
        for i, m in enumerate(spec["msgs"]):
            mids.append(c.execute(
                "INSERT INTO messages(uid, conversation_id, role, content, created_at, "
                "interrupted, episode_id, stats) VALUES (?,?,?,?,?,?,?,?)",
                (f"m{i}", cids[m["conv"]], m["role"], m["content"], m["at"], int(m["interrupted"]),
                 None if m["ep"] is None else eids[m["ep"]],
                 json.dumps(m["stats"]) if m["stats"] is not None else None)).lastrowid)
        for mi, start, end, eps in spec["spans"]:
            c.execute('INSERT INTO timelines(message_id, start, "end", episode_ids) VALUES '
                      "(?,?,?,?)", (mids[mi], start, end, json.dumps([eids[x] for x in eps])))
        kids = []
        for i, k in enumerate(spec["know"]):
            kids.append(c.execute(
                "INSERT INTO knowledge(uid, kind, text, embedding, embedder, created_at, "
                "updated_at, strength, archived_at, access_count, last_access) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (f"k{i}", k["kind"], k["text"], unit(rng).tobytes() if k["emb"] else None,
                 EMB if k["emb"] else None, k["created"], k["updated"], k["strength"],
                 k["archived"], k["access"], k["last"])).lastrowid)
            c.executemany("INSERT INTO knowledge_sources VALUES (?, ?)",
                          [(kids[-1], eids[s]) for s in k["sources"]])
        for i, s in enumerate(spec["sup"]):
            if s is not None:
                c.execute("UPDATE knowledge SET superseded_by = ? WHERE id = ?", (kids[s], kids[i]))
        store.set_meta("hebbian_step", str(spec["step"]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=stores())
@pytest.mark.slow
def test_round_trip_property(spec):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        with Store(tmp / "a") as src, Store(tmp / "b") as dst:
            build(src, spec)
            export_store(src, tmp / "1.hela", include_deleted=True)
            rep = import_file(dst, tmp / "1.hela", embedder=_must_not_embed)
            consistent(dst)
            export_store(dst, tmp / "2.hela", include_deleted=True)
            assert content(tmp / "1.hela") == content(tmp / "2.hela")
            again = import_file(dst, tmp / "1.hela", embedder=_must_not_embed)
            assert sum(again.added.values()) == 0 and sum(again.merged.values()) == 0
            assert rep.added["episodes"] == len(spec["eps"])



# ----------------------------------------------------------- Hebbian steps and merges --
def test_edge_steps_rebased_to_keep_decayed_weight(sample_file, tmp_path):
    with Store(tmp_path / "dst") as dst:
        with dst.transaction():
            x = dst.add_episode("unrelated a", "", None)
            y = dst.add_episode("unrelated b", "", None)
            dst.upsert_edges([(x, y, 0.4, 0.0, 1, 5, 1.0)])
            dst.set_meta("hebbian_step", "10")
        import_file(dst, sample_file)
        assert dst.hebbian_step() == 10  # a store with edges keeps its own clock
        rows = dst.conn.execute(
            "SELECT a.uid, b.uid, g.weight, g.step FROM edges g JOIN episodes a ON a.id = g.src "
            "JOIN episodes b ON b.id = g.dst").fetchall()
    with zipfile.ZipFile(sample_file) as zf:
        src = {(r["a"], r["b"]): r for r in records(zf.read("edges.jsonl"))}
    for a, b, w, step in rows:
        r = src.get((a, b)) or src.get((b, a))
        if r is None:
            continue
        before = decayed_weight(r["weight"], LAM, 120 - r["step"])
        after = decayed_weight(w, LAM, 10 - step)
        assert after == pytest.approx(before, rel=1e-12)
        assert 120 - r["step"] == 10 - step


def test_merge_rules_for_existing_memories_and_edges(sample, sample_file, tmp_path):
    store, info = sample
    ids = info["ids"]
    # the local copy changes after the export: more use here, less there
    with store.transaction():
        store.conn.execute("UPDATE episodes SET access_count = 0, last_access = NULL, pinned = 0, "
                           "importance = 0 WHERE id = ?", (ids[4],))
        store.conn.execute("UPDATE episodes SET access_count = 99, last_access = 1800000000 "
                           "WHERE id = ?", (ids[1],))
        store.conn.execute("UPDATE edges SET weight = 0.01, count = 1, prior = 0.9 "
                           "WHERE src = ? AND dst = ?", (ids[0], ids[1]))
        store.conn.execute("UPDATE edges SET weight = 0.9, count = 9, step = 120 "
                           "WHERE src = ? AND dst = ?", (ids[0], ids[2]))
        store.conn.execute("UPDATE conversations SET title = 'renamed', updated_at = 1 "
                           "WHERE id = ?", (info["c2"],))
        store.conn.execute("DELETE FROM knowledge_sources WHERE episode_id = ?", (ids[2],))
    rep = import_file(store, sample_file)
    e4, e1 = store.episode(ids[4]), store.episode(ids[1])
    assert e4.pinned and e4.importance == pytest.approx(0.4)  # OR pinned, max importance
    assert e1.access_count == 99 and e1.last_access == 1800000000  # local maxima kept
    w01 = store.edges_between([ids[0], ids[1]])[(ids[0], ids[1])]
    assert w01[2:5] == (0.30, 0.9, 4)  # file weight (larger now), local prior, max count
    w02 = store.edges_between([ids[0], ids[2]])[(ids[0], ids[2])]
    assert w02[2:6] == (0.9, 0.0, 9, 120)  # local edge is stronger: kept with its step
    assert store.conversations()[0]["title"] == "Cooking"  # later updated_at wins
    assert rep.merged["episodes"] == 1 and rep.skipped["episodes"] == 5
    assert rep.merged["edges"] == 1 and rep.skipped["edges"] == 3  # (0,2): local wins
    assert rep.merged["knowledge"] == 1  # its lost source came back
    assert rep.added == {k: 0 for k in rep.added}
    consistent(store)


# ------------------------------------------------------------------- selections -------
def test_export_conversation_selection(sample, tmp_path):
    store, info = sample
    path = tmp_path / "c1.hela"
    rep = export_store(store, path, selection=Selection(conversation=info["c1"]))
    assert rep.counts["episodes"] == 3 and rep.counts["conversations"] == 1
    m = members(path)
    uids = {r["uid"] for r in records(m["episodes.jsonl"])}
    for e in records(m["edges.jsonl"]):
        assert e["a"] in uids and e["b"] in uids
    assert rep.counts["edges"] == 3
    know = records(m["knowledge.jsonl"])
    assert [k["uid"] for k in know] == ["know-ana"]
    assert know[0]["superseded_by"] is None  # its successor was not exported
    with Store(tmp_path / "dst") as dst:
        import_file(dst, path)
        consistent(dst)
        assert dst.count_episodes() == 3


def test_export_date_range_and_search(sample, tmp_path):
    store, _ = sample
    rep = export_store(store, tmp_path / "d.hela", selection=Selection(
        since=1_700_000_000.0 + 86400, until=1_700_000_000.0 + 3 * 86400))
    assert rep.counts["episodes"] == 2
    rep = export_store(store, tmp_path / "s.hela", selection=Selection(search="Lisbon"))
    texts = [r["user_text"] for r in records(members(tmp_path / "s.hela")["episodes.jsonl"])]
    # search looks at the user's words (the memory's key); "A classic Lisbon pastry!" was
    # only the assistant's answer
    assert rep.counts["episodes"] == 1 and texts == ["My sister Ana lives in Lisbon."]
    rep = export_store(store, tmp_path / "n.hela", selection=Selection(search="xylophone"))
    assert rep.counts["episodes"] == 0 and rep.counts["edges"] == 0


def test_export_chosen_ids_without_conversations(sample, tmp_path):
    store, info = sample
    ids = info["ids"]
    path = tmp_path / "ids.hela"
    rep = export_store(store, path, selection=Selection(episode_ids=[ids[0], ids[1], ids[4]]),
                       include_conversations=False)
    assert rep.counts == {"episodes": 3, "edges": 1, "knowledge": 2}
    m = members(path)
    assert "messages.jsonl" not in m
    assert {r["conversation"] for r in records(m["episodes.jsonl"])} == {None}
    with Store(tmp_path / "dst") as dst:
        imp = import_file(dst, path)
        assert imp.added == {"episodes": 3, "edges": 1, "knowledge": 2}
        consistent(dst)


def test_markdown_export(sample, tmp_path):
    store, _ = sample
    rep = export_store(store, tmp_path / "m.md", fmt="markdown")
    text = (tmp_path / "m.md").read_text(encoding="utf-8")
    assert text.startswith("# HeLa Desktop memories")
    assert "> My sister Ana lives in Lisbon." in text
    assert "## Knowledge" in text and "## Conversations" in text and "pinned" in text
    assert rep.counts["episodes"] == 5 and rep.deleted_left_out == 1
    # every memory is headed by its number; importance only where an import set one
    assert len(re.findall(r"^### #\d+ · \d{4}-", text, re.M)) == 5
    assert "importance 0.00" not in text
    # the memory the user deleted is not in the readable copy (it was, marked "deleted")
    assert "Zürich" not in text and "deleted" not in text and "Selection" not in text
    rep = export_store(store, tmp_path / "all.md", fmt="markdown", include_deleted=True)
    text = (tmp_path / "all.md").read_text(encoding="utf-8")
    assert rep.counts["episodes"] == 6 and "Zürich" in text and " · deleted" in text


def test_reports_in_words_for_the_app(tmp_path):
    """What the window says after an export or an import: the kinds people know, zero
    counts left out, no "embedded" or record-kind jargon."""
    from hela_desktop.memfile.report import ExportReport, ImportReport

    exp = ExportReport(tmp_path / "m.hela", "native", {"episodes": 18, "edges": 60,
                       "knowledge": 0, "conversations": 2, "messages": 36, "timelines": 19},
                       41675, 0.1)
    # the file on a line of its own: a message box broke the path after its first "/"
    assert exp.sentence() == (f"Exported 18 memories, 60 links, 2 chats and 36 messages (42 KB)"
                              f"\u00a0to\n{tmp_path / 'm.hela'}")
    one = ExportReport(tmp_path / "m.md", "markdown", {"episodes": 1, "edges": 0}, 900, 0.1)
    assert one.sentence() == ("Exported 1 memory as a readable Markdown document (900 bytes)"
                              f"\u00a0to\n{tmp_path / 'm.md'}")
    # answers Regenerate replaced are deleted memories too, and named as such (QA pass 20:
    # "4 deleted memories left out", none deleted by hand)
    left = ExportReport(tmp_path / "m.hela", "native", {"episodes": 2}, 900, 0.1,
                        deleted_left_out=4, replaced_left_out=4)
    assert left.sentence() == (f"Exported 2 memories (900 bytes)\u00a0to\n{tmp_path / 'm.hela'}\n\n"
                               "4 deleted memories (all answers replaced by new ones) left out.")
    left.replaced_left_out = 1
    assert "4 deleted memories (1 of them an answer replaced by a new one) left out" in left.sentence()
    left.replaced_left_out = 3
    assert "4 deleted memories (3 of them answers replaced by new ones) left out" in left.sentence()
    left.deleted_left_out = left.replaced_left_out = 1
    assert "1 deleted memory (an answer replaced by a new one) left out" in left.sentence()
    left.replaced_left_out = 0
    assert left.sentence().endswith("\n\n1 deleted memory left out.")
    imp = ImportReport(tmp_path / "c.json", "chatgpt", added={"episodes": 12, "edges": 11,
                       "conversations": 1, "messages": 24, "timelines": 0},
                       skipped={"episodes": 3}, embedded=12,
                       details={"source": "chatgpt", "conversations": 1, "exchanges": 15,
                                "skipped": 2, "skipped_reasons": {"tool call": 2}})
    assert imp.sentence() == (f"Imported 12 memories, 11 links, 1 chat and 24 messages\u00a0from\n"
                              f"{tmp_path / 'c.json'}\n\n3 memories were here already. "
                              "ChatGPT export: 1 conversation, 15 exchanges; 2 left out "
                              "(2 tool calls).")
    again = ImportReport(tmp_path / "c.json", "chatgpt", added={"episodes": 0},
                         skipped={"episodes": 12})
    assert again.sentence() == (f"Nothing new in\n{tmp_path / 'c.json'}\n\nEverything in it is "
                                "here already.")


def test_markdown_labels_are_the_users_words_cut_at_a_word():
    from hela_desktop.prompt import shorten as _one_line  # the export labels with it

    assert _one_line("My sister\nAna lives  in Lisbon.", 80) == "My sister Ana lives in Lisbon."
    long = "I'm allergic to penicillin and my doctor said amoxicillin is out of the question too"
    assert len(long) == 84
    assert _one_line(long, 80) == "I'm allergic to penicillin and my doctor said amoxicillin is out of the…"
    assert _one_line("x" * 100, 10) == "x" * 9 + "…"


def test_markdown_export_reads_links_as_the_app_does(tmp_path):
    """The strongest associations are ranked and shown by their weight now: a learned weight
    decays with the Hebbian steps since it was written (λ = 0.005: 0.995^100 = 0.6058)."""
    from hela_desktop.config import HelaParams

    with Store(tmp_path / "s") as store:
        a, b, c = (store.add_episode(f"memory {t}", "", np.ones(4, np.float32)) for t in "abc")
        with store.transaction():
            # a–b: 0.6 learned at step 0 (0.6 × 0.6058 = 0.363 now); b–c: 0.4 learned now
            store.upsert_edges([(a, b, 0.6, 0.0, 30, 0, 0.0), (b, c, 0.4, 0.1, 2, 100, 0.0)])
            store.set_meta("hebbian_step", "100")
        export_store(store, tmp_path / "m.md", fmt="markdown", hela=HelaParams(lam=0.005))
    text = (tmp_path / "m.md").read_text(encoding="utf-8")
    lines = [x for x in text.splitlines() if "↔" in x]
    assert lines == [
        f"- #{b} “memory b” ↔ #{c} “memory c” (weight 0.500: learned 0.400, prior 0.100, "
        "2 co-activations)",
        f"- #{a} “memory a” ↔ #{b} “memory b” (weight 0.363: learned 0.363, prior 0.000, "
        "30 co-activations)",
    ]


# ----------------------------------------------------------------- re-embedding -------
def test_export_without_embeddings_reembeds_on_import(sample, tmp_path, embedder):
    store, _ = sample
    path = tmp_path / "noemb.hela"
    export_store(store, path, include_embeddings=False, include_deleted=True)
    assert "embedding" not in records(members(path)["episodes.jsonl"])[0]
    with Store(tmp_path / "dst") as dst:
        rep = import_file(dst, path, embedder=embedder)
        assert rep.embedded == 6 + 2
        rows = dst.conn.execute("SELECT user_text, assistant_text, embedding, embedder "
                                "FROM episodes ORDER BY uid").fetchall()
        expect = embedder.embed([key_text(u, a) for u, a, _, _ in rows])  # the user's words
        for (_, _, blob, name), vec in zip(rows, expect, strict=True):
            assert name == embedder.name
            np.testing.assert_allclose(np.frombuffer(blob, np.float32), vec, atol=1e-5)
        assert dst.conn.execute("SELECT COUNT(*) FROM episodes WHERE query_centroid IS NOT NULL"
                                ).fetchone()[0] == 0
        again = import_file(dst, path, embedder=_must_not_embed)
        assert sum(again.added.values()) == 0


def test_other_embedders_vectors_are_replaced(sample_file, tmp_path, embedder):
    m = members(sample_file)
    eps = records(m["episodes.jsonl"])
    for r in eps:
        r["embedder"] = "some-other-model"
    m["episodes.jsonl"] = jsonl(eps)
    path = write_zip(tmp_path / "other.hela", m)
    with Store(tmp_path / "dst") as dst:
        rep = import_file(dst, path, embedder=embedder)
        assert rep.embedded == 6
        names = {r[0] for r in dst.conn.execute("SELECT embedder FROM episodes")}
        assert names == {embedder.name}
        dims = {len(r[0]) for r in dst.conn.execute("SELECT embedding FROM episodes")}
        assert dims == {4 * embedder.dim}


# ---------------------------------------------------------------- plain imports -------
def test_streaming_memory_json_import(tmp_path, embedder):
    items = [
        {"content": "I adopted a cat named Miso.", "created_at": "2024-03-01T10:00:00",
         "emotional_intensity": 0.8, "type": "event"},
        {"content": "Prefers tea over coffee", "created_at": "2024-03-02T09:30:00+00:00",
         "emotional_intensity": 0.1},
        {"content": "I adopted a cat named Miso.", "created_at": "2024-03-01T10:00:00"},
    ]
    path = tmp_path / "memories.json"
    path.write_text(json.dumps(items, indent=1), encoding="utf-8")
    with Store(tmp_path / "dst") as dst:
        rep = import_file(dst, path, embedder=embedder)
        assert rep.kind == "json" and rep.added["episodes"] == 2 and rep.embedded == 2
        eps = {e.user_text: e for e in dst.list_episodes()}
        cat = eps["I adopted a cat named Miso."]
        # an item with its own (old) date says when it came in: forgetting counts its idle
        # time from there (pass 7; the first reflection archived such a list whole)
        came = cat.meta.pop("imported_at")
        assert cat.importance == pytest.approx(0.8) and cat.meta == {"type": "event"}
        assert time.time() - 600 < came <= time.time()
        assert eps["Prefers tea over coffee"].created_at == 1709371800.0
        assert cat.uid.startswith("j-")
        assert dst.conn.execute("SELECT COUNT(*) FROM episodes WHERE embedding IS NULL"
                                ).fetchone()[0] == 0
        again = import_file(dst, path, embedder=_must_not_embed)
        assert again.added["episodes"] == 0 and again.skipped["episodes"] == 2


def test_text_and_markdown_import(tmp_path, embedder):
    path = tmp_path / "notes.md"
    path.write_text("# My notes\n\nAna lives in Lisbon.\nShe works at a museum.\n\n---\n\n"
                    "## Food\n\nAllergic to peanuts.\n\n\n", encoding="utf-8")
    with Store(tmp_path / "dst") as dst:
        rep = import_file(dst, path, embedder=embedder)
        assert rep.kind == "text" and rep.added["episodes"] == 2
        texts = sorted(e.user_text for e in dst.list_episodes())
        assert texts == ["Allergic to peanuts.", "Ana lives in Lisbon.\nShe works at a museum."]
        again = import_file(dst, path, embedder=_must_not_embed)
        assert again.added["episodes"] == 0
        consistent(dst)


def test_embedding_happens_before_the_transaction(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("one\n\ntwo\n", encoding="utf-8")

    def failing(texts):
        raise RuntimeError("embedder broke")

    with Store(tmp_path / "dst") as dst:
        before = snapshot(dst)
        with pytest.raises(RuntimeError):
            import_file(dst, path, embedder=failing)
        assert snapshot(dst) == before
        assert not dst.conn.in_transaction




def test_embedder_named_only_in_the_manifest_survives_a_round_trip(tmp_path, embedder):
    """Issue 12 item 8: records with "embedder": null and a manifest naming the embedder;
    after import, a re-export still names it (it wrote null)."""
    rng = np.random.default_rng(1)
    with Store(tmp_path / "src") as src:
        src.add_episode("A note about zebras", "", unit(rng), embedder=None)
        src.set_meta("embedder", EMB)
        export_store(src, tmp_path / "a.hela")
    with Store(tmp_path / "dst") as dst:
        import_file(dst, tmp_path / "a.hela", embedder=_must_not_embed)
        export_store(dst, tmp_path / "b.hela")
    man = json.loads(members(tmp_path / "b.hela")["manifest.json"])
    assert man["embedder"] == EMB


def test_markdown_export_marks_superseded_knowledge(sample, tmp_path):
    store, _ = sample
    export_store(store, tmp_path / "m.md", fmt="markdown")
    text = (tmp_path / "m.md").read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if "Ana lives in Lisbon" in x and "**fact**" in x)
    assert "superseded" in line
    current = next(x for x in text.splitlines() if "allergic to peanuts" in x and "**" in x)
    assert "superseded" not in current



def test_the_memories_a_message_names_keep_pointing_at_them_in_another_store(tmp_path):
    """A message's statistics name the memories its answer drew on by the store's ids; the
    file also names them by uid, and the importing store gives them its own ids (an id of
    the writing store would name another memory there)."""
    vec = unit(np.random.default_rng(3))
    with Store(tmp_path / "src") as src:
        cid = src.add_conversation("Pixel")
        dog = src.add_episode("My dog is called Pixel.", "", vec, embedder=EMB,
                              conversation_id=cid)
        ask = src.add_episode("What is my dog's name?", "", vec, embedder=EMB,
                              conversation_id=cid)
        src.add_message(cid, "user", "What is my dog's name?")
        src.add_message(cid, "assistant", "Pixel.", episode_id=ask, stats={
            "tokens": 2, "repeat_of": ask, "memories": [
                {"episode_id": dog, "text": "My dog is called Pixel.", "kind": "episode"},
                {"episode_id": 999, "text": "gone since", "kind": "episode"}]})
        uids = {dog: src.episode(dog).uid, ask: src.episode(ask).uid}
        path = tmp_path / "pixel.hela"
        export_store(src, path)
    with Store(tmp_path / "dst") as dst:
        for i in range(5):  # the importing store's ids are taken by other memories
            dst.add_episode(f"something else {i}", "", vec, embedder=EMB)
        import_file(dst, path)
        (msg,) = [m for m in dst.messages(dst.conversations()[0]["id"]) if m["role"] == "assistant"]
        st = msg["stats"]
        here = {dst.episode(i).uid: i for i in dst.episode_ids().tolist()}
        assert st["memories"][0]["episode_id"] == here[uids[dog]] != dog
        assert st["memories"][1]["episode_id"] is None  # not in the file: no id at all
        assert st["repeat_of"] == here[uids[ask]] == msg["episode_id"]
