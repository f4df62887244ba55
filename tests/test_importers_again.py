"""Bringing history in again (the fifteenth pass): what the fourteenth left over.  An
export holding a memory the user deleted for good changes nothing for it (no backup); a
memory imported before replies' times were kept (0.5.0) is not replaced by an older
answer; a chat the user went on with here still follows its exports' branches, and the
user's own words here are never archived by an import.  Real exports' shapes, real SQLite
files, the real embedder, the real small model where a chat goes on."""

from __future__ import annotations

from pathlib import Path

import pytest
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
from hela_desktop.memfile.format import _Bad
from hela_desktop.store import Store
from hela_desktop.turn import model_history

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
    # what the model is shown of the chat when it goes on: the version the export shows
    # and what was said here; the old version stays in the transcript only
    assert ("user", NORTH) in now
    shown = model_history(store.messages(cid))
    assert [m["content"] for m in shown if m["role"] == "user"] == [
        "How often should I water my monstera?", mine, "My monstera sits by the south window."]
    assert {"role": "assistant", "content": said_here[1][1]} in shown
    a.engine.reload_index()
    list(a.chat("Where does my monstera sit?", conversation_id=cid))
    assert NORTH not in [m["content"] for m in a.turn.history]

    # the first export again is still the older version: its branch is left alone
    rep = import_file(store, v1, embedder=embedder)
    assert rep.off_branch == rep.back_on_branch == 0
    assert NORTH not in live(store) and mine in live(store)
    assert NORTH not in [m["content"] for m in model_history(store.messages(cid))]


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


def test_the_transcript_says_which_answers_are_of_an_older_version(tmp_path, embedder):
    """The old version's exchanges stay in the chat's transcript, unmarked beside the new
    version (which comes in at the end): the window now says under each of those answers
    that it is of an older version of the chat, edited there since."""
    from hela_desktop.ui.window_status import stored_lines

    v1 = save(tmp_path / "v1" / "conversations.json", chat(first_export(), "a3"))
    v2 = save(tmp_path / "v2" / "conversations.json", chat(edited(first_export()), "a2e"))
    with Store(tmp_path / "data") as store:
        import_file(store, v1, embedder=embedder)
        cid = memory(store, NORTH).conversation_id
        import_file(store, v2, embedder=embedder)
        footers = {m["content"]: stored_lines(m)[0] for m in store.messages(cid)
                   if m["role"] == "assistant"}
    old = ("on an older version of this chat (edited in ChatGPT since); the chat goes on "
           "here from the newer one")
    assert footers == {"Every day, generously.": "", "North light suits it.": old,
                       "Keep it away from radiators.": old, "Shield it from the midday sun.": ""}


def test_a_conversation_too_large_to_read_is_named_as_such(tmp_path):
    """A ChatGPT export whose first conversation was larger than an export's item may be
    (64 MiB; one 200 MB message) was not recognised, read again as a list of memories
    and refused under their limit, "item 1: item larger than 16777216 bytes": neither
    the size that counts nor what the item is.  It is refused as too large, under the
    export's limit, the store unchanged (here with limits a sixteenth of the defaults)."""
    from memfile_support import assert_refused

    from hela_desktop.memfile.format import Limits

    small = Limits(max_line_bytes=2**20)  # an export's conversation: up to 4 MiB
    big = first_export()
    big["u1"]["message"]["content"]["parts"] = ["water " * 2_000_000]  # 12 MB
    path = save(tmp_path / "big" / "conversations.json", chat(big, "a3"))
    with Store(tmp_path / "data") as store:
        store.add_episode("I keep a diary", "", None, created_at=T0)
        err = assert_refused(store, path, "item 1: larger than 4 MiB", "one item",
                             limits=small)
    assert "1048576" not in str(err)


def test_a_large_item_is_decoded_a_few_times_not_once_per_block(monkeypatch):
    """One ChatGPT conversation of 20,000 messages (25 MB) was decoded again after every
    4 MiB block read, 14 times in all (7 to recognise the export, 7 to read it), 2.7 s of
    decoding that holds the interpreter's lock: the window stood still for up to 0.9 s at
    a time.  The reader now reads on until the unread text has doubled before trying
    again: a few attempts, whatever the size (here 2 MB in 64 KiB blocks: 32 before)."""
    import io
    import json

    from hela_desktop.memfile import readers as R

    class Counting(json.JSONDecoder):
        calls = 0

        def raw_decode(self, s, idx=0):
            Counting.calls += 1
            return super().raw_decode(s, idx)

    monkeypatch.setattr(R, "_CHUNK", 2**16)
    item = {"mapping": {f"n{i}": {"parts": ["water the fern " * 60]} for i in range(2200)}}
    text = json.dumps([item]).encode()
    assert len(text) > 2 * 10**6
    r = R._ListReader(io.BytesIO(text), None, "file")
    r.skip_ws()
    r.pos += 1  # the list's "["
    assert r.value(Counting(), 1, 2**30) == item
    assert Counting.calls <= 7, Counting.calls
    with pytest.raises(_Bad, match="larger than 1 MiB"):  # the limit holds as it did
        r2 = R._ListReader(io.BytesIO(text), None, "file")
        r2.skip_ws()
        r2.pos += 1
        r2.value(json.JSONDecoder(), 1, 2**20)


def test_the_first_conversation_is_decoded_once(tmp_path, monkeypatch):
    """Recognising an export decodes its first conversation; reading it decoded it again
    from the start of the file.  The reading now goes on from where recognising stopped:
    one large conversation is decoded once (a few attempts, above), and the import is the
    same (here a dry run: 2 MB in 64 KiB blocks, 64 attempts before)."""
    import json

    from hela_desktop.memfile import readers as R

    calls = []

    class Counting(json.JSONDecoder):
        def raw_decode(self, s, idx=0):
            calls.append(idx)
            return super().raw_decode(s, idx)

    big = first_export()
    big["u1"]["message"]["content"]["parts"] = ["water the fern " * 150_000]  # 2.2 MB
    path = save(tmp_path / "big" / "conversations.json",
                chat(big, "a3") + another("Spike is a fine name.", T0 + 51))
    monkeypatch.setattr(R, "_CHUNK", 2**16)
    monkeypatch.setattr(json, "JSONDecoder", Counting)  # (json_list_items makes one per read)
    seen = []
    with Store(tmp_path / "data") as store:
        rep = import_file(store, path, dry_run=True,
                          stage=lambda name, a, b: seen.append(name),
                          progress=lambda done, total: seen.append((done, total)))
    assert rep.added["episodes"] == 4 and rep.added["conversations"] == 2
    assert len(calls) <= 8, len(calls)
    size = path.stat().st_size
    read = [p for p in seen if isinstance(p, tuple) and p[1] == size]
    assert read and read[-1] == (size, size)  # the bar of the reading still goes to full
    assert [d for d, _ in read] == sorted(d for d, _ in read)


def test_a_text_cut_to_the_limit_is_said_to_be_kept_shortened_not_left_out(tmp_path):
    """QA pass 25: a 3.5-million-character message was imported, its first two million
    characters kept, and the summary said "1 left out (1 text cut at 2000000
    characters)".  It now says it was kept, shortened, with the limit written for people
    (here with a limit of 1,000 characters)."""
    from hela_desktop.importers.base import describe
    from hela_desktop.memfile.format import Limits

    big = first_export()
    big["u2"]["message"]["content"]["parts"] = ["My monstera sits by the window. " * 40]
    path = save(tmp_path / "big" / "conversations.json", chat(big, "a3"))
    with Store(tmp_path / "data") as store:
        rep = import_file(store, path, limits=Limits(max_text_chars=1000))
        kept = [r[0] for r in store.conn.execute("SELECT user_text FROM episodes")]
    assert len(kept) == 3 and max(len(t) for t in kept) <= 1000
    line = describe(rep.details)
    assert "left out" not in line, line
    assert line.endswith("; 1 text too long: kept to its first 1,000 characters"), line
