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
    from hela_desktop.forgetting import purge_archived

    s = Store(tmp_path)
    a = s.add_episode("one", "", None)
    b = s.add_episode("two", "", None)
    with s.transaction():
        s.set_archived(b, "test")
    assert purge_archived(s, [b]) == [b]
    c = s.add_episode("three", "", None)
    assert c == b + 1 and s.episode(b) is None and a < b
    d = s.add_episode("four", "", None)
    assert d == c + 1  # after the first insert SQLite's own choice is safe again
    s.close()
