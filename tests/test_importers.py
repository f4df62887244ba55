"""Bring your history: ChatGPT, Claude, Open WebUI and Jan exports and notes folders.

Every test builds a realistic export the way the source writes it (following each format's
public description: ChatGPT's ``mapping`` tree with edits and regenerated answers, hidden
system and tool messages, multimodal parts and attachments; Claude's ``chat_messages`` with
content blocks and branches; Open WebUI's ``history`` tree; Jan's thread folders; an
Obsidian vault), imports it into a real SQLite store with the real embedder, and checks
what became of every message.  A second import must add nothing; a corrupted or hostile
file must be refused with one line and leave the store's files byte for byte as they were.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

import pytest

from hela_desktop.memfile import ImportCancelled, MemoryFileError, import_file, readers
from hela_desktop.store import Store

# the shared memory-file helpers (also with pytest's assertion messages)
pytest.register_assert_rewrite("memfile_support")
from memfile_support import run_cli  # noqa: E402

TABLES = ("meta", "conversations", "episodes", "edges", "messages", "timelines", "knowledge",
          "knowledge_sources", "activity")
T0 = 1_700_000_000.0  # 2023-11-14


# ------------------------------------------------------------------------ helpers -----
def snapshot(store: Store) -> dict:
    out = {t: store.conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in TABLES}
    out["fts"] = store.conn.execute("SELECT rowid, body FROM episodes_fts ORDER BY 1").fetchall()
    return out


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def episodes(store: Store) -> list[dict]:
    rows = store.conn.execute(
        "SELECT e.uid, e.user_text, e.assistant_text, e.created_at, e.source, e.meta, "
        "c.title, c.uid FROM episodes e LEFT JOIN conversations c ON c.id = e.conversation_id "
        "ORDER BY e.id").fetchall()
    return [dict(uid=r[0], user=r[1], reply=r[2], at=r[3], source=r[4], meta=json.loads(r[5]),
                 title=r[6], conv=r[7]) for r in rows]


def counts(store: Store) -> dict[str, int]:
    return {t: store.conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("conversations", "episodes", "messages", "edges")}


def import_twice(tmp_path: Path, path: Path, embedder, **kw):
    """Import, check the store, import again: the second time adds and changes nothing."""
    store = Store(tmp_path / "data")
    rep = import_file(store, path, embedder=embedder, **kw)
    assert store.integrity_ok()
    before = snapshot(store)
    again = import_file(store, path, embedder=embedder)
    assert snapshot(store) == before
    assert sum(again.added.values()) == 0 and sum(again.merged.values()) == 0
    assert again.embedded == 0
    assert not [p for p in (tmp_path / "data").iterdir() if p.name.startswith(".hela-import")]
    return store, rep


def assert_refused(tmp_path: Path, path: Path, *fragments: str) -> str:
    """The file is refused with one line naming it, and the store's files do not change."""
    data = tmp_path / "refuse-data"
    with Store(data) as store:
        store.add_episode("I keep a diary", "", None, created_at=T0)
    before = files_of(data)
    with Store(data) as store:
        with pytest.raises(MemoryFileError) as err:
            import_file(store, path)
    assert files_of(data) == before
    assert sorted(p.name for p in data.iterdir()) == sorted(before)
    msg = str(err.value)
    assert msg.startswith(f"{path}: ") and "\n" not in msg
    for f in fragments:
        assert f in msg, msg
    return msg


def node(mid, role, parts, parent, children, *, at=None, ctype="text", meta=None,
         recipient="all", hidden=False, author_name=None):
    """One node of a ChatGPT ``mapping``, as the export writes it."""
    metadata = dict(meta or {})
    if hidden:
        metadata["is_visually_hidden_from_conversation"] = True
    msg = {
        "id": mid, "author": {"role": role, "name": author_name, "metadata": {}},
        "create_time": at, "update_time": None,
        "content": {"content_type": ctype, "parts": parts} if ctype != "code"
        else {"content_type": "code", "language": "unknown", "text": parts[0]},
        "status": "finished_successfully", "end_turn": role == "assistant" or None,
        "weight": 1.0, "metadata": metadata, "recipient": recipient,
    }
    return {"id": mid, "message": msg, "parent": parent, "children": children}


def chatgpt_export() -> list[dict]:
    """Three conversations: edits, a regenerated answer, browsing with a tool, custom
    instructions, a picture with and without words, reasoning, unicode; plus one that
    holds nothing a person wrote."""
    m = {
        "root": {"id": "root", "message": None, "parent": None, "children": ["sys"]},
        "sys": node("sys", "system", [""], "root", ["ctx"], hidden=True),
        "ctx": node("ctx", "user", [], "sys", ["u1"], ctype="user_editable_context",
                    meta={"is_user_system_message": True}),
        "u1": node("u1", "user", ["My sister Ana moved to Lisbon 🇵🇹 last spring."], "ctx",
                   ["a1"], at=T0 + 10),
        "a1": node("a1", "assistant", ["That's exciting! Lisbon is lovely in spring."], "u1",
                   ["u2-old", "u2"], at=T0 + 12, meta={"model_slug": "gpt-4o"}),
        # the user edited this question: the old branch stays in the file
        "u2-old": node("u2-old", "user", ["Which café should she try?"], "a1", ["a2-old"],
                       at=T0 + 20),
        "a2-old": node("a2-old", "assistant", ["OLD BRANCH ANSWER"], "u2-old", [], at=T0 + 21),
        "u2": node("u2", "user", ["Which café in Alfama should she try first?"], "a1",
                   ["a2-first", "think"], at=T0 + 30),
        "a2-first": node("a2-first", "assistant", ["REGENERATED AWAY"], "u2", [], at=T0 + 31),
        # the answer that was kept thought, then searched the web first
        "think": node("think", "assistant", [], "u2", ["call"], ctype="thoughts"),
        "call": node("call", "assistant", ['search("cafe alfama")'], "think", ["tool"],
                     at=T0 + 32, ctype="code", recipient="browser"),
        "tool": node("tool", "tool", ["Results: Café da Garagem ..."], "call", ["quote"],
                     at=T0 + 33, ctype="tether_browsing_display", author_name="browser"),
        "quote": node("quote", "assistant", ["Try Café da Garagem — the view is great."],
                      "tool", ["u3"], at=T0 + 34, meta={"model_slug": "gpt-4o"}),
        "u3": node("u3", "user", [{"content_type": "image_asset_pointer",
                                   "asset_pointer": "file-service://file-abc", "width": 10,
                                   "height": 10}, "This is her cat Miso."], "quote", ["a3"],
                   at=T0 + 40, ctype="multimodal_text",
                   meta={"attachments": [{"id": "file-abc", "name": "miso.jpg",
                                          "mimeType": "image/jpeg"}]}),
        "a3": node("a3", "assistant", ["What a fluffy cat!"], "u3", ["u4"], at=T0 + 41),
        "u4": node("u4", "user", [{"content_type": "image_asset_pointer",
                                   "asset_pointer": "file-service://file-def"}], "a3", ["a4"],
                   at=T0 + 50, ctype="multimodal_text"),
        "a4": node("a4", "assistant", ["A tram climbing a hill."], "u4", ["u5"], at=T0 + 51),
        "u5": node("u5", "user", [""], "a4", ["a5"], at=T0 + 60),
        "a5": node("a5", "assistant", ["Did you mean to send something?"], "u5", [],
                   at=T0 + 61),
    }
    first = {"title": "Ana in Lisbon", "create_time": T0, "update_time": T0 + 61,
             "mapping": m, "moderation_results": [], "current_node": "a5",
             "plugin_ids": None, "conversation_id": "conv-ana", "conversation_template_id": None,
             "gizmo_id": None, "is_archived": False, "safe_urls": [], "id": "conv-ana"}
    m2 = {
        "r": {"id": "r", "message": None, "parent": None, "children": ["q"]},
        "q": node("q", "user", ["Écris « bonjour » en japonais, s'il te plaît."], "r", ["a"],
                  at=T0 + 86400),
        "a": node("a", "assistant", ["こんにちは (konnichiwa)"], "q", [], at=T0 + 86401),
    }
    second = {"title": "Ünïcødé 日本語", "create_time": T0 + 86400, "update_time": T0 + 86401,
              "mapping": m2, "current_node": "a", "conversation_id": "conv-jp", "id": "conv-jp"}
    m3 = {"r": {"id": "r", "message": None, "parent": None, "children": ["s"]},
          "s": node("s", "system", ["You are ChatGPT"], "r", [])}
    empty = {"title": "New chat", "create_time": T0, "update_time": T0, "mapping": m3,
             "current_node": "s", "conversation_id": "conv-empty", "id": "conv-empty"}
    return [first, second, empty]


def write_json(path: Path, obj) -> Path:
    path.write_text(json.dumps(obj, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


# ------------------------------------------------------------------------ ChatGPT -----
def test_chatgpt_export_follows_current_branch_and_keeps_provenance(tmp_path, embedder):
    path = write_json(tmp_path / "conversations.json", chatgpt_export())
    store, rep = import_twice(tmp_path, path, embedder)
    eps = episodes(store)
    got = [(e["user"], e["reply"], e["at"]) for e in eps]
    assert got == [
        ("My sister Ana moved to Lisbon 🇵🇹 last spring.",
         "That's exciting! Lisbon is lovely in spring.", T0 + 10),
        ("Which café in Alfama should she try first?",
         "Try Café da Garagem — the view is great.", T0 + 30),
        ("This is her cat Miso.", "What a fluffy cat!", T0 + 40),
        ("[attached: image]", "A tram climbing a hill.", T0 + 50),
        ("Écris « bonjour » en japonais, s'il te plaît.", "こんにちは (konnichiwa)", T0 + 86400),
    ]
    body = json.dumps([e["user"] + e["reply"] for e in eps])
    assert "OLD BRANCH" not in body and "REGENERATED" not in body and "Results:" not in body
    first = eps[0]
    assert first["source"] == "chatgpt" and first["title"] == "Ana in Lisbon"
    came = first["meta"].pop("imported_at")  # when it came into this store (forgetting)
    assert time.time() - 600 < came <= time.time()
    assert first["meta"] == {"source": "chatgpt", "file": "conversations.json",
                             "conversation_id": "conv-ana", "conversation_title": "Ana in Lisbon",
                             "message_id": "u1", "reply_id": "a1", "reply_at": T0 + 12,
                             "model": "gpt-4o"}
    assert eps[2]["meta"]["attachments"] == ["miso.jpg"]
    assert eps[4]["title"] == "Ünïcødé 日本語"
    # one HeLa conversation per conversation that held an exchange, with its transcript
    convs = store.conversations()
    assert sorted(c["title"] for c in convs) == ["Ana in Lisbon", "Ünïcødé 日本語"]
    ana = next(c for c in convs if c["title"] == "Ana in Lisbon")
    assert (ana["created_at"], ana["updated_at"]) == (T0, T0 + 61)
    msgs = store.messages(ana["id"])
    assert [m["role"] for m in msgs] == ["user", "assistant"] * 4
    assert msgs[1]["episode_id"] is not None and msgs[0]["episode_id"] is None
    # consecutive exchanges of a conversation are joined by the temporal prior, no more
    edges = store.conn.execute("SELECT weight, prior, count FROM edges").fetchall()
    assert edges == [(0.0, 0.5, 0)] * 3
    # what the report says
    d = rep.details
    assert (d["source"], d["conversations"], d["exchanges"]) == ("chatgpt", 2, 5)
    assert d["first"] == "2023-11-14" and d["last"] == "2023-11-15"
    reasons = d["skipped_reasons"]
    assert reasons["system message"] == 2 and reasons["tool message"] == 1
    assert reasons["call to a tool"] == 1 and reasons["reasoning"] == 1
    assert reasons["custom instructions"] == 1 and reasons["message on another branch"] == 3
    assert reasons["exchange without words from the user"] == 1
    assert reasons["conversation without exchanges"] == 1
    assert reasons["non-text part"] == 2
    assert d["skipped"] == sum(reasons.values())
    assert rep.embedded == 5 and rep.embed_seconds > 0
    store.close()


def test_forgetting_counts_an_imported_memory_idle_from_its_import(tmp_path, embedder):
    """Years-old history is new to this store: the first idle reflection after an import
    archived nearly all of it as "not accessed for 700 days"."""
    from hela_desktop.forgetting import SECONDS_PER_DAY, forget

    path = write_json(tmp_path / "conversations.json", chatgpt_export())
    with Store(tmp_path / "data") as store:
        import_file(store, path, embedder=embedder)
        live = store.count_episodes()
        assert forget(store).archived == [] and store.count_episodes() == live
        # the rule itself is unchanged: a month after the import, unrecalled questions go
        later = forget(store, dry_run=True, now=time.time() + 31 * SECONDS_PER_DAY)
        labels = [a["label"] for a in later.archived]
        assert "Which café in Alfama should she try first?" in labels
        assert all(a["idle_days"] < 32 for a in later.archived)
        # and a stored meta that is not an object, or an odd imported_at, reads as none
        store.conn.execute("UPDATE episodes SET meta = 'not json' WHERE id = 1")
        store.conn.execute("""UPDATE episodes SET meta = '{"imported_at": "soon"}' WHERE id = 2""")
        idle = {c.id: c.seen_at for c in store.forgetting_candidates()}
        assert idle[1] < T0 + 86400 * 2 and idle[2] < T0 + 86400 * 2


def test_chatgpt_zip_is_recognised_and_matches_its_json(tmp_path, embedder):
    conv = chatgpt_export()
    z = tmp_path / "0a1b2c-2024-05-01-12-00-00.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("chat.html", "<html></html>")
        zf.writestr("user.json", json.dumps({"id": "user-1", "email": "me@example.com"}))
        zf.writestr("message_feedback.json", "[]")
        zf.writestr("conversations.json", json.dumps(conv))
    store, rep = import_twice(tmp_path, z, embedder)
    assert rep.kind == "chatgpt" and rep.details["exchanges"] == 5
    assert episodes(store)[0]["meta"]["file"] == f"{z.name}/conversations.json"
    # the same export as a bare conversations.json is already there: nothing new
    again = import_file(store, write_json(tmp_path / "conversations.json", conv),
                        embedder=embedder)
    assert again.added["episodes"] == 0 and again.added["conversations"] == 0
    store.close()


def test_dry_run_json_from_the_command_line(tmp_path):
    """A dry run writes nothing to disk: into a data folder that does not exist it creates
    neither the folder nor a memory file (it used to write a 110 KB memory.sqlite3), into an
    empty folder no memory file; and it reports what the real import then adds."""
    path = write_json(tmp_path / "conversations.json", chatgpt_export())
    notes = tmp_path / "notes.md"
    notes.write_text("# Bees\n\nI keep two hives of bees.\n")
    data, empty = tmp_path / "data", tmp_path / "empty"
    empty.mkdir()
    env = dict(os.environ, HF_HUB_OFFLINE="1")

    def cli(*args):
        return subprocess.run(
            [sys.executable, "-m", "hela_desktop.cli", "import", *map(str, args)],
            capture_output=True, text=True, env=env, timeout=300,
            cwd=Path(__file__).resolve().parents[1])

    out = cli(path, "--dry-run", "--json", "--data-dir", data)
    assert out.returncode == 0, out.stderr
    rep = json.loads(out.stdout)
    assert rep["source"] == "chatgpt" and rep["conversations"] == 2
    assert rep["exchanges"] == 5 and rep["skipped"] == sum(rep["skipped_reasons"].values())
    assert rep["dry_run"] is True and rep["added"]["episodes"] == 5
    assert rep["first"] == "2023-11-14" and rep["last"] == "2023-11-15"
    assert not data.exists()
    out = cli(notes, "--dry-run", "--data-dir", empty)
    assert out.returncode == 0 and "would import" in out.stdout, out.stderr
    assert list(empty.iterdir()) == []
    out = cli(path, "--json", "--data-dir", data)  # the real import adds what was said
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["added"] == rep["added"]
    with Store(data) as store:
        assert counts(store)["episodes"] == 5


def test_cli_prints_progress_and_refuses_with_one_line(tmp_path, embedder, capsys, monkeypatch):
    monkeypatch.setattr("hela_desktop.embedder.Embedder", lambda *a, **k: embedder)
    path = write_json(tmp_path / "conversations.json", chatgpt_export())
    assert run_cli(tmp_path / "d", "import", str(path), "--progress") == 0
    cap = capsys.readouterr()
    assert "ChatGPT export: 2 conversations, 5 exchanges" in cap.out
    assert "reading:" in cap.err and "embedding:" in cap.err and "per s" in cap.err
    bad = tmp_path / "bad.json"
    bad.write_bytes(path.read_bytes()[:700])
    assert run_cli(tmp_path / "d", "import", str(bad)) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {bad}: ")


# ------------------------------------------------------------------------- Claude -----
def claude_export() -> list[dict]:
    def msg(uid, sender, text, at, parent=None, content=None, attachments=(), files=()):
        m = {"uuid": uid, "text": text, "content": content if content is not None else
             [{"start_timestamp": at, "stop_timestamp": at, "type": "text", "text": text,
               "citations": []}],
             "sender": sender, "created_at": at, "updated_at": at,
             "attachments": list(attachments), "files": list(files)}
        if parent is not None:
            m["parent_message_uuid"] = parent
        return m

    root = "00000000-0000-4000-8000-000000000000"
    return [{
        "uuid": "c-0001", "name": "Planning the garden",
        "created_at": "2024-03-01T09:00:00.000000Z", "updated_at": "2024-03-01T09:10:00Z",
        "account": {"uuid": "acct-1"}, "current_leaf_message_uuid": "m6",
        "chat_messages": [
            msg("m1", "human", "I grow tomatoes and basil on my balcony.",
                "2024-03-01T09:00:05Z", root,
                attachments=[{"file_name": "balcony-plan.txt", "file_size": 120,
                              "file_type": "text/plain",
                              "extracted_content": "3 pots, south facing"}]),
            msg("m2", "assistant", "Basil loves the sun next to tomatoes.",
                "2024-03-01T09:00:09Z", "m1"),
            # an edited question: m3 was replaced by m5 (same parent)
            msg("m3", "human", "Should I add mint?", "2024-03-01T09:01:00Z", "m2"),
            msg("m4", "assistant", "ANSWER ON THE ABANDONED BRANCH", "2024-03-01T09:01:05Z",
                "m3"),
            msg("m5", "human", "Should I add mint or rosemary?", "2024-03-01T09:02:00Z", "m2",
                files=[{"file_name": "photo.png"}]),
            msg("m6", "assistant", "", "2024-03-01T09:02:09Z", "m5", content=[
                {"type": "thinking", "thinking": "The user asks about herbs..."},
                {"type": "tool_use", "name": "web_search", "input": {"query": "mint pots"}},
                {"type": "tool_result", "content": [{"type": "text", "text": "..."}]},
                {"type": "text", "text": "Rosemary — mint spreads and takes over."}]),
        ]}, {
        "uuid": "c-0002", "name": "", "created_at": "2024-03-02T10:00:00Z",
        "updated_at": "2024-03-02T10:00:00Z", "account": {"uuid": "acct-1"},
        "chat_messages": [
            msg("n1", "human", "", "2024-03-02T10:00:01Z", content=[]),
            msg("n2", "human", "Ma fille s'appelle Zoë 👧", "2024-03-02T10:00:05Z"),
            msg("n3", "assistant", "Quel joli prénom !", "2024-03-02T10:00:07Z"),
        ]}]


def test_claude_export_branches_blocks_and_attachments(tmp_path, embedder):
    path = write_json(tmp_path / "conversations.json", claude_export())
    store, rep = import_twice(tmp_path, path, embedder)
    eps = episodes(store)
    assert [(e["user"], e["reply"]) for e in eps] == [
        ("I grow tomatoes and basil on my balcony.", "Basil loves the sun next to tomatoes."),
        ("Should I add mint or rosemary?", "Rosemary — mint spreads and takes over."),
        ("Ma fille s'appelle Zoë 👧", "Quel joli prénom !"),
    ]
    assert eps[0]["at"] == pytest.approx(1709283605.0)
    assert eps[0]["meta"]["attachments"] == ["balcony-plan.txt"]
    assert eps[1]["meta"]["attachments"] == ["photo.png"]
    assert "3 pots" not in json.dumps([e["user"] for e in eps])
    assert eps[0]["meta"]["conversation_id"] == "c-0001" and eps[0]["source"] == "claude"
    assert eps[2]["title"] == "Imported chat"
    r = rep.details["skipped_reasons"]
    assert r["message on another branch"] == 2 and r["thinking"] == 1
    assert r["tool use"] == 1 and r["tool result"] == 1 and "empty message" not in r
    store.close()


def claude_artifacts_export() -> list[dict]:
    """A chat in which Claude wrote code in an artifact, changed it twice (in a later answer),
    wrote a Markdown document with a code block in it, and changed text it no longer had."""
    def msg(uid, sender, at, parent, blocks):
        return {"uuid": uid, "text": "", "content": blocks, "sender": sender, "created_at": at,
                "updated_at": at, "attachments": [], "files": [], "parent_message_uuid": parent}

    def art(**inp):
        return {"type": "tool_use", "name": "artifacts", "input": inp}

    def said(text):
        return {"type": "text", "text": text}

    root = "00000000-0000-4000-8000-000000000000"
    code = "def area(r):\n    return 3.14 * r * r\n"
    doc = "# Plan\n\nRun it:\n\n```sh\npython area.py\n```\n"
    return [{"uuid": "c-art", "name": "Circle area", "created_at": "2024-05-01T10:00:00Z",
             "updated_at": "2024-05-01T10:09:00Z", "current_leaf_message_uuid": "a3",
             "chat_messages": [
                 msg("u1", "human", "2024-05-01T10:00:00Z", root,
                     [said("Write a function for the area of a circle.")]),
                 msg("a1", "assistant", "2024-05-01T10:00:05Z", "u1", [
                     said("Here it is:"),
                     art(command="create", id="area", type="application/vnd.ant.code",
                         language="python", title="Circle area", content=code,
                         version_uuid="v1"),
                     {"type": "tool_result", "name": "artifacts", "content": [said("OK")]},
                     said("It uses 3.14 for pi.")]),
                 msg("u2", "human", "2024-05-01T10:05:00Z", "a1",
                     [said("Use math.pi, and write a plan.")]),
                 msg("a2", "assistant", "2024-05-01T10:05:05Z", "u2", [
                     art(command="update", id="area", old_str="3.14", new_str="math.pi",
                         version_uuid="v2"),
                     art(command="update", id="area", old_str="def area",
                         new_str="import math\n\n\ndef area", version_uuid="v3"),
                     art(command="create", id="plan", type="text/markdown", title="Plan",
                         content=doc),
                     art(command="view", id="area"),
                     {"type": "tool_use", "name": "web_search", "input": {"query": "pi"}},
                     said("Done.")]),
                 msg("u3", "human", "2024-05-01T10:08:00Z", "a2", [said("Rename r.")]),
                 msg("a3", "assistant", "2024-05-01T10:08:05Z", "u3", [
                     art(command="update", id="area", old_str="(radius)", new_str="(x)")]),
             ]}]


def test_claude_artifacts_are_kept_in_the_answers(tmp_path, embedder):
    """Code and documents Claude wrote in artifacts come in as Markdown in the answer that
    wrote them: the title, then the artifact as that answer left it in a fence of its
    language (updates applied to the earlier answer's artifact); a change whose old text is
    not there is a note with the new text; viewing an artifact and other tools are left out."""
    path = write_json(tmp_path / "conversations.json", claude_artifacts_export())
    store, rep = import_twice(tmp_path, path, embedder)
    eps = episodes(store)
    assert [e["user"] for e in eps] == ["Write a function for the area of a circle.",
                                        "Use math.pi, and write a plan.", "Rename r."]
    assert eps[0]["reply"] == ("Here it is:\n\n**Circle area**\n\n```python\n"
                               "def area(r):\n    return 3.14 * r * r\n```\n\n"
                               "It uses 3.14 for pi.")
    assert eps[1]["reply"] == (
        "**Circle area**\n\n```python\nimport math\n\n\ndef area(r):\n"
        "    return math.pi * r * r\n```\n\n"
        "**Plan**\n\n````markdown\n# Plan\n\nRun it:\n\n```sh\npython area.py\n```\n"
        "````\n\nDone.")
    assert eps[2]["reply"] == ("**Circle area** (a change whose earlier text was not found; "
                               "the new text):\n\n```python\n(x)\n```")
    shown = [r[0] for r in store.conn.execute(
        "SELECT content FROM messages WHERE role = 'assistant' ORDER BY id")]
    assert shown == [e["reply"] for e in eps]  # the chat shows what the memory holds
    r = rep.details["skipped_reasons"]
    assert r["tool use"] == 2 and r["tool result"] == 1  # the view and the web search
    store.close()


def test_a_hostile_artifact_title_or_language_cannot_reshape_the_answer():
    """An artifact's title is shown in bold and its language opens the code fence: a title
    with lines or asterisks, or a "language" that goes on past its word, cannot end the
    bold, close the fence or write Markdown of its own (the content stays whole, fenced)."""
    from hela_desktop.importers.claude import Artifacts

    arts = Artifacts()
    aid, _ = arts.apply({"command": "create", "id": "x", "content": "print(1)",
                         "title": "Plan**\n\n# Injected\n**", "language": "python\n```\n**no**"},
                        "artifact")
    assert arts.shown(aid or "") == "**Plan # Injected**\n\n```python\nprint(1)\n```"
    aid, _ = arts.apply({"command": "create", "id": "y", "content": "a",
                         "title": " \n ", "language": "```"}, "artifact")
    assert arts.shown(aid or "") == "**Artifact**\n\n```\na\n```"
    aid, _ = arts.apply({"command": "create", "id": "z", "content": "b", "title": "T" * 500,
                         "language": "  c++  "}, "artifact")
    assert arts.shown(aid or "") == f"**{'T' * 200}**\n\n```c++\nb\n```"


def claude_files_export() -> list[dict]:
    """A chat of claude.ai's "create files" era, its file work as the real export holds it
    (tool names and inputs as exporters and parsers of real exports read them: ``create_file``
    with ``path``, ``description``, ``file_text``; ``str_replace`` with ``path``,
    ``old_str``, ``new_str``; ``view``, ``bash_tool``, ``present_files``; each followed by
    its ``tool_result``)."""
    def use(name, **inp):
        return {"type": "tool_use", "id": f"toolu_{name}", "name": name, "input": inp}

    def result(name, text):
        return {"type": "tool_result", "tool_use_id": f"toolu_{name}", "name": name,
                "content": [{"type": "text", "text": text}], "is_error": False}

    def said(text):
        return {"type": "text", "text": text}

    out = "/mnt/user-data/outputs/"
    code = "def area(r):\n    return 3.14 * r * r\n"
    msgs = [
        ("u1", "human", [said("Write area.py and a README for it.")]),
        ("a1", "assistant", [
            said("Here they are."),
            use("create_file", path=out + "area.py", description="Circle area", file_text=code),
            result("create_file", f"File created successfully: {out}area.py"),
            use("bash_tool", command="python3 area.py", description="Run it"),
            result("bash_tool", '{"returncode":0,"stdout":"","stderr":""}'),
            use("create_file", path=out + "README.md", file_text="# Area\n\n```sh\nrun\n```\n"),
            use("present_files", filepaths=[out + "area.py", out + "README.md"]),
            said("Both are ready.")]),
        ("u2", "human", [said("Use math.pi.")]),
        ("a2", "assistant", [
            use("view", path=out + "area.py"),
            result("view", code),
            use("str_replace", path=out + "area.py", old_str="3.14", new_str="math.pi"),
            result("str_replace", "Successfully replaced string"),
            use("str_replace", path=out + "area.py", old_str="def area",
                new_str="import math\n\n\ndef area"),
            use("str_replace", path="/home/claude/notes.txt", old_str="a", new_str="b"),
            said("Done.")]),
    ]
    return [{"uuid": "c-files", "name": "Area", "created_at": "2025-11-01T10:00:00Z",
             "updated_at": "2025-11-01T10:05:00Z", "chat_messages": [
                 {"uuid": uid, "text": "", "content": blocks, "sender": sender,
                  "created_at": f"2025-11-01T10:0{i}:00Z", "attachments": [], "files": []}
                 for i, (uid, sender, blocks) in enumerate(msgs)]}]


def test_claude_file_tools_are_kept_in_the_answers_like_artifacts(tmp_path, embedder):
    """The files Claude wrote with its newer file tools come in as its artifacts do: the
    file's name in bold, then its content in a fence of its extension's language; a later
    ``str_replace`` is applied to the content it had (that answer shows the file as it left
    it); one on a file this chat never created is a note with the new text; viewing,
    running and presenting files are left out and counted as tool use."""
    path = write_json(tmp_path / "conversations.json", claude_files_export())
    store, rep = import_twice(tmp_path, path, embedder)
    eps = episodes(store)
    assert [e["user"] for e in eps] == ["Write area.py and a README for it.", "Use math.pi."]
    assert eps[0]["reply"] == (
        "Here they are.\n\n**area.py**\n\n```python\ndef area(r):\n"
        "    return 3.14 * r * r\n```\n\n**README.md**\n\n````markdown\n# Area\n\n"
        "```sh\nrun\n```\n````\n\nBoth are ready.")
    assert eps[1]["reply"] == (
        "**area.py**\n\n```python\nimport math\n\n\ndef area(r):\n"
        "    return math.pi * r * r\n```\n\n"
        "**notes.txt** (a change whose earlier text was not found; the new text):\n\n"
        "```text\nb\n```\n\nDone.")
    r = rep.details["skipped_reasons"]
    assert r["tool use"] == 3 and r["tool result"] == 4  # bash_tool, present_files, view
    store.close()


def test_a_hostile_file_path_cannot_reshape_the_answer():
    """A created file's path names it in bold and its extension opens the fence: a path with
    lines, backticks or asterisks, 10 kB long, or an extension that is not a word, cannot
    end the bold, open code of its own or close the fence (the chat's own formatter shows
    the name in bold, and the content, whole, in one code block, after it)."""
    from hela_desktop.importers.claude import Artifacts, file_call
    from hela_desktop.ui.markdown_stream import format_all

    arts = Artifacts()
    hostile = "/x/" + "a`b**\n\n# Injected\n```\n" * 500 + "c`d.py`\n```"
    assert len(hostile) > 10_000
    aid, _ = arts.apply(file_call("create_file", {"path": hostile, "file_text": "x = 1\n"}),
                        "artifact")
    shown = arts.shown(aid or "")
    head, body = shown.split("\n\n", 1)
    assert "\n" not in head and "`" not in head and head.count("**") == 2
    assert len(head) <= 204 and body == "```\nx = 1\n```"
    segments = format_all([(shown, 0)])
    assert "".join(t for t, st, _ in segments if st.bold).startswith("a b # Injected")
    assert [t for t, st, _ in segments if st.block] == ["x = 1\n"]
    assert not any(st.code or (st.bold and st.block) for _, st, _ in segments)
    aid, _ = arts.apply(file_call("create_file", {"path": "notes.md`x", "file_text": "a"}), "k")
    assert arts.shown(aid or "") == "**notes.md x**\n\n```\na\n```"  # "md`x": no language
    assert file_call("create_file", {"path": "", "file_text": "a"}) is None
    assert file_call("str_replace", "not an object") == "not an object"


def test_claude_artifact_edits_do_not_multiply_a_large_artifact(tmp_path, embedder):
    """Many small edits of a large artifact do not copy it whole into every answer without
    bound: past the conversation's budget an answer shows the change alone."""
    from hela_desktop.importers.claude import Artifacts

    big = "x = 0\n" * 100_000  # 600,000 characters
    msgs = [{"uuid": "u0", "sender": "human", "text": "Write it.", "created_at": T0},
            {"uuid": "a0", "sender": "assistant", "created_at": T0 + 1, "content": [
                {"type": "tool_use", "name": "artifacts",
                 "input": {"command": "create", "id": "big", "title": "Big", "content": big}}]}]
    for i in range(1, 41):
        msgs += [{"uuid": f"u{i}", "sender": "human", "text": f"Change line {i}.",
                  "created_at": T0 + 10 * i},
                 {"uuid": f"a{i}", "sender": "assistant", "created_at": T0 + 10 * i + 1,
                  "content": [{"type": "tool_use", "name": "artifacts", "input": {
                      "command": "update", "id": "big", "old_str": "x = 0\n",
                      "new_str": f"x = {i}\n"}}]}]
    path = write_json(tmp_path / "conversations.json",
                      [{"uuid": "c-big", "name": "Big", "chat_messages": msgs}])
    store, _ = import_twice(tmp_path, path, embedder)
    replies = [e["reply"] for e in episodes(store)]
    whole = [r for r in replies if len(r) > len(big)]
    budget = Artifacts.AMPLIFY * (len(big) + 40 * 6) + Artifacts.SPARE
    assert 10 < len(whole) < 41 and sum(map(len, replies)) < budget + 2 * len(big)
    assert replies[-1] == "**Big** (changed; the new text):\n\n```\nx = 40\n```"
    assert "x = 1\n" in whole[1] and whole[1].count("x = 0\n") == len(big) // 6 - 1
    store.close()


def test_a_huge_imported_artifact_does_not_hold_up_the_next_turn(tmp_path, make_assistant):
    """Continuing an imported chat whose last answer holds a 1,900,000-character artifact:
    the chat's history was fitted to the model's context by tokenizing all of it once per
    exchange dropped, 45 s before the answer began, and then none of the chat was kept
    (the huge answer is the newest).  It is now cut to its start, at half the room, before
    anything is tokenized: the newest exchanges are kept, oldest dropped first."""
    code = "def parse_line(line):\n    return [f.strip() for f in line.split(',')]\n\n"
    msgs = []
    for i in range(30):
        blocks = [{"type": "text", "text": f"Step {i} is done."}]
        if i == 29:
            blocks.append({"type": "tool_use", "name": "artifacts", "input": {
                "command": "create", "id": "p", "title": "Parser", "language": "python",
                "content": (code * (1_900_000 // len(code) + 1))[:1_900_000]}})
        msgs += [{"uuid": f"u{i}", "sender": "human", "text": f"What is step {i} of my parser?",
                  "created_at": T0 + 60 * i},
                 {"uuid": f"a{i}", "sender": "assistant", "created_at": T0 + 60 * i + 5,
                  "content": blocks}]
    path = write_json(tmp_path / "conversations.json",
                      [{"uuid": "c-p", "name": "Parser", "chat_messages": msgs}])
    from hela_desktop.config import Settings

    a = make_assistant(tmp_path / "data", s=Settings(history_exchanges=-1))  # as many as fit
    import_file(a.store, path, embedder=a.embedder)
    conv = a.store.conversations()[0]["id"]
    seen: list[int] = []
    tokenize = a.llm.tokenize
    a.llm.tokenize = lambda text, *k, **kw: seen.append(len(text)) or tokenize(text, *k, **kw)
    history = a._fit_history(conv, "What does parse_line return?")
    assert max(seen, default=0) < 100_000  # (it tokenized the 1,900,000 characters 33 times)
    assert history[-2]["content"] == "What is step 29 of my parser?"  # (it kept none)
    answer = history[-1]["content"]
    assert answer.startswith("Step 29 is done.\n\n**Parser**\n\n```python\ndef parse_line")
    assert answer.endswith(" …") and len(answer) < 10_000
    assert [m["content"] for m in history[:-2]] == [  # and the exchanges before it, newest
        t for i in range(30 - len(history) // 2, 29)  # first, as many as fit
        for t in (f"What is step {i} of my parser?", f"Step {i} is done.")]
    assert len(history) > 2
    a.llm.tokenize = tokenize
    a.store.add_message(conv, "user", "And step 30?")
    a.store.add_message(conv, "assistant", "Step 30 is the tests.")
    later = [m["content"] for m in a._fit_history(conv, "Next?")]
    assert later[-4:-2] == ["What is step 29 of my parser?", answer]
    assert later[-2:] == ["And step 30?", "Step 30 is the tests."]


# --------------------------------------------------------------------- Open WebUI -----
def openwebui_export() -> list[dict]:
    def m(mid, parent, children, role, content, ts, **extra):
        return {"id": mid, "parentId": parent, "childrenIds": children, "role": role,
                "content": content, "timestamp": ts, **extra}

    msgs = {
        "s": m("s", None, ["u1"], "system", "You are a helpful assistant.", 1712000000),
        "u1": m("u1", "s", ["a1", "a1b"], "user", "I run 10 km every Sunday morning.",
                1712000001, models=["llama3:8b"],
                files=[{"type": "file", "name": "route.gpx"}]),
        "a1": m("a1", "u1", [], "assistant", "FIRST ATTEMPT", 1712000002, model="llama3:8b",
                done=True),
        "a1b": m("a1b", "u1", ["u2"], "assistant",
                 '<details type="reasoning" done="true" duration="2">\n<summary>Thought for 2 '
                 'seconds</summary>\n> long thoughts\n</details>\nGreat habit — keep hydrated!',
                 1712000003, model="llama3:8b", done=True),
        "u2": m("u2", "a1b", ["a2"], "user", "What should I eat before?", 1712000010),
        "a2": m("a2", "u2", [], "assistant", "A banana about an hour before.", 1712000011,
                model="llama3:8b"),
    }
    chat = {"id": "", "title": "Sunday runs", "models": ["llama3:8b"], "params": {},
            "history": {"messages": msgs, "currentId": "a2"},
            "messages": list(msgs.values()), "tags": [], "timestamp": 1712000000123,
            "files": []}
    return [{"id": "7f3c-chat", "user_id": "u-1", "title": "Sunday runs", "chat": chat,
             "updated_at": 1712000011, "created_at": 1712000000, "share_id": None,
             "archived": False, "pinned": False, "meta": {"tags": []}, "folder_id": None}]


def test_openwebui_export_follows_current_id(tmp_path, embedder):
    path = write_json(tmp_path / "chat-export-1712000100.json", openwebui_export())
    store, rep = import_twice(tmp_path, path, embedder)
    eps = episodes(store)
    assert [(e["user"], e["reply"], e["at"]) for e in eps] == [
        ("I run 10 km every Sunday morning.", "Great habit — keep hydrated!", 1712000001.0),
        ("What should I eat before?", "A banana about an hour before.", 1712000010.0)]
    assert eps[0]["meta"]["model"] == "llama3:8b"
    assert eps[0]["meta"]["attachments"] == ["route.gpx"]
    assert rep.kind == "openwebui" and eps[0]["title"] == "Sunday runs"
    r = rep.details["skipped_reasons"]
    assert r["message on another branch"] == 1 and r["system message"] == 1
    assert r["reasoning or tool block"] == 1
    store.close()


def test_a_question_asked_again_across_chats_is_one_memory(tmp_path, embedder):
    """As in the app: a question, request or thanks asked again word for word shares the
    first one's memory (its messages link to it); a statement said again is a new memory."""
    def m(mid, parent, children, role, content, ts):
        return {"id": mid, "parentId": parent, "childrenIds": children, "role": role,
                "content": content, "timestamp": ts}

    def chat(cid, turns, t0):
        msgs, prev = {}, None
        for i, (role, text) in enumerate(turns):
            mid = f"{cid}-{i}"
            nxt = [f"{cid}-{i + 1}"] if i + 1 < len(turns) else []
            msgs[mid] = m(mid, prev, nxt, role, text, t0 + i)
            prev = mid
        return {"id": cid, "user_id": "u-1", "title": cid, "updated_at": t0 + 9,
                "created_at": t0, "chat": {"title": cid, "history": {
                    "messages": msgs, "currentId": prev}, "messages": list(msgs.values())}}

    export = [
        chat("one", [("user", "What's a good stretch for tight hamstrings?"),
                     ("assistant", "Try a standing forward fold."), ("user", "Thanks!"),
                     ("assistant", "You're welcome."), ("user", "I'm vegan."),
                     ("assistant", "Noted.")], 1712000000),
        chat("two", [("user", "what's a good stretch for tight hamstrings"),
                     ("assistant", "A seated hamstring stretch."), ("user", "thanks"),
                     ("assistant", "Any time."), ("user", "I'm vegan."),
                     ("assistant", "Got it.")], 1712100000),
    ]
    path = write_json(tmp_path / "chat-export-1712200000.json", export)
    store, rep = import_twice(tmp_path, path, embedder)
    users = [e["user"] for e in episodes(store)]
    assert users == ["What's a good stretch for tight hamstrings?", "Thanks!", "I'm vegan.",
                     "I'm vegan."]
    d = rep.details
    assert (d["exchanges"], d["memories"], d["repeated"]) == (6, 4, 2)
    from hela_desktop.importers.base import describe

    assert describe(d).endswith("; 2 exchanges repeat an earlier question, request or thanks "
                                "word for word and share its memory")
    # every answer is kept; a repeat's is linked to the memory it repeats
    ids = [r[0] for r in store.conn.execute("SELECT id FROM episodes ORDER BY id")]
    linked = [r[0] for r in store.conn.execute(
        "SELECT episode_id FROM messages WHERE role = 'assistant' ORDER BY created_at")]
    assert linked == [ids[0], ids[1], ids[2], ids[0], ids[1], ids[3]]
    # the chains go around the repeats: one chat's three memories are linked in turn, the
    # other's one memory (its statement) to nothing of its own chat
    edges = {(a, b) for a, b in store.conn.execute("SELECT src, dst FROM edges WHERE prior >= 0.5")}
    assert {(ids[0], ids[1]), (ids[1], ids[2])} <= edges
    assert not {(ids[0], ids[3]), (ids[1], ids[3])} & edges
    store.close()


# ---------------------------------------------------------------------------- Jan -----
def jan_threads(root: Path) -> Path:
    threads = root / "jan" / "threads"
    t1 = threads / "jan_1714000000"
    t1.mkdir(parents=True)
    write_json(t1 / "thread.json", {
        "id": "jan_1714000000", "object": "thread", "title": "Learning Portuguese",
        "assistants": [{"assistant_id": "jan", "model": {"id": "llama3.2-3b-instruct"}}],
        "created": 1714000000000, "updated": 1714000100000, "metadata": {}})

    def line(mid, role, text, ms, thread="jan_1714000000", **extra):
        content = [{"type": "text", "text": {"value": text, "annotations": []}}] \
            if text is not None else []
        return json.dumps({"id": mid, "object": "thread.message", "thread_id": thread,
                           "assistant_id": "jan", "role": role, "content": content,
                           "status": "ready", "created_at": ms, "completed_at": ms,
                           "metadata": {}, "type": "Thread", **extra}, ensure_ascii=False)

    (t1 / "messages.jsonl").write_text("\n".join([
        line("01HX1", "user", "I am learning Portuguese for my move to Porto.", 1714000001000),
        line("01HX2", "assistant", "Boa sorte! Start with everyday greetings.", 1714000002000),
        line("01HX3", "user", "Como se diz 'thank you'?", 1714000003000),
        line("01HX4", "assistant", "Obrigado (or obrigada).", 1714000004000),
        line("01HX5", "assistant", None, 1714000005000),
    ]) + "\n", encoding="utf-8")
    t2 = threads / "jan_1714500000"  # an older version: no thread.json
    t2.mkdir()
    (t2 / "messages.jsonl").write_text(
        line("A1", "user", "Remind me: dentist on Friday", 1714500000, thread="jan_1714500000")
        + "\n", encoding="utf-8")
    (threads / ".DS_Store").write_bytes(b"\x00\x01")
    return root / "jan"


def test_jan_threads_folder_and_single_file(tmp_path, embedder):
    folder = jan_threads(tmp_path)
    store, rep = import_twice(tmp_path, folder, embedder)
    eps = episodes(store)
    assert [(e["user"], e["reply"], e["at"]) for e in eps] == [
        ("I am learning Portuguese for my move to Porto.",
         "Boa sorte! Start with everyday greetings.", 1714000001.0),
        ("Como se diz 'thank you'?", "Obrigado (or obrigada).", 1714000003.0),
        ("Remind me: dentist on Friday", "", 1714500000.0)]
    assert eps[0]["title"] == "Learning Portuguese" and eps[0]["source"] == "jan"
    assert rep.details["conversations"] == 2 and rep.details["skipped_reasons"] == {
        "empty message": 1}
    # one thread's messages.jsonl on its own is the same thread: nothing new
    again = import_file(store, folder / "threads" / "jan_1714000000" / "messages.jsonl",
                        embedder=embedder)
    assert again.kind == "jan" and again.added["episodes"] == 0
    store.close()


# -------------------------------------------------------------------------- notes -----
def vault(root: Path) -> Path:
    v = root / "vault"
    (v / ".obsidian").mkdir(parents=True)
    (v / ".obsidian" / "app.json").write_text("{}")
    (v / ".obsidian" / "hidden.md").write_text("# Not a note\n\nsettings")
    (v / "People").mkdir()
    (v / "People" / "Ana.md").write_text(
        "---\ntitle: Ana\ncreated: 2022-06-01\ntags:\n  - family\n  - lisbon\naliases: [sis]\n"
        "---\n"
        "Ana is my older sister.\n\n"
        "## Work\nShe is an architect at a studio in Lisbon.\n\n"
        "## Empty heading\n\n"
        "## Birthday\nHer birthday is on 12 March. See [[Gift ideas#For Ana|gifts]].\n",
        encoding="utf-8")
    (v / "Gift ideas.md").write_text(
        "# Gift ideas\n\n"
        "## For Ana\nA book on Álvaro Siza; she mentioned it in [[Ana]].\n\n"
        "```python\n# not a heading\nprint('x')\n```\n\n"
        "## For me\nNew running shoes ![[shoes.png]] and [[Nowhere]].\n",
        encoding="utf-8")
    (v / "latin1.md").write_bytes("caf\xe9".encode("latin-1"))
    (v / "shoes.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    os.utime(v / "Gift ideas.md", (T0, T0))
    return v


def test_notes_folder_sections_dates_and_links(tmp_path, embedder):
    v = vault(tmp_path)
    store, rep = import_twice(tmp_path, v, embedder)
    eps = episodes(store)
    by_head = {(e["meta"]["note"], e["meta"]["section"]): e for e in eps}
    assert sorted(by_head, key=lambda k: (k[0], k[1] or "")) == [("Ana", None), ("Ana", "Birthday"), ("Ana", "Work"),
                               ("Gift ideas", "For Ana"), ("Gift ideas", "For me")]
    work = by_head[("Ana", "Work")]
    assert work["user"] == "Ana › Work\n\nShe is an architect at a studio in Lisbon."
    assert work["reply"] == "" and work["source"] == "notes" and work["conv"] is None
    assert work["meta"]["file"] == "People/Ana.md" and work["meta"]["tags"] == ["family",
                                                                                "lisbon"]
    import datetime as dt
    assert work["at"] == dt.datetime(2022, 6, 1).timestamp()
    assert by_head[("Gift ideas", "For me")]["at"] == T0  # no front matter: file time
    assert "# not a heading" in by_head[("Gift ideas", "For Ana")]["user"]
    uid = {k: e["uid"] for k, e in by_head.items()}
    edges = {tuple(sorted((a, b))) for a, b in store.conn.execute(
        "SELECT a.uid, b.uid FROM edges JOIN episodes a ON a.id = src "
        "JOIN episodes b ON b.id = dst WHERE prior > 0")}
    want = {
        # sections in a row
        (uid[("Ana", None)], uid[("Ana", "Work")]),
        (uid[("Ana", "Work")], uid[("Ana", "Birthday")]),
        (uid[("Gift ideas", "For Ana")], uid[("Gift ideas", "For me")]),
        # [[Gift ideas#For Ana|gifts]] and [[Ana]]
        (uid[("Ana", "Birthday")], uid[("Gift ideas", "For Ana")]),
        (uid[("Gift ideas", "For Ana")], uid[("Ana", None)]),
    }
    assert edges == {tuple(sorted(p)) for p in want}
    d = rep.details
    assert d["notes"] == 2 and d["memories"] == 5 and d["links"] == 2
    # ("# Gift ideas" over its "## For Ana" holds it: not left out; "## Empty heading" is)
    assert d["skipped_reasons"] == {"empty section": 1, "file not in UTF-8": 1,
                                    "link to a note not in the folder": 1}
    store.close()


def test_the_apps_own_markdown_chat_export_comes_back_as_the_chat(tmp_path, embedder):
    """File ▸ Export chat as Markdown, imported: the user's words are the memories, each
    answer stays beside its question (never a memory of its own), times and title kept."""
    from hela_desktop.chat_export import messages_markdown

    t = 1_764_590_400.0  # 2025-12-01 12:00 UTC, on a minute (the export keeps minutes)
    msgs = [
        {"role": "user", "content": "My dog is called Pixel.", "created_at": t},
        {"role": "assistant", "content": "**Pixel** is a lovely name.\n\n- a list\n",
         "created_at": t + 60},
        {"role": "user", "content": "Where does my sister live?", "created_at": t + 120},
        {"role": "assistant", "content": "Lisbon, you told me.", "created_at": t + 180,
         "interrupted": True},
        {"role": "user", "content": "Thanks!", "created_at": t + 240},
    ]
    f = tmp_path / "notes-from-hela.txt"  # recognised from its content, not its name
    f.write_text(messages_markdown("Pixel & Ana", msgs), encoding="utf-8")
    store, rep = import_twice(tmp_path, f, embedder)
    eps = episodes(store)
    assert [(e["user"], e["reply"]) for e in eps] == [
        ("My dog is called Pixel.", "**Pixel** is a lovely name.\n\n- a list"),
        ("Where does my sister live?", "Lisbon, you told me."),
        ("Thanks!", "")]
    assert {e["source"] for e in eps} == {"hela-chat"} and {e["title"] for e in eps} == \
        {"Pixel & Ana"}
    import datetime as dt
    local = dt.datetime.fromtimestamp(t).replace(second=0, microsecond=0).timestamp()
    assert [e["at"] for e in eps] == [local, local + 120, local + 240]
    text = " ".join(r[0] for r in store.conn.execute("SELECT user_text FROM episodes"))
    assert "HeLa" not in text and "Exported" not in text and "lovely" not in text
    assert rep.details["conversations"] == 1 and rep.details["exchanges"] == 3
    store.close()


def test_a_note_headed_by_its_own_title_names_it_once(tmp_path, embedder):
    """Garden.md opening with "# Garden" became "Garden › Garden\n\nTomatoes…"."""
    v = tmp_path / "notes"
    v.mkdir()
    (v / "Garden.md").write_text("# Garden\nTomatoes and basil.\n\n## Pests\nAphids.\n")
    (v / "2024-03-01.md").write_text("# 2024-03-01\nRan 5 km.\n")
    with Store(tmp_path / "data") as store:
        import_file(store, v, embedder=embedder)
        got = {e["user"]: e["meta"]["section"] for e in episodes(store)}
    assert got == {"Garden\n\nTomatoes and basil.": "Garden", "Garden › Pests\n\nAphids.": "Pests",
                   "2024-03-01\n\nRan 5 km.": "2024-03-01"}


def test_a_chat_of_one_message_is_exported_as_one_message_and_comes_back(tmp_path, embedder):
    """doc15 (pass 15): the export of a chat with one message read "1 messages."."""
    from hela_desktop.chat_export import messages_markdown

    text = messages_markdown("Quick one", [{"role": "user", "content": "My cat is Miso.",
                                            "created_at": 1_764_590_400.0}])
    assert "; 1 message.*" in text.splitlines()[2]
    f = tmp_path / "quick.md"
    f.write_text(text, encoding="utf-8")
    store, _ = import_twice(tmp_path, f, embedder)
    assert [(e["user"], e["source"]) for e in episodes(store)] == [("My cat is Miso.", "hela-chat")]
    store.close()


def test_the_readable_memory_export_is_refused_and_notes_leave_both_out(tmp_path, embedder):
    """The Markdown memory export shows answers beside the user's words: imported as text
    every answer would become something the user said, so it is refused (pointing to the
    .hela file), and a notes folder holding either export leaves it out, counted."""
    from hela_desktop.chat_export import messages_markdown
    from hela_desktop.memfile import export_store

    with Store(tmp_path / "src") as src:
        src.add_episode("I'm allergic to penicillin.", "Pentacarbism is a rare condition.",
                        None, created_at=T0)
        export_store(src, tmp_path / "memories.md", fmt="markdown")
    msg = assert_refused(tmp_path, tmp_path / "memories.md", "readable Markdown export",
                         "import the .hela memory file instead")
    assert "penicillin" not in msg
    # from the command line into a folder that did not exist: refused (exit 2), and the
    # folder it made for the import (memory file, lock file) is not left behind
    fresh = tmp_path / "fresh"
    proc = subprocess.run([sys.executable, "-m", "hela_desktop", "--data-dir", str(fresh),
                           "import", str(tmp_path / "memories.md")],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert proc.returncode == 2 and "readable Markdown export" in proc.stderr
    assert not fresh.exists()
    v = tmp_path / "vault"
    v.mkdir()
    (v / "memories.md").write_bytes((tmp_path / "memories.md").read_bytes())
    (v / "chat.md").write_text(messages_markdown("A chat", [
        {"role": "user", "content": "Hello", "created_at": T0},
        {"role": "assistant", "content": "Hi, I am your assistant.", "created_at": T0}]),
        encoding="utf-8")
    (v / "Ana.md").write_text("Ana is my older sister.\n", encoding="utf-8")
    store, rep = import_twice(tmp_path, v, embedder)
    assert [e["user"] for e in episodes(store)] == ["Ana\n\nAna is my older sister."]
    assert rep.details["skipped_reasons"] == {"HeLa Desktop export": 2}
    store.close()


# -------------------------------------------------------------- refusal and cancel ----
def test_corrupted_and_hostile_files_are_refused(tmp_path):
    good = json.dumps(chatgpt_export()).encode()
    cases: dict[str, tuple[bytes, tuple[str, ...]]] = {
        "truncated.json": (good[: len(good) // 2], ("not valid JSON",)),
        "unclosed.json": (good[:-1], ("truncated JSON",)),
        "latin1.json": (good.replace(b"\\u00e9", "\xe9".encode("latin-1"))
                        .replace("é".encode(), "\xe9".encode("latin-1")), ("UTF-8",)),
    }
    conv = chatgpt_export()
    conv[0]["mapping"]["u1"]["parent"] = "a5"  # a loop in the tree
    cases["cycle.json"] = (json.dumps(conv).encode(), ("cycle", "conversation 1"))
    conv = chatgpt_export()
    conv[1]["mapping"] = ["not", "an", "object"]
    cases["mapping.json"] = (json.dumps(conv).encode(), ("'mapping'", "conversation 2"))
    conv = chatgpt_export()
    conv[0]["current_node"] = "nowhere"
    cases["current.json"] = (json.dumps(conv).encode(), ("current_node",))
    conv = chatgpt_export()
    conv.append("a string among conversations")
    cases["item.json"] = (json.dumps(conv).encode(), ("conversation 4",))
    deep = b'[{"mapping": {}, "current_node": null, "id": "x", "title": ' + b"[" * 100_000 \
        + b"]" * 100_000 + b"}]"
    cases["deep.json"] = (deep, ("nested too deeply",))
    claude = claude_export()
    claude[0]["chat_messages"][0]["content"] = "text where blocks belong"
    cases["claude.json"] = (json.dumps(claude).encode(), ("'content'",))
    owui = openwebui_export()
    owui[0]["chat"]["history"]["messages"]["u2"]["parentId"] = "a2"
    cases["owui.json"] = (json.dumps(owui).encode(), ("cycle",))
    for name, (data, frags) in cases.items():
        p = tmp_path / name
        p.write_bytes(data)
        assert_refused(tmp_path, p, *frags)
    # a zip whose conversations.json would inflate a thousandfold
    bomb = tmp_path / "export.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("conversations.json", b"[" + b" " * (8 * 2**20) + b"]")
    assert_refused(tmp_path, bomb, "decompression bomb")
    # a zip cut short
    z = tmp_path / "cut.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("conversations.json", good)
    z.write_bytes(z.read_bytes()[:-40])
    assert_refused(tmp_path, z)
    # a Jan thread with a broken line; an empty folder
    folder = jan_threads(tmp_path / "jan-bad")
    f = folder / "threads" / "jan_1714000000" / "messages.jsonl"
    f.write_text(f.read_text(encoding="utf-8") + '{"role": "user", "content": [\n',
                 encoding="utf-8")
    assert_refused(tmp_path, folder, "messages.jsonl line 6")
    (tmp_path / "empty").mkdir()
    assert_refused(tmp_path, tmp_path / "empty", "folder without Markdown notes")


def test_cancel_while_embedding_changes_nothing(tmp_path, embedder):
    path = write_json(tmp_path / "conversations.json", chatgpt_export())
    cancel = threading.Event()
    stages = []

    def stage(name, start, end):
        stages.append((name, start, end))
        if name == "embedding":
            cancel.set()  # as the Cancel button does, from another thread

    with Store(tmp_path / "data") as store:
        before = snapshot(store)
        with pytest.raises(ImportCancelled):
            import_file(store, path, embedder=embedder, stage=stage, cancel=cancel,
                        progress=lambda d, t: None)
        assert snapshot(store) == before and not store.conn.in_transaction
    assert [s[0] for s in stages] == ["reading", "checking", "embedding"]
    assert not [p for p in (tmp_path / "data").iterdir() if p.name.startswith(".hela-import")]


def test_stages_and_progress(tmp_path, embedder):
    path = write_json(tmp_path / "conversations.json", chatgpt_export())
    seen: list[tuple] = []
    with Store(tmp_path / "data") as store:
        import_file(store, path, embedder=embedder,
                    stage=lambda n, a, b: seen.append(("stage", n, a, b)),
                    progress=lambda d, t: seen.append(("progress", d, t)))
    names = [s[1] for s in seen if s[0] == "stage"]
    assert names == ["reading", "checking", "embedding", "writing"]
    i = seen.index(("stage", "checking", 0, seen[[s[1] for s in seen].index("checking")][3]))
    reading = [s for s in seen[:i] if s[0] == "progress"]
    assert reading[-1][1:] == (path.stat().st_size, path.stat().st_size)
    emb = next(s for s in seen if s[:2] == ("stage", "embedding"))
    assert emb[3] - emb[2] == 5  # five exchanges to embed
    assert seen[-1][0] == "progress" and seen[-1][1] == seen[-1][2]


@pytest.mark.slow
def test_big_export_streams_in_bounded_memory(tmp_path, monkeypatch):
    """A 12 MB conversations.json is read in blocks (256 KiB here): parsing it never holds
    more than a few blocks and one conversation in memory."""
    import tracemalloc

    from hela_desktop.bench.import_speed import write_chatgpt_export

    monkeypatch.setattr(readers, "_CHUNK", 256 * 1024)
    path = tmp_path / "conversations.json"
    assert write_chatgpt_export(path, conversations=150, exchanges=20, reply_chars=3000) == 3000
    size = path.stat().st_size
    assert size > 10 * 2**20
    cancel = threading.Event()
    read: list[int] = []
    peak = []

    def stage(name, _a, _b):
        if name == "checking":  # the export has been parsed: how much memory did it take?
            peak.append(tracemalloc.get_traced_memory()[1])
            cancel.set()

    with Store(tmp_path / "data") as store:
        tracemalloc.start()
        try:
            with pytest.raises(ImportCancelled):
                import_file(store, path, dry_run=True, stage=stage, cancel=cancel,
                            progress=lambda d, t: read.append(d))
        finally:
            tracemalloc.stop()
    assert read[-1] == size
    assert peak[0] < size / 5, (peak, size)


@pytest.mark.gui
def test_app_imports_with_progress_and_cancels(qtbot, tmp_path, embedder):
    """File ▸ Import on the assistant's thread: progress words (stage, rate) reach the
    dialog, the conversations appear; Cancel stops a big import and changes nothing."""
    pytest.importorskip("pytestqt")
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="hela-qt-config-")
    from hela_desktop.bench.import_speed import write_chatgpt_export
    from hela_desktop.config import Settings
    from hela_desktop.ui.main_window import MainWindow

    data = tmp_path / "data"
    s = Settings()
    s.model_path = str(tmp_path / "missing.gguf")  # no chat model needed to import
    w = MainWindow(data, s, assistant_kwargs={"embedder": embedder})
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.embedder_ready, timeout=60_000)
    notes: list[str] = []
    w.client.worker.progressNote.connect(lambda _n, t: notes.append(t))
    path = write_json(tmp_path / "conversations.json", chatgpt_export())
    w.files.start_import(str(path))
    qtbot.waitUntil(lambda: (w.last_message or ("",))[0] == "Import finished",
                    timeout=60_000)
    assert "ChatGPT export: 2 conversations, 5 exchanges" in w.last_message[1]
    assert any(t.startswith("embedding: ") for t in notes)
    assert any(t.startswith("reading: ") for t in notes)
    titles = {c["title"] for c in w.conversations.chats()}
    assert {"Ana in Lisbon", "Ünïcødé 日本語"} <= titles
    reader = Store(data)  # the test's own look at the database
    assert reader.count_episodes() == 5

    big = tmp_path / "big" / "conversations.json"
    big.parent.mkdir()
    write_chatgpt_export(big, conversations=40, exchanges=20)
    before = snapshot(reader)
    w.files.start_import(str(big))
    from PySide6 import QtWidgets

    w.files.progress.findChild(QtWidgets.QPushButton).click()  # the dialog's Cancel button
    qtbot.waitUntil(lambda: w.last_message[0] == "Import cancelled", timeout=60_000)
    assert "cancelled" in w.statusBar().currentMessage()
    assert snapshot(reader) == before
    w.close()
    reader.close()


def test_bench_import_small(tmp_path, embedder):
    """The `import` part of `bench speed`, small: a generated export imports completely
    and the report line carries the rate."""
    from hela_desktop.bench.import_speed import bench_import
    from hela_desktop.bench.speed import format_report

    r = bench_import(tmp_path, exchanges=60, per_conversation=20, embedder=embedder)
    assert r["exchanges"] == r["stored"] == 60
    assert r["exchanges_per_s"] > 0 and r["embed_per_s"] > 0
    assert r["reading_s"] >= 0 and r["embedding_s"] > 0 and r["writing_s"] >= 0
    text = format_report({"profile": "hela", "import": r})
    assert "exchanges per s embedding included" in text
