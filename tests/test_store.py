"""The SQLite store: schema, migrations, FTS5, refusals — real files, no model needed."""

from __future__ import annotations

import json
import sqlite3

import numpy as np
import pytest

from hela_desktop.config import Settings
from hela_desktop.store import SCHEMA_VERSION, Store, StoreError


def test_new_store_has_schema_wal_and_foreign_keys(tmp_path):
    with Store(tmp_path) as s:
        assert s.schema_version == SCHEMA_VERSION
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert s.integrity_ok()


def test_store_from_a_newer_version_is_refused_untouched(tmp_path):
    path = tmp_path / "memory.sqlite3"
    with Store(path):
        pass
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer HeLa Desktop"):
        Store(path)
    assert path.read_bytes() == before


def test_garbage_file_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "memory.sqlite3"
    path.write_bytes(b"this is not a database at all" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a readable HeLa memory file"):
        Store(path)
    assert path.read_bytes() == before


def test_fts_follows_inserts_edits_and_deletes(tmp_path):
    with Store(tmp_path) as s:
        e = s.add_episode("I adore hiking in the Alps", "Sounds lovely", np.ones(4))
        assert s.keyword_hits(["hike"])["hike"] == [e]  # porter stemming
        s.update_episode_text(e, "I adore sailing", "Nice", np.ones(4))
        assert s.keyword_hits(["hike", "sail"]) == {"hike": [], "sail": [e]}
        assert [x.id for x in s.list_episodes(search="sailing")] == [e]
        s.conn.execute("DELETE FROM episodes WHERE id = ?", (e,))
        assert s.fts_row_count() == 0


def test_deleting_a_conversation_keeps_its_memories(tmp_path):
    with Store(tmp_path) as s:
        c = s.add_conversation("chat")
        s.add_message(c, "user", "hello")
        e = s.add_episode("hello", "hi", np.ones(4), conversation_id=c)
        s.delete_conversation(c)
        assert s.conversations() == []
        ep = s.episode(e)
        assert ep is not None and ep.conversation_id is None
        assert s.integrity_ok()


def test_edges_are_unordered_pairs_and_cascade(tmp_path):
    with Store(tmp_path) as s:
        a = s.add_episode("a", "", np.ones(4))
        b = s.add_episode("b", "", np.ones(4))
        with pytest.raises(sqlite3.IntegrityError):
            s.upsert_edges([(b, a, 0.1, 0.0, 1, 1, 0.0)])  # src < dst is enforced
        s.upsert_edges([(a, b, 0.1, 0.0, 1, 1, 0.0)])
        assert s.count_edges() == 1
        s.conn.execute("DELETE FROM episodes WHERE id = ?", (a,))
        assert s.count_edges() == 0


def test_failed_transaction_leaves_nothing(tmp_path):
    with Store(tmp_path) as s:
        with pytest.raises(RuntimeError), s.transaction():
            s.add_episode("x", "", np.ones(4))
            raise RuntimeError("boom")
        assert s.count_episodes() == 0


def test_failed_inner_transaction_undoes_only_its_own_writes(tmp_path):
    with Store(tmp_path) as s:
        with s.transaction():
            kept = s.add_episode("kept", "", np.ones(4))
            with pytest.raises(RuntimeError), s.transaction():
                s.add_episode("undone", "", np.ones(4))
                raise RuntimeError("boom")
            s.add_episode("after", "", np.ones(4))
        texts = {r[0] for r in s.conn.execute("SELECT user_text FROM episodes")}
        assert texts == {"kept", "after"} and kept
    with Store(tmp_path) as s:  # committed: a new connection sees the same
        assert s.count_episodes() == 2


def test_settings_round_trip_and_bad_file(tmp_path):
    st = Settings()
    st.max_memories = 99  # clamped to the documented range on load
    st.hela.beta = 0.25
    st.save(tmp_path)
    back = Settings.load(tmp_path)
    assert back.max_memories == 15 and back.hela.beta == 0.25
    (tmp_path / "settings.json").write_text("{ not json")
    with pytest.raises(ValueError, match="settings file is not valid"):
        Settings.load(tmp_path)
    (tmp_path / "settings.json").write_text(json.dumps({"unknown_key": 1, "temperature": 0.1}))
    assert Settings.load(tmp_path).temperature == 0.1


def test_purged_episode_ids_are_never_given_out_again(tmp_path):
    """SQLite hands a new row max(id) + 1: purging the newest memories must not let the next
    memory take an id that timelines, chat stats or the window may still name."""
    from hela_desktop.forgetting import purge

    s = Store(tmp_path)
    a = s.add_episode("one", "", None)
    b = s.add_episode("two", "", None)
    with s.transaction():
        s.set_archived(b, "test")
    assert purge(s, [b]) == [b]
    c = s.add_episode("three", "", None)
    assert c == b + 1 and s.episode(b) is None and a < b
    d = s.add_episode("four", "", None)
    assert d == c + 1  # after the first insert SQLite's own choice is safe again
    s.close()


def test_archive_restore_and_purge_queries(tmp_path):
    with Store(tmp_path) as s:
        a, b, c = (s.add_episode(t, "", np.ones(4)) for t in ("one", "two", "three"))
        s.upsert_edges([(a, b, 0.1, 0.5, 1, 0, 0.0), (b, c, 0.0, 0.5, 0, 0, 0.0)])
        s.archive_episodes([(a, "weak"), (b, "stale")], at=1.0)
        s.archive_episodes([(a, "again")], at=2.0)  # already archived: left as it is
        assert s.archived_ids() == [a, b]
        assert s.archived_ids([c, b, b]) == [b]
        assert [(r.id, r.reason, r.edges) for r in s.archived_episodes()] == \
            [(a, "weak", 1), (b, "stale", 2)]
        assert [r.id for r in s.forgetting_candidates()] == [c]
        # archived neighbours keep their edges, and count with archived=True only
        assert s.all_edges() == []
        assert {(e.src, e.dst) for e in s.all_edges(archived=True)} == {(a, b), (b, c)}
        s.unarchive_episodes([b])
        s.purge_episodes([a, b])  # b is no longer archived: kept
        assert s.episode(a) is None and s.episode(b) is not None
        assert s.add_episode("four", "", np.ones(4)) > c  # a purged id is never reused


def test_a_deletion_keeps_its_reason_and_answers_are_found_by_their_words(tmp_path):
    """A memory Regenerate replaced is deleted with `REPLACED` (the Archive tab tells it
    from one the user deleted); a restore clears it.  `answers_containing` finds the live
    memories whose stored answer holds a fragment (any, or every), not the user's words."""
    from hela_desktop.store import REPLACED

    with Store(tmp_path) as s:
        a = s.add_episode("What's my locker code?", "Your locker code is 4417.", np.ones(4))
        b = s.add_episode("My locker code is 4417.", "Noted 100%_sure.", np.ones(4))
        c = s.add_episode("Nice day", "Indeed, LOCKER rooms are busy.", np.ones(4))
        s.set_deleted(a, True, REPLACED)
        assert s.archive_reasons([a, b]) == {a: REPLACED, b: None}
        assert [r[0] for r in s.answers_containing(["4417"])] == []  # a is deleted
        s.set_deleted(a, False)
        s.set_archived(a, None)
        assert s.archive_reasons([a]) == {a: None} and s.episode(a).deleted_at is None
        assert [r[0] for r in s.answers_containing(["4417"])] == [a]  # not b's own words
        assert sorted(r[0] for r in s.answers_containing(["locker", "4417"])) == [a, c]
        assert [r[0] for r in s.answers_containing(["locker", "4417"], every=True)] == [a]
        # LIKE's wildcards are taken as written
        assert [r[0] for r in s.answers_containing(["0%_"])] == [b]
        assert s.answers_containing(["0%x"]) == [] and s.answers_containing([]) == []


def test_bulk_inserts_for_synthetic_pools(tmp_path):
    with Store(tmp_path) as s:
        s.bulk_insert_episodes(("uid", "user_text", "created_at"),
                               [("u1", "alpha", 1.0), ("u2", "beta", 2.0)])
        ids = s.episode_ids()
        assert ids.tolist() == sorted(ids.tolist()) and len(ids) == 2
        s.insert_edges([(int(ids[0]), int(ids[1]), 0.2, 0.0, 1, 0, 1.0)])
        s.insert_edges([(int(ids[0]), int(ids[1]), 0.9, 0.9, 9, 9, 9.0)])  # kept as it was
        assert s.edges_between(ids)[(int(ids[0]), int(ids[1]))].weight == 0.2
        with pytest.raises(ValueError, match="not columns"):
            s.bulk_insert_episodes(("uid", "evil); DROP TABLE episodes; --"), [])


def test_live_knowledge_filter_and_merge_writes(tmp_path):
    with Store(tmp_path) as s:
        e1 = s.add_episode("I like tea", "", np.ones(4), created_at=10.0)
        e2 = s.add_episode("I like coffee", "", np.ones(4), created_at=20.0)
        k1 = s.add_knowledge("user_model", "The user likes tea.", np.ones(4), "emb", 1.0, [e1])
        k2 = s.add_knowledge("fact", "Tea is a drink.", np.ones(4), "emb", 1.0, [e1, e2])
        assert [k.id for k in s.live_knowledge("user_model")] == [k1]
        s.strengthen_knowledge(k2, 2.0)
        assert [k.id for k in s.list_knowledge()] == [k2, k1]  # strongest first
        assert s.knowledge_protected() == {e1, e2}
        assert s.newest_source_time(k2) == 20.0 and s.newest_created([e1]) == 10.0
        k3 = s.add_knowledge("fact", "Tea is not a drink.", np.ones(4), "emb", 3.0, [e2])
        s.supersede_knowledge(k2, k3, 3.0)
        s.set_knowledge_archived(k1, True)
        assert [k.id for k in s.live_knowledge()] == [k3]
        assert s.knowledge_protected() == {e2}
        assert s.count_knowledge() == 3 and s.count_knowledge(live=True) == 1
        assert s.count_knowledge_sources() == 2
        assert s.knowledge_sources([k2, k3]) == {k2: [e1, e2], k3: [e2]}


def test_in_memory_store_creates_nothing_on_disk(tmp_path):
    """`Store.in_memory`: what a dry run works on when the folder has no memory file yet:
    the current schema, usable like any store, and nothing made on disk."""
    d = tmp_path / "not-yet"
    s = Store.in_memory(d)
    try:
        assert s.path == d / "memory.sqlite3" and s.schema_version == SCHEMA_VERSION
        with s.transaction():
            eid = s.add_episode("I like tea", "", np.ones(4))
        assert s.episode(eid).user_text == "I like tea"
        with s.memory_copy() as copy:
            assert copy.episode(eid) is not None
    finally:
        s.close()
    assert not d.exists() and list(tmp_path.iterdir()) == []
    assert Store.in_memory(tmp_path / "x.sqlite3").path == tmp_path / "x.sqlite3"


def test_a_search_for_hash_and_a_number_is_that_memory(tmp_path):
    """The app names memories "#12" everywhere (status bar, undo strip, Archive); the
    Memories tab's search now takes that name to the one memory, and still keeps to the
    tab's rows (a deleted memory is not found there)."""
    from hela_desktop.words import memory_ref

    assert memory_ref(" #12 ") == 12 and memory_ref("# 7") == 7
    assert memory_ref("12") is None and memory_ref("#") is None and memory_ref("#1a") is None
    assert memory_ref("#-3") is None and memory_ref(None) is None and memory_ref("#²") is None
    assert memory_ref("#" + "9" * 30) is None  # more than SQLite's integers hold
    with Store(tmp_path / "d") as s:
        v = np.ones(4, dtype=np.float32) / 2
        ids = [s.add_episode(f"memory number {i} mentions #{i + 1}", "ok", v) for i in range(5)]
        s.set_deleted(ids[3], True)
        assert [e.id for e in s.list_episodes(search=f"#{ids[2]}")] == [ids[2]]
        assert s.list_episodes(search=f"#{ids[3]}") == []
        assert [e.id for e in s.list_episodes(search=f"#{ids[3]}", include_deleted=True)] == [ids[3]]
        assert s.list_episodes(search="#999") == []
        assert len(s.list_episodes(search="memory number")) == 4  # words search as before
        # every word wanted: "my sister" matched every memory holding "my"
        zebra = s.add_episode("a zebra crossing", "ok", v)
        assert [e.id for e in s.list_episodes(search="zebra")] == [zebra]
        assert s.list_episodes(search="memory zebra") == []  # OR gave all five


def test_a_chats_live_memories_are_counted_from_an_index(tmp_path):
    """`conversations()` counts each chat's live memories; `deleted_at` lies past an
    episode's texts and embedding (overflow pages), so counting from the rows made the
    listing 5x slower with 3,000 imported chats (24-33 ms against 5-7 with the index).
    A file made before the index gets it at open; the counts are the same."""
    path = tmp_path / "memory.sqlite3"
    with Store(path) as s:
        c = s.add_conversation("Sourdough")
        s.add_message(c, "user", "How often should I feed the starter?")
        kept, gone = (s.add_episode(f"question {i}", "x" * 5000, np.ones(384), conversation_id=c)
                      for i in range(2))
        s.set_deleted(gone, True)
        s.conn.execute("DROP INDEX episodes_conversation_live")  # a file made before it
    with Store(path) as s:
        assert [(r["title"], r["messages"], r["memories"]) for r in s.conversations()] == [
            ("Sourdough", 1, 1)]
        plan = " ".join(str(r) for r in s.conn.execute(
            "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM episodes e WHERE e.conversation_id = 1 "
            "AND e.deleted_at IS NULL"))
        assert "episodes_conversation_live" in plan
        s.set_deleted(gone, False)
        assert s.conversations()[0]["memories"] == 2
