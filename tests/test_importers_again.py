"""Bringing history in again (the fifteenth pass): what the fourteenth left over.  An
export holding a memory the user deleted for good changes nothing for it (no backup); a
memory imported before replies' times were kept (0.5.0) is not replaced by an older
answer; a chat the user went on with here still follows its exports' branches, and the
user's own words here are never archived by an import.  Real exports' shapes, real SQLite
files, the real embedder, the real small model where a chat goes on."""

from __future__ import annotations

from pathlib import Path

from test_importers import T0
from test_importers_newer import (
    another,
    chat,
    edited,
    first_export,
    live,
    memory,
    newer_export,
    regenerated,
    save,
)

from hela_desktop import backups as B
from hela_desktop.forgetting import purge
from hela_desktop.memfile import export_store, import_file
from hela_desktop.store import Store

NORTH = "My monstera sits by the north window."


def first(tmp_path: Path) -> Path:
    return save(tmp_path / "v1" / "conversations.json",
                chat(first_export(), "a3") + another("Spike is a fine name.", T0 + 51))


def test_a_memory_deleted_for_good_changes_nothing_when_imported_again(tmp_path, embedder):
    """Re-importing an export that holds a memory the user deleted for good made a
    "before import" backup though nothing changed: the memory was written and erased again
    inside the import, which the look before the backup counted as a change (and, with two
    kept, two such imports pushed out the backup that undoes a real one).  Such a memory is
    now left out before it is written, with its links and the distilled items it alone
    grounds, from a history export and from a memory file alike; the report still says it
    was left out."""
    v1 = first(tmp_path)
    with Store(tmp_path / "data") as store:
        import_file(store, v1, embedder=embedder)
        north = memory(store, NORTH)
        other = memory(store, "How often should I water my monstera?")
        links = store.count_edges()
        assert store.edges_of([north.id])
        vec = embedder.embed_one("The user's monstera sits by a north window.")
        store.add_knowledge("fact", "The user's monstera sits by a north window.", vec,
                            embedder.name, T0 + 100, [north.id])
        store.add_knowledge("fact", "The user keeps a monstera.", vec, embedder.name,
                            T0 + 100, [north.id, other.id])
        saved = tmp_path / "before.hela"
        export_store(store, saved)
        store.set_deleted(north.id, True)
        purge(store, [north.id], backups=False)
        kept = sorted(k.text for k in store.list_knowledge())
        after_purge = store.count_edges()
        assert after_purge < links and kept == ["The user keeps a monstera."]

        for path in (v1, saved, v1):
            start = store.conn.total_changes
            rep = import_file(store, path, embedder=embedder, backup_keep=2)
            assert rep.backup is None, path
            assert store.conn.total_changes == start  # nothing written
            assert rep.erased == 1 and rep.added["episodes"] == 0
            assert "1 memory you had deleted for good was left out" in rep.sentence()
        assert B.list_backups(store.path) == []
        assert store.episode(north.id) is None and NORTH not in live(store)
        assert store.count_edges() == after_purge
        assert sorted(k.text for k in store.list_knowledge()) == kept

        # the chat deleted too: it comes back from the export, the answer of the memory
        # deleted for good marked as forgotten (the model is not shown it again)
        store.delete_conversation(north.conversation_id)
        rep = import_file(store, v1, embedder=embedder, backup_keep=2)
        assert rep.backup is not None and rep.erased == 1 and rep.added["conversations"] == 1
        back = memory(store, "How often should I water my monstera?").conversation_id
        said = {m["content"]: m for m in store.messages(back)}
        assert said["North light suits it."]["forgotten"]
        assert said["North light suits it."]["episode_id"] is None
        assert not said["Every day, generously."]["forgotten"]
        assert NORTH not in live(store) and store.integrity_ok()


def without_reply_times(store: Store) -> None:
    """The store as 0.5.0 and earlier wrote it: imported memories carry no ``reply_at``."""
    with store.transaction():
        store.conn.execute("UPDATE episodes SET meta = json_remove(meta, '$.reply_at')")
    assert all("reply_at" not in (e.meta or {}) for e in store.list_episodes(limit=100))


def test_an_answer_imported_before_reply_times_is_replaced_only_by_a_newer_one(
        tmp_path, embedder):
    """A memory imported by 0.5.0 or earlier has no ``reply_at``, and any other reply won:
    an older export imported after the newer one (or the same chat exported by another
    tool, with another answer and no times) put the old answer back.  Its answer's time is
    now the one its answer message in the chat has (those imports took it from the
    export's own timestamps); the answer is replaced only by one known to be newer."""
    v1, v2 = first(tmp_path), save(tmp_path / "v2" / "conversations.json", newer_export())
    winter = "Should I move it in winter?"
    newer_answer = "Yes: give it a bright spot away from radiators."

    # newer first (by 0.5.0), then the older export: the newer answer stays
    with Store(tmp_path / "a") as store:
        import_file(store, v2, embedder=embedder)
        without_reply_times(store)
        rep = import_file(store, v1, embedder=embedder, backup_keep=2)
        assert rep.answers_updated == 0 and rep.backup is None
        m = memory(store, winter)
        assert m.assistant_text == newer_answer and m.meta["reply_id"] == "a3b"
        said = [x["content"] for x in store.messages(m.conversation_id)]
        assert newer_answer in said and "Keep it away from radiators." not in said
        assert memory(store, "My cactus is called Spike.").assistant_text == "REGENERATED"

    # older first (by 0.5.0), then the newer export: its answers come in
    with Store(tmp_path / "b") as store:
        import_file(store, v1, embedder=embedder)
        without_reply_times(store)
        rep = import_file(store, v2, embedder=embedder)
        assert rep.answers_updated == 2
        m = memory(store, winter)
        assert m.assistant_text == newer_answer
        assert m.meta["reply_id"] == "a3b" and m.meta["reply_at"] == T0 + 300
        # and the older export after it: the answer now has its time, and stays
        assert import_file(store, v1, embedder=embedder).answers_updated == 0
        assert memory(store, winter).assistant_text == newer_answer

    # the same chat exported by another tool: another answer, no times: not replaced
    other = regenerated(first_export())
    for n in other.values():
        if n["message"]:
            n["message"]["create_time"] = None
    other_tool = save(tmp_path / "v3" / "conversations.json",
                      [dict(chat(first_export(), "a3")[0], mapping=other, current_node="a3b",
                            update_time=None)])
    with Store(tmp_path / "c") as store:
        import_file(store, v1, embedder=embedder)
        without_reply_times(store)
        rep = import_file(store, other_tool, embedder=embedder)
        assert rep.answers_updated == 0
        assert memory(store, winter).assistant_text == "Keep it away from radiators."


def test_a_chat_continued_here_still_follows_its_exports(tmp_path, make_assistant, embedder):
    """A user imports a ChatGPT chat, goes on with it in HeLa, and later imports a newer
    export in which they had edited a message there: the edit was not followed, the old
    and the new version both current.  The chat's update time had moved with the messages
    said here, and the export (its edit made before them) was taken for an older version
    of the chat.  The version an import compares with is now what the exports imported so
    far showed of the chat (its newest imported user message); the user's own messages
    here, and the memories they formed, stay as they are."""
    v1 = save(tmp_path / "v1" / "conversations.json", chat(first_export(), "a3"))
    v2 = save(tmp_path / "v2" / "conversations.json", chat(edited(first_export()), "a2e"))
    a = make_assistant()
    store = a.store
    import_file(store, v1, embedder=embedder)
    a.engine.reload_index()
    cid = memory(store, NORTH).conversation_id
    mine = "I repotted my monstera into a bigger pot today."
    done = [ev for ev in a.chat(mine, conversation_id=cid) if type(ev).__name__ == "DoneEvent"]
    assert done and done[0].conversation_id == cid
    here = memory(store, mine)
    said_here = [(m["role"], m["content"]) for m in store.messages(cid)][-2:]
    assert said_here[0] == ("user", mine)

    rep = import_file(store, v2, embedder=embedder)
    assert rep.off_branch == 2
    assert live(store) == ["How often should I water my monstera?", mine,
                           "My monstera sits by the south window."]
    assert memory(store, NORTH).archived_at is not None
    again = store.episode(here.id)
    assert again is not None and again.archived_at is None and again.deleted_at is None
    now = [(m["role"], m["content"]) for m in store.messages(cid)]
    assert said_here[0] in now and said_here[1] in now

    # the first export again is still the older version: its branch is left alone
    rep = import_file(store, v1, embedder=embedder)
    assert rep.off_branch == rep.back_on_branch == 0
    assert NORTH not in live(store) and mine in live(store)


def test_the_older_check_counts_the_exports_not_the_chat_here(tmp_path, embedder):
    """The same without the model, at the store: a message said here (after the export's
    edit) is not a version of the export."""
    v1 = save(tmp_path / "v1" / "conversations.json", chat(first_export(), "a3"))
    v2 = save(tmp_path / "v2" / "conversations.json", chat(edited(first_export()), "a2e"))
    with Store(tmp_path / "data") as store:
        import_file(store, v1, embedder=embedder)
        cid = memory(store, NORTH).conversation_id
        store.add_message(cid, "user", "Here, later.", at=T0 + 10_000)
        rep = import_file(store, v2, embedder=embedder)
        assert rep.off_branch == 2 and NORTH not in live(store)
        assert live(store)[-1] == "My monstera sits by the south window."
