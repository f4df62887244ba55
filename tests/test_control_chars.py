"""Control characters in what a person imports, pastes or edits (QA pass 21): an imported
memory holding "\\x1b[2J" cleared the terminal `memories show` printed it to, BEL and ESC
were drawn as boxes in the window, and U+202E turned the rest of a line round.

Real parts: SQLite stores in temporary folders, real memory files, the command line run in
this process, the bundled embedder where memories are embedded.
"""

from __future__ import annotations

import json

import pytest

from hela_desktop.memfile import export_store, import_file
from hela_desktop.store import Store
from hela_desktop.words import printable, terminal_safe

pytest.register_assert_rewrite("memfile_support")
from memfile_support import jsonl, members, records, write_zip  # noqa: E402

pytest_plugins = ["memfile_support"]

HOSTILE = "My cat\x07 is \x1b[31mMiso\x1b[0m.\x1b[2J\r\nShe is \u202eegnaro\u202c.\x00\x7f\x9b"


def test_printable_and_terminal_safe_by_hand():
    # an escape sequence goes whole, CR LF is one line break, a lone CR one too, the
    # bidi override and the C0 / C1 characters go; tab and newline stay
    assert printable(HOSTILE) == "My cat is Miso.\nShe is egnaro\u202c."
    assert printable("a\rb\tc\nd") == "a\nb\tc\nd"
    assert printable("\x1b]0;a window title\x07rest") == "rest"
    same = "Nothing to remove: Ünïcode, עברית, 🐈\tand\nlines."
    assert printable(same) is same
    # for a terminal, shown and not obeyed: the caret pairs of `cat -v`
    assert terminal_safe("a\x1b[2Jb\x07c\r\nd\u202e") == "a^[[2Jb^Gc\nd<U+202E>"
    assert terminal_safe(same) is same


def test_a_memory_file_with_control_characters_imports_them_as_plain_text(
        sample_file, target, tmp_path):
    """Both passes of a native import (checking, then writing from the checked bytes)
    store the words without the control characters; the chat's title too."""
    m = members(sample_file)
    eps = records(m["episodes.jsonl"])
    eps[0]["user_text"] = HOSTILE
    m["episodes.jsonl"] = jsonl(eps)
    convs = records(m["conversations.jsonl"])
    convs[0]["title"] = "\x1b[1mBold\x1b[0m title\x07"
    m["conversations.jsonl"] = jsonl(convs)
    msgs = records(m["messages.jsonl"])
    msgs[0]["content"] = HOSTILE
    m["messages.jsonl"] = jsonl(msgs)
    rep = import_file(target, write_zip(tmp_path / "ctrl.hela", m))
    assert rep.added["episodes"] == len(eps)
    texts = [r[0] for r in target.conn.execute("SELECT user_text FROM episodes")]
    titles = [r[0] for r in target.conn.execute("SELECT title FROM conversations")]
    said = [r[0] for r in target.conn.execute("SELECT content FROM messages")]
    assert printable(HOSTILE) in texts and "Bold title" in titles and printable(HOSTILE) in said
    for t in texts + titles + said:
        assert printable(t) == t, repr(t)
    # and it goes out again as it is now
    export_store(target, tmp_path / "again.hela")
    again = records(members(tmp_path / "again.hela")["episodes.jsonl"])
    assert printable(HOSTILE) in [r["user_text"] for r in again]


def test_a_conversation_export_with_control_characters_is_cleaned(tmp_path, embedder):
    """Plain memories (a JSON list) and other sources go through `importers.base.clean`."""
    src = tmp_path / "memories.json"
    src.write_text(json.dumps([{"content": HOSTILE}]), encoding="utf-8")
    with Store(tmp_path / "d") as store:
        import_file(store, src, embedder=embedder)
        (text,) = [r[0] for r in store.conn.execute("SELECT user_text FROM episodes")]
    assert text == printable(HOSTILE)


def test_the_terminal_shows_a_stored_escape_and_does_not_obey_it(tmp_path, capsys):
    """A store written before the imports cleaned text may hold an escape sequence:
    `memories show` and `memories list` print it as caret pairs."""
    from hela_desktop.cli import main

    data = tmp_path / "d"
    with Store(data) as store:
        eid = store.add_episode(HOSTILE, "Noted\x1b[2J.", None)
    assert main(["memories", "show", str(eid), "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "^[[31mMiso^[[0m" in out and "Noted^[[2J." in out
    assert main(["memories", "list", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "^[[31mMiso" in out


def test_a_message_of_control_characters_only_is_an_empty_message(make_assistant):
    """A paste of nothing but a terminal's escapes is no message (it was sent, and stored
    as a memory of boxes)."""
    a = make_assistant()
    with pytest.raises(ValueError, match="empty message"):
        list(a.chat("\x1b[2J\x07\x1b[0m"))
    assert a.store.count_episodes() == 0


def test_an_edited_memory_and_a_renamed_chat_lose_their_control_characters(
        make_assistant):
    a = make_assistant()
    eid = a.store.add_episode("My cat is Miso.", "", None)
    a.engine.edit_episode(eid, "My cat is \x1b[1mMiso\x1b[0m\x07.", "Ok\r\nyes")
    e = a.store.episode(eid)
    assert (e.user_text, e.assistant_text) == ("My cat is Miso.", "Ok\nyes")
    cid = a.store.add_conversation("Chat")
    a.store.rename_conversation(cid, "\x1b[31mRed\x1b[0m chat\x07")
    assert a.store.conversation_title(cid) == "Red chat"
