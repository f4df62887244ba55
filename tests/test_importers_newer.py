"""Bringing history in again (the fourteenth pass): a newer export of the same chats is the
user's current truth.  An answer regenerated there replaces the imported one in the memory
it belongs to (its id, links, use and the user's own edits kept); a question edited there
leaves one version current, the memories following the branch the newest export shows; an
import that changes nothing makes no backup; Claude's text editor tool comes in as its
file tools do.  Real exports' shapes, real SQLite files, the real embedder."""

from __future__ import annotations

import json
from pathlib import Path

from test_importers import T0, node, write_json

from hela_desktop import backups as B
from hela_desktop import prompt as P
from hela_desktop.cli import main as cli_main
from hela_desktop.importers.claude import Artifacts, file_call
from hela_desktop.memfile import ProgressText, import_file
from hela_desktop.store import DB_FILE, Store


def save(path: Path, obj) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_json(path, obj)


def chat(mapping: dict, current: str, cid: str = "conv-plants") -> list[dict]:
    """One ChatGPT conversation as the export writes it (updated with its newest
    message)."""
    newest = max(n["message"]["create_time"] for n in mapping.values() if n["message"])
    return [{"title": "Houseplants", "create_time": T0, "update_time": newest,
             "mapping": mapping, "current_node": current, "conversation_id": cid, "id": cid}]


def first_export() -> dict:
    """Three exchanges, as exported the first time."""
    return {
        "root": {"id": "root", "message": None, "parent": None, "children": ["u1"]},
        "u1": node("u1", "user", ["How often should I water my monstera?"], "root", ["a1"],
                   at=T0 + 10),
        "a1": node("a1", "assistant", ["Every day, generously."], "u1", ["u2"], at=T0 + 11,
                   meta={"model_slug": "gpt-4o"}),
        "u2": node("u2", "user", ["My monstera sits by the north window."], "a1", ["a2"],
                   at=T0 + 20),
        "a2": node("a2", "assistant", ["North light suits it."], "u2", ["u3"], at=T0 + 21),
        "u3": node("u3", "user", ["Should I move it in winter?"], "a2", ["a3"], at=T0 + 30),
        "a3": node("a3", "assistant", ["Keep it away from radiators."], "u3", [], at=T0 + 31),
    }


def regenerated(m: dict) -> dict:
    """The same chat after the user regenerated its last answer (a new branch from the
    question: `current_node` now ends there)."""
    m = json.loads(json.dumps(m))
    m["u3"]["children"].append("a3b")
    m["a3b"] = node("a3b", "assistant", ["Yes: give it a bright spot away from radiators."],
                    "u3", [], at=T0 + 300, meta={"model_slug": "gpt-5"})
    return m


def another(answer: str, at: float, reply: str = "b") -> list[dict]:
    """A second chat of one exchange, its answer `answer` (node `reply`)."""
    return chat({
        "r": {"id": "r", "message": None, "parent": None, "children": ["q"]},
        "q": node("q", "user", ["My cactus is called Spike."], "r", [reply], at=T0 + 50),
        reply: node(reply, "assistant", [answer], "q", [], at=at)}, reply, "conv-cactus")


def newer_export() -> list[dict]:
    """The export after both chats' last answers were regenerated."""
    return chat(regenerated(first_export()), "a3b") + another("REGENERATED", T0 + 320, "b2")


def edited(m: dict) -> dict:
    """The first export's chat after the user edited the second message (a sibling of the
    old one, with its own answer; the old message and what followed it on another branch)."""
    m = json.loads(json.dumps(m))
    m["a1"]["children"].append("u2e")
    m["u2e"] = node("u2e", "user", ["My monstera sits by the south window."], "a1", ["a2e"],
                    at=T0 + 400)
    m["a2e"] = node("a2e", "assistant", ["Shield it from the midday sun."], "u2e", [],
                    at=T0 + 401)
    return m


def memory(store: Store, user_text: str):
    """The memory (any state) whose user words are `user_text`."""
    found = [e for e in store.list_episodes(limit=100, include_deleted=True,
                                            include_archived=True) if e.user_text == user_text]
    assert len(found) == 1, (user_text, found)
    return found[0]


def live(store: Store) -> list[str]:
    return sorted(e.user_text for e in store.list_episodes(limit=100))


def test_a_regenerated_answer_in_a_newer_export_replaces_the_imported_one(tmp_path, embedder):
    """A user imports a ChatGPT export, regenerates an answer there, exports and imports
    again: the memory of that question kept the old answer ("already there").  Now the
    newer export's answer replaces it, in the memory's text (what the prompt shows of it),
    its provenance and the chat's answer message; the memory keeps its id, links, use and
    the user's edit of the user text.  A memory the user deleted stays deleted with its
    answer, and an older export imported afterwards does not bring the old answer back."""
    first = save(tmp_path / "v1" / "conversations.json",
                 chat(first_export(), "a3") + another("Spike is a fine name.", T0 + 51))
    newer = save(tmp_path / "v2" / "conversations.json", newer_export())
    with Store(tmp_path / "data") as store:
        import_file(store, first, embedder=embedder)
        m3 = memory(store, "Should I move it in winter?")
        spike = memory(store, "My cactus is called Spike.")
        # the user's life with the memories here: an edit, a use, a deletion
        mine = "Should I move my monstera in winter?"
        store.update_episode_text(m3.id, mine, m3.assistant_text, embedder.embed_one(mine))
        store.touch_episode(m3.id, T0 + 1000)
        store.set_deleted(spike.id, True)
        links = store.edges_of([m3.id])
        assert links

        rep = import_file(store, newer, embedder=embedder)
        after = store.episode(m3.id)
        assert after is not None and after.assistant_text == \
            "Yes: give it a bright spot away from radiators."
        assert after.user_text == mine and after.last_access == T0 + 1000
        assert store.edges_of([m3.id]) == links
        assert after.meta["reply_id"] == "a3b" and after.meta["model"] == "gpt-5"
        assert P.answer_excerpt(after.assistant_text).startswith("Yes: give it")  # the prompt's
        said = [m["content"] for m in store.messages(after.conversation_id)
                if m["role"] == "assistant"]
        assert said[-1] == "Yes: give it a bright spot away from radiators."
        assert "Keep it away from radiators." not in said
        gone = store.episode(spike.id)
        assert gone is not None and gone.deleted_at is not None
        assert gone.assistant_text == "Spike is a fine name."
        assert rep.answers_updated == 1 and "1 answer updated" in rep.sentence()
        assert "1 answer updated" in rep.summary()
        assert rep.as_dict()["answers_updated"] == 1

        # the older export again: its answer is older, the memory keeps the newer one
        again = import_file(store, first, embedder=embedder)
        assert again.answers_updated == 0
        assert store.episode(m3.id).assistant_text.startswith("Yes: give it")


def test_an_edited_question_leaves_one_version_current(tmp_path, embedder):
    """A message edited in ChatGPT is a new branch with another user text: re-importing
    kept both "my monstera sits by the north window" and "… south window" as current
    facts (and the old branch's follow-up).  The memories of a chat now follow the branch
    its newest export shows: those of messages it shows on another branch are archived
    (restorable; a deleted one stays deleted), and come back when a later export shows
    their branch again.  The live memories are what importing that export alone makes."""
    v1 = save(tmp_path / "v1" / "conversations.json", chat(first_export(), "a3"))
    v2 = save(tmp_path / "v2" / "conversations.json", chat(edited(first_export()), "a2e"))
    v3 = save(tmp_path / "v3" / "conversations.json", chat(edited(first_export()), "a3"))
    fresh = {}
    for name, path in (("v2", v2), ("v3", v3)):
        with Store(tmp_path / f"fresh-{name}") as s:
            import_file(s, path, embedder=embedder)
            fresh[name] = live(s)
    with Store(tmp_path / "data") as store:
        import_file(store, v1, embedder=embedder)
        north = memory(store, "My monstera sits by the north window.")
        rep = import_file(store, v2, embedder=embedder)
        assert live(store) == fresh["v2"] == [
            "How often should I water my monstera?", "My monstera sits by the south window."]
        old = memory(store, "My monstera sits by the north window.")
        assert old.id == north.id and old.archived_at is not None
        assert store.archive_reasons([old.id])[old.id] == \
            "on another branch of its chat in a newer ChatGPT export"
        assert rep.off_branch == 2 and "2 memories of messages now on another branch" in \
            rep.sentence()

        # the user switches back to the first branch there: it comes back, the edit goes
        rep = import_file(store, v3, embedder=embedder)
        assert live(store) == fresh["v3"] == [
            "How often should I water my monstera?", "My monstera sits by the north window.",
            "Should I move it in winter?"]
        assert rep.back_on_branch == 2 and rep.off_branch == 1
        assert memory(store, "My monstera sits by the north window.").id == north.id

        # the first export again, older than what the store has of the chat: its branch
        # is not followed (the edit, which it never held, would stay current beside it)
        import_file(store, v2, embedder=embedder)
        rep = import_file(store, v1, embedder=embedder)
        assert rep.back_on_branch == rep.off_branch == 0 and live(store) == fresh["v2"]
        import_file(store, v3, embedder=embedder)

        # a memory the user deleted is not archived, nor brought back, by a newer export
        winter = memory(store, "Should I move it in winter?")
        store.set_deleted(winter.id, True)
        import_file(store, v2, embedder=embedder)
        again = store.episode(winter.id)
        assert again is not None and again.deleted_at is not None and again.archived_at is None
        import_file(store, v3, embedder=embedder)
        assert store.episode(winter.id).deleted_at is not None


def claude_chat(messages: list[tuple[str, str | None, str, str]], leaf: str) -> list[dict]:
    """A Claude conversation with branches: (uuid, parent uuid, sender, text)."""
    return [{"uuid": "c-plants", "name": "Plants", "created_at": "2025-11-01T10:00:00Z",
             "updated_at": "2025-11-01T11:00:00Z", "current_leaf_message_uuid": leaf,
             "chat_messages": [
                 {"uuid": uid, "parent_message_uuid": parent or
                  "00000000-0000-4000-8000-000000000000", "sender": sender, "text": text,
                  "content": [{"type": "text", "text": text}],
                  "created_at": f"2025-11-01T10:{i:02d}:00Z", "attachments": [], "files": []}
                 for i, (uid, parent, sender, text) in enumerate(messages)]}]


def test_a_newer_claude_export_retried_and_edited(tmp_path, embedder):
    """Claude's retried answer and edited message are branches too
    (``parent_message_uuid``, ``current_leaf_message_uuid``): the same rules hold."""
    base = [("h1", None, "human", "Name a hardy fern for my balcony."),
            ("b1", "h1", "assistant", "Try a Boston fern."),
            ("h2", "b1", "human", "My balcony faces east.")]
    v1 = save(tmp_path / "v1" / "conversations.json",
                    claude_chat([*base, ("b2", "h2", "assistant", "Morning sun is fine.")], "b2"))
    newer = [*base, ("b2", "h2", "assistant", "Morning sun is fine."),
             ("b1r", "h1", "assistant", "Try a hart's-tongue fern: it takes frost."),
             ("h2e", "b1r", "human", "My balcony faces west."),
             ("b2e", "h2e", "assistant", "Afternoon sun is harsher.")]
    v2 = save(tmp_path / "v2" / "conversations.json", claude_chat(newer, "b2e"))
    with Store(tmp_path / "data") as store:
        import_file(store, v1, embedder=embedder)
        fern = memory(store, "Name a hardy fern for my balcony.")
        rep = import_file(store, v2, embedder=embedder)
        assert rep.answers_updated == 1 and rep.off_branch == 1
        assert store.episode(fern.id).assistant_text.startswith("Try a hart's-tongue fern")
        assert live(store) == ["My balcony faces west.", "Name a hardy fern for my balcony."]


def test_a_newer_open_webui_export_edited_and_regenerated(tmp_path, embedder):
    """Open WebUI's ``history`` tree (``parentId``, ``currentId``): an edited question and a
    regenerated answer follow the same rules."""
    from test_importers import openwebui_export

    v1 = openwebui_export()
    v2 = json.loads(json.dumps(v1))
    msgs = v2[0]["chat"]["history"]["messages"]
    msgs["a1b"]["childrenIds"].append("u2e")
    msgs["u2e"] = dict(msgs["u2"], id="u2e", content="What should I drink before?",
                       childrenIds=["a2e"], timestamp=1712000100)
    msgs["a2e"] = dict(msgs["a2"], id="a2e", parentId="u2e", content="Water, a glass.",
                       timestamp=1712000101)
    msgs["u1"]["childrenIds"].append("a1c")  # and the first answer, regenerated later
    msgs["a1c"] = dict(msgs["a1"], id="a1c", content="Keep going!", timestamp=1712000200)
    v2[0]["chat"]["history"]["currentId"] = "a2e"
    v2[0]["updated_at"] = 1712000200
    with Store(tmp_path / "data") as store:
        import_file(store, save(tmp_path / "v1" / "chats.json", v1), embedder=embedder)
        rep = import_file(store, save(tmp_path / "v2" / "chats.json", v2), embedder=embedder)
        assert rep.off_branch == 1 and live(store) == [
            "I run 10 km every Sunday morning.", "What should I drink before?"]
        assert rep.answers_updated == 0  # a1c is on no branch shown: the answer stays
        assert memory(store, "I run 10 km every Sunday morning.").assistant_text == \
            "Great habit — keep hydrated!"


def test_an_import_that_changes_nothing_makes_no_backup(tmp_path, embedder, capsys):
    """Importing the same export twice made a "before import" backup the second time
    although nothing changed (and with two kept, a third no-op import pushed out the
    backup that undoes the real one).  The import now first writes as far as its first
    change, undone; it backs up only when there is one, before anything is written."""
    folder = tmp_path / "data"
    with Store(folder) as store:  # memories of the user's own: an import is backed up
        store.add_episode("I keep a diary", "", embedder.embed_one("I keep a diary"),
                          created_at=T0)
    v1 = save(tmp_path / "v1" / "conversations.json",
              chat(first_export(), "a3") + another("Spike is a fine name.", T0 + 51))
    newer = save(tmp_path / "v2" / "conversations.json", newer_export())
    base = ["--data-dir", str(folder), "--json"]
    assert cli_main(["import", str(v1), *base]) == 0
    made = B.list_backups(folder / DB_FILE)
    assert len(made) == 1 and json.loads(capsys.readouterr().out)["backup"] == made[0].name
    before = (folder / DB_FILE).read_bytes()
    for _ in range(2):
        assert cli_main(["import", str(v1), *base]) == 0
        rep = json.loads(capsys.readouterr().out)
        assert rep["backup"] is None and sum(rep["added"].values()) == 0
        assert sum(rep["already_present"].values()) > 0
    assert B.list_backups(folder / DB_FILE) == made
    with Store(folder) as store:
        assert store.integrity_ok()
    assert (folder / DB_FILE).read_bytes() == before  # (nothing written, nothing committed)
    with Store(folder) as store:  # the window's bar: the look is checking, then it is full
        words, seen = ProgressText(B.before_import_bytes(store, 2)), []

        def stage(name, start, end):
            seen.append(name)
            words.stage(name, start, end)

        rep = import_file(store, v1, embedder=embedder, stage=stage, progress=words.progress,
                          backup_keep=2)
        assert rep.backup is None and seen == ["reading", "checking", "checking", "writing"]
        assert words.bar() == (1000, 1000)

    # an import that changes something (one answer) is backed up before it writes
    assert cli_main(["import", str(newer), *base]) == 0
    rep = json.loads(capsys.readouterr().out)
    now = B.list_backups(folder / DB_FILE)
    assert len(now) == 2 and rep["backup"] == now[0].name and rep["answers_updated"] == 2
    with Store(now[0].path, create=False) as kept:
        answers = {e.assistant_text for e in kept.list_episodes(limit=100)}
    assert "Keep it away from radiators." in answers
    assert "Yes: give it a bright spot away from radiators." not in answers
    # the report of the real write is whole, not the look's before it
    assert rep["merged"]["episodes"] == 2 and rep["already_present"]["episodes"] == 2


# ---------------------------------------------------------- Claude's text editor ------
def editor_export() -> list[dict]:
    """A chat where Claude used its text editor tool, as a newer claude.ai export holds it
    (``tool_use`` named ``str_replace_based_edit_tool``, its ``input`` carrying ``command``
    and that command's fields, each followed by its ``tool_result``)."""
    def use(n, **inp):
        return {"type": "tool_use", "id": f"toolu_{n}", "name": "str_replace_based_edit_tool",
                "input": inp}

    def result(n, text):
        return {"type": "tool_result", "tool_use_id": f"toolu_{n}",
                "name": "str_replace_based_edit_tool",
                "content": [{"type": "text", "text": text}], "is_error": False}

    def said(text):
        return {"type": "text", "text": text}

    path = "/mnt/user-data/outputs/water.py"
    msgs = [
        ("u1", "human", [said("Write a script that says when to water my plants.")]),
        ("a1", "assistant", [
            said("Here it is."),
            use(1, command="create", path=path,
                file_text="DAYS = 7\n\nprint(f'Water every {DAYS} days')\n"),
            result(1, f"File created successfully at: {path}"),
            use(2, command="view", path=path, view_range=[1, 3]),
            result(2, "1: DAYS = 7"),
            use(3, command="str_replace", path=path, old_str="DAYS = 7", new_str="DAYS = 5"),
            result(3, "The file has been edited."),
            use(4, command="insert", path=path, insert_line=0,
                insert_text="# when to water\n"),
            result(4, "The file has been edited.")]),
        ("u2", "human", [said("Actually keep it weekly.")]),
        ("a2", "assistant", [
            use(5, command="str_replace", path=path, old_str="DAYS = 5", new_str="DAYS = 6"),
            use(6, command="undo_edit", path=path),
            use(7, command="str_replace", path=path, old_str="DAYS = 5", new_str="DAYS = 7"),
            use(8, command="insert", path="/tmp/other.txt", insert_line=3, insert_text="x"),
            said("Back to weekly.")]),
    ]
    return [{"uuid": "c-editor", "name": "Watering", "created_at": "2025-11-01T10:00:00Z",
             "updated_at": "2025-11-01T10:05:00Z", "chat_messages": [
                 {"uuid": uid, "text": "", "content": blocks, "sender": sender,
                  "created_at": f"2025-11-01T10:0{i}:00Z", "attachments": [], "files": []}
                 for i, (uid, sender, blocks) in enumerate(msgs)]}]


def test_claudes_text_editor_tool_comes_in_like_its_file_tools(tmp_path, embedder):
    """Claude's text editor tool (``str_replace_based_edit_tool``) was left out as tool use
    while ``create_file`` / ``str_replace`` came in: a script Claude wrote with it was
    missing from the memory.  Its ``create``, ``str_replace``, ``insert`` (after line
    ``insert_line``, 0: at the top) and ``undo_edit`` now change the file as they did
    there, and each answer shows the file (name in bold, content fenced) as it left it; an
    insertion into a file the chat never showed is a note with the new text; ``view``
    changes nothing and is counted as tool use."""
    path = save(tmp_path / "conversations.json", editor_export())
    with Store(tmp_path / "data") as store:
        rep = import_file(store, path, embedder=embedder)
        replies = [e.assistant_text for e in store.list_episodes(limit=10)]
    assert sorted(replies) == sorted([
        "Here it is.\n\n**water.py**\n\n```python\n# when to water\nDAYS = 5\n\n"
        "print(f'Water every {DAYS} days')\n```",
        "**water.py**\n\n```python\n# when to water\nDAYS = 7\n\n"
        "print(f'Water every {DAYS} days')\n```\n\n"
        "**other.txt** (an insertion whose place was not found; the new text):\n\n"
        "```text\nx\n```\n\nBack to weekly."])
    assert rep.details["skipped_reasons"]["tool use"] == 1  # the view
    assert rep.details["skipped_reasons"]["tool result"] == 4


def test_the_text_editors_insert_and_undo():
    """``insert`` puts its text after line ``insert_line`` (a line of its own, the text
    before kept whole, ``new_str`` in the tool's first version); a line past the end is not
    guessed at; ``undo_edit`` steps back one edit at a time, a create included."""
    arts = Artifacts()

    def call(**inp):
        return arts.apply(file_call("str_replace_based_edit_tool", inp), "artifact")

    assert call(command="create", path="a.txt", file_text="one\ntwo") == ("file:a.txt", None)
    call(command="insert", path="a.txt", insert_line=1, insert_text="one and a half")
    assert arts.content["file:a.txt"] == "one\none and a half\ntwo"
    call(command="insert", path="a.txt", insert_line=3, new_str="three")  # first version
    assert arts.content["file:a.txt"] == "one\none and a half\ntwo\nthree"
    aid, note = call(command="insert", path="a.txt", insert_line=9, insert_text="nine")
    assert aid is None and note is not None and "nine" in note
    assert call(command="undo_edit", path="a.txt") == ("file:a.txt", None)
    assert arts.content["file:a.txt"] == "one\none and a half\ntwo"
    call(command="undo_edit", path="a.txt")
    call(command="undo_edit", path="a.txt")  # the create itself: the file is gone
    assert "file:a.txt" not in arts.content
    assert call(command="undo_edit", path="a.txt") == (None, None)  # nothing left to undo
    assert call(command="view", path="a.txt") == (None, None)
    assert file_call("str_replace_based_edit_tool", {"command": "rm", "path": "a"}) is None
    assert file_call("str_replace_editor", {"command": "create", "path": "b.md",
                                            "file_text": "# B"})["language"] == "markdown"
