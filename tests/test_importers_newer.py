"""Bringing history in again (the fourteenth pass): Claude's text editor tool comes in as
its file tools do.  Real exports' shapes, real SQLite files, the real embedder."""

from __future__ import annotations

from test_importers import write_json

from hela_desktop.importers.claude import Artifacts, file_call
from hela_desktop.memfile import import_file
from hela_desktop.store import Store


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
    path = write_json(tmp_path / "conversations.json", editor_export())
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
