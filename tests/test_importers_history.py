"""Bringing years of history in, as a new user does (the eleventh hands-on pass): what the
summary says was left out reads as English, a notes vault's headings over sub-headings are
not "left out", and an export cut short (a download that stopped) says so."""

from __future__ import annotations

import json
import os
import tempfile
import zipfile

import pytest

# tests/ is on sys.path: the example exports of the importer tests
from test_importers import (  # noqa: E402
    assert_refused,
    chatgpt_export,
    import_twice,
    openwebui_export,
    write_json,
)

from hela_desktop.importers.base import describe, left_out
from hela_desktop.memfile import import_file
from hela_desktop.store import Store


def test_left_out_counts_read_as_english():
    """"300 system message, 184 call to a tool, 94 thinking" was the summary of a real
    export: a count's noun follows it."""
    assert left_out(1, "system message") == "1 system message"
    assert left_out(300, "system message") == "300 system messages"
    assert left_out(184, "call to a tool") == "184 calls to a tool"
    assert left_out(8, "conversation without exchanges") == "8 conversations without exchanges"
    assert left_out(159, "message on another branch") == "159 messages on another branch"
    assert left_out(2, "file not in UTF-8") == "2 files not in UTF-8"
    assert left_out(3, "reply before any user message") == "3 replies before any user message"
    assert left_out(94, "thinking") == "94 thinking blocks"
    assert left_out(1, "reasoning") == "1 reasoning block"
    assert left_out(2, "custom instructions") == "2 custom instructions"
    line = describe({"source": "claude", "conversations": 3, "exchanges": 9, "skipped": 97,
                     "skipped_reasons": {"thinking": 94, "conversation without exchanges": 3}})
    assert line == ("Claude export: 3 conversations, 9 exchanges; 97 left out "
                    "(94 thinking blocks, 3 conversations without exchanges)")


def test_the_summary_of_a_real_import_uses_plurals(tmp_path, embedder):
    conv = chatgpt_export()
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(conv), encoding="utf-8")
    with Store(tmp_path / "data") as store:
        rep = import_file(store, path, embedder=embedder)
    n = rep.details["skipped_reasons"]["system message"]
    assert n == 2 and "2 system messages" in rep.sentence(), rep.sentence()


def test_a_heading_over_sub_headings_is_not_left_out(tmp_path, embedder):
    """A daily note "# Monday 1 January" / "## Log" / "## Tasks" said "1 empty section"
    left out per note (151 of 154 in a vault of daily notes); a heading with nothing under
    it before one of its own level still counts."""
    v = tmp_path / "vault"
    (v / "Daily").mkdir(parents=True)
    for day in ("2024-01-01", "2024-01-02"):
        (v / "Daily" / f"{day}.md").write_text(
            f"---\ndate: {day}\n---\n# {day}\n\n## Log\nWorked on the garden.\n\n"
            "### Morning\nWatered the tomatoes.\n\n## Nothing yet\n\n## Tasks\n- call Noa\n",
            encoding="utf-8")
    store, rep = import_twice(tmp_path, v, embedder)
    assert rep.details["skipped_reasons"] == {"empty section": 2}  # "## Nothing yet" twice
    assert rep.details["memories"] == 6
    store.close()


def test_an_export_cut_short_says_so(tmp_path):
    """A download that stopped: a conversations.json cut inside a conversation, and the
    zip cut short (it was called "not a readable HeLa memory file")."""
    good = json.dumps(chatgpt_export() * 3).encode()
    cut = tmp_path / "conversations.json"
    cut.write_bytes(good[: len(good) * 2 // 3])
    msg = assert_refused(tmp_path, cut, "not valid JSON", "cut short")
    assert "Unterminated" not in msg and "Expecting" not in msg
    z = tmp_path / "chatgpt-export.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("conversations.json", good)
        zf.writestr("chat.html", "<html></html>" * 500)
    z.write_bytes(z.read_bytes()[: z.stat().st_size // 2])
    msg = assert_refused(tmp_path, z, "zip archive", "cut short")
    assert "HeLa memory file" not in msg
    # a wrong character inside an item is still named as it was
    bad = tmp_path / "bad.json"
    bad.write_bytes(good.replace(b'"mapping"', b'"mapping" x', 1))
    assert "cut short" not in assert_refused(tmp_path, bad, "not valid JSON")



@pytest.mark.gui
def test_a_second_import_in_the_window_shows_its_progress(qtbot, tmp_path, embedder):
    """Closing the first import's finished dialog emitted its `canceled`: the worker's
    cancel flag was left set and the window "cancelling", so every later import in the
    session showed only "Importing memories…" over a busy bar, no stage or rate.  And an
    import after a cancelled one finished under "Import cancelled; nothing was changed"."""
    pytest.importorskip("pytestqt")
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="hela-qt-config-")
    from hela_desktop.config import Settings
    from hela_desktop.ui.main_window import MainWindow

    w = MainWindow(tmp_path / "data", Settings(), load_model=False,  # (none needed)
                   assistant_kwargs={"embedder": embedder})
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.embedder_ready, timeout=60_000)
    w.files.failed("import", "cancelled")  # as a cancelled import leaves the status bar
    for path, title in ((write_json(tmp_path / "c.json", chatgpt_export()), "Ana in Lisbon"),
                        (write_json(tmp_path / "o.json", openwebui_export()), None)):
        w.last_message = None
        labels: list[str] = []
        w.files.start_import(str(path))
        dialog = w.files.progress
        assert dialog is not None
        def note(_n, _t, labels=labels, dialog=dialog):
            labels.append(dialog.labelText())

        w.client.worker.progressNote.connect(note)
        qtbot.waitUntil(lambda: (w.last_message or ("",))[0].startswith("Import"),
                        timeout=60_000)
        assert w.last_message[0] == "Import finished", w.last_message
        assert any(t.startswith("Importing memories…\n") for t in labels), (title, labels)
        assert not w.files.cancelling and not w.client.worker.import_cancel.is_set()
        assert not dialog.isVisible()
        assert "cancelled" not in w.statusBar().currentMessage()  # (it stayed 8 s)
        w.client.worker.progressNote.disconnect(note)
    w.close()


def test_author_of_an_imported_answer():
    from hela_desktop.importers.base import author_of

    assert author_of("chatgpt-6b809223e4414d8fff2d85147ba04253764bfa23.a") == "ChatGPT"
    assert author_of("openwebui-0a4b.a") == "Open WebUI"
    assert author_of("hela-chat-0a4b.a") is None  # the app's own chat export: HeLa's
    assert author_of("3f2a9c0d1e4b4a5f8e7d6c5b4a392817") is None and author_of("") is None


@pytest.mark.gui
def test_an_imported_chat_names_who_answered(qtbot, tmp_path, embedder):
    """An imported ChatGPT chat showed every answer under "HeLa", dated 2023: HeLa did
    not write them.  They are headed "ChatGPT"; the app's own answers stay "HeLa"."""
    pytest.importorskip("pytestqt")
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="hela-qt-config-")
    from hela_desktop.config import Settings
    from hela_desktop.ui.main_window import MainWindow

    data = tmp_path / "data"
    with Store(data) as st:
        import_file(st, write_json(tmp_path / "c.json", chatgpt_export()), embedder=embedder)
        own = st.add_conversation("Mine")
        st.add_message(own, "user", "Hello there", at=1_700_000_000.0)
        st.add_message(own, "assistant", "Hello! How can I help?", at=1_700_000_005.0)
    w = MainWindow(data, Settings(), load_model=False, assistant_kwargs={"embedder": embedder})
    qtbot.addWidget(w)
    w.show()
    cl = w.conversations
    qtbot.waitUntil(lambda: len(cl.chats()) == 3, timeout=60_000)

    def open_chat(title: str) -> str:
        cl.select(next(c["id"] for c in cl.chats() if c["title"] == title))
        qtbot.waitUntil(lambda: w.session.title == title and bool(w.session.messages),
                        timeout=30_000)
        return w.chat.view.toPlainText()

    text = open_chat("Ana in Lisbon")
    heads = [line.split("  ")[0] for line in text.splitlines()
             if line.startswith(("ChatGPT  ", "HeLa  ", "You  "))]
    assert "ChatGPT" in heads and "HeLa" not in heads, heads
    # the timeline of its last answer says who wrote it, not "the model did not write"
    # it (QA pass 33)
    assert w.timeline.empty_hint() == ("No memories were active here: ChatGPT wrote this "
                                       "answer, and it was imported.")
    text = open_chat("Mine")
    assert "\nHeLa  " in "\n" + text and "ChatGPT" not in text
    assert "ChatGPT" not in w.timeline.empty_hint()
    w.close()


def test_ctrl_c_mid_import_says_nothing_was_imported(tmp_path, monkeypatch, capsys):
    """Ctrl-C mid-import printed a bare "interrupted" and left the data folder it had made
    (an empty memory file): it says nothing was imported, and the new folder goes."""
    from hela_desktop import cli
    from hela_desktop.cli import memfile as cli_memfile

    def stopped(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_memfile, "import_file", stopped)
    path = write_json(tmp_path / "conversations.json", chatgpt_export())
    data = tmp_path / "new-data"
    assert cli.main(["import", str(path), "--data-dir", str(data)]) == 130
    err = capsys.readouterr().err
    assert "interrupted: nothing was imported; your memories are as they were" in err
    assert not data.exists()


def test_embedding_progress_says_how_long_is_left(monkeypatch):
    """10,000 exchanges embed for 10 to 15 minutes on two cores: the progress line said
    "1200 of 10000 texts (12 per s)" and left the sum to the reader."""
    from hela_desktop.memfile import report

    clock = [100.0]
    monkeypatch.setattr(report.time, "perf_counter", lambda: clock[0])
    words = report.ProgressText()
    words.stage("embedding", 50, 10_050)
    clock[0] += 100.0
    assert words.progress(50 + 1200, 20_000) == \
        "embedding: 1200 of 10000 texts (12 per s, about 12 min left)"
    clock[0] += 700.0
    assert words.progress(50 + 9_900, 20_000).endswith("(12 per s, about 10 s left)")
    assert words.progress(50 + 10_000, 20_000) == "embedding: 10000 of 10000 texts (12 per s)"
    assert report._left(3 * 3600) == ", about 3.0 h left"


def test_a_newer_export_that_only_renamed_a_chat_says_so(tmp_path):
    """A newer export whose only change was a chat's new title said "Nothing new …:
    everything in it is here already" in the window, though the chat was renamed."""
    from hela_desktop.memfile.report import ImportReport

    p = tmp_path / "conversations.json"
    rep = ImportReport(p, "chatgpt", added={"episodes": 0, "conversations": 0},
                       merged={"conversations": 1, "episodes": 0},
                       skipped={"episodes": 12, "conversations": 2})
    assert rep.sentence() == f"Nothing added from\n{p}\n\nIt brought 1 chat already here up to date."


def test_a_notes_summary_tells_wiki_links_from_links():
    """"links: 456 added … notes folder: 156 notes, 309 sections, 303 links" named two
    different counts alike (the 456 also join a note's sections in a row)."""
    line = describe({"source": "notes", "notes": 156, "memories": 309, "links": 303})
    # (and the sentence it ends in the window starts with a capital: "… from FILE. Notes …")
    assert line == "Notes folder: 156 notes, 309 sections, 303 wiki links"


def test_an_export_without_conversations_says_so(tmp_path):
    """The zip of an account with no chats yet was "a zip with a conversations.json that
    is not a ChatGPT or Claude export"."""
    z = tmp_path / "claude-export.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("conversations.json", "[]")
        zf.writestr("users.json", '[{"uuid": "a"}]')
    msg = assert_refused(tmp_path, z, "an export without conversations: nothing to import")
    assert "not a ChatGPT" not in msg


def test_front_matter_lists_in_brackets(tmp_path, embedder):
    """Obsidian writes ``tags: [family, lisbon]`` and ``aliases: [sister]`` as often as
    ``- item`` lines: the tags were kept as "[family" / "lisbon]" (one: "[family]"), and a
    link to the alias found no note."""
    from hela_desktop.importers.notes import front_matter

    fm, n = front_matter(["---", "tags: [family, \"lisbon\"]", "aliases: [sister]",
                          "title: [Draft] plans", "---", "text"])
    assert fm == {"tags": "family, lisbon", "aliases": "sister", "title": "[Draft] plans"}
    assert n == 5
    v = tmp_path / "vault"
    v.mkdir()
    (v / "Noa.md").write_text("---\ntags: [family]\naliases: [sister]\n---\nLives in Haifa.\n",
                              encoding="utf-8")
    (v / "Plans.md").write_text("Visit my [[sister]] in May.\n", encoding="utf-8")
    store, rep = import_twice(tmp_path, v, embedder)
    assert rep.details["links"] == 1 and not rep.details.get("skipped_reasons")
    meta = json.loads(store.conn.execute(
        "SELECT meta FROM episodes WHERE user_text LIKE 'Noa%'").fetchone()[0])
    assert meta["tags"] == ["family"]
    store.close()


def test_memories_show_says_where_an_imported_memory_came_from(tmp_path, embedder, capsys):
    """`memories show` of an imported exchange said "HeLa answered:", gave no provenance
    (README: `source` and `meta`; `--json` left `meta` out) and indented only the first
    line of a note's text."""
    from hela_desktop import cli

    data = tmp_path / "data"
    with Store(data) as st:
        import_file(st, write_json(tmp_path / "c.json", chatgpt_export()), embedder=embedder)
        eid = st.conn.execute("SELECT id FROM episodes WHERE assistant_text != '' "
                              "ORDER BY id LIMIT 1").fetchone()[0]
        note = st.add_episode("Noa\n\nMy sister. Lives in Haifa.", "", None)
    assert cli.main(["memories", "show", str(eid), "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "\n  from           ChatGPT export, chat “" in out and ", imported " in out
    assert "\nChatGPT answered:\n  " in out and "HeLa answered" not in out
    assert cli.main(["memories", "show", str(eid), "--json", "--data-dir", str(data)]) == 0
    meta = json.loads(capsys.readouterr().out)["meta"]
    assert meta["source"] == "chatgpt" and meta["conversation_title"]
    assert cli.main(["memories", "show", str(note), "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "You said:\n  Noa\n\n  My sister. Lives in Haifa.\n" in out and "from " not in out


@pytest.mark.gui
def test_the_memories_table_names_who_answered_an_imported_memory(qtbot, tmp_path):
    """The Memories table's "HeLa" column held ChatGPT's replies for imported rows, and
    Edit said "HeLa answered:".  The column is "Answer"; its tooltip and the edit dialog
    name who answered."""
    pytest.importorskip("pytestqt")
    import numpy as np
    import qt_env  # noqa: F401
    from PySide6 import QtCore

    from hela_desktop.store import Store
    from hela_desktop.ui.memory_browser import COLUMNS, EditMemoryDialog, EpisodeTableModel

    v = np.ones(4, dtype=np.float32) / 2
    with Store(tmp_path / "d") as s:
        ids = [s.add_episode("Name ideas for a cat?", "Miso, Pistachio.", v, source="chatgpt"),
               s.add_episode("My cat is Pistachio.", "Lovely name!", v)]
        eps = s.episodes(ids)
    model = EpisodeTableModel()
    model.set_episodes([eps[i] for i in ids])
    assert COLUMNS[3] == "Answer" and "HeLa" not in COLUMNS
    tips = [model.data(model.index(r, 3), QtCore.Qt.ItemDataRole.ToolTipRole) for r in (0, 1)]
    assert tips[0].startswith("ChatGPT answered:\nMiso") and tips[1].startswith("HeLa answered:")
    dlg = EditMemoryDialog(eps[ids[0]])
    qtbot.addWidget(dlg)
    assert dlg.layout().labelForField(dlg.assistant).text() == "ChatGPT answered:"


def test_the_import_bar_fills_once_per_stage(tmp_path):
    """One bar over every unit ran to half in seconds (a record checked and a text
    embedded counted the same) and then crawled through the embedding, 95 % of the time.
    The stage's words now count the stage itself ("writing: 100 %"); the window's bar
    goes once over the whole import (the next test)."""
    import numpy as np

    from hela_desktop.memfile import ProgressText, import_file
    from hela_desktop.store import Store

    notes = tmp_path / "notes.txt"
    notes.write_text("\n\n".join(f"Thing number {i} I noted." for i in range(30)))
    words = ProgressText()
    seen: dict[str, list[tuple[int, int]]] = {}

    def stage(name, start, end):
        words.stage(name, start, end)

    bars: list[tuple[int, int]] = []

    def progress(d, t):
        words.progress(d, t)
        seen.setdefault(words.name, []).append(words.span(d, t))
        bars.append(words.bar())

    with Store(tmp_path / "d") as s:
        import_file(s, notes, embedder=lambda texts: np.ones((len(texts), 4), np.float32) / 2,
                    progress=progress, stage=stage)
    emb = seen["embedding"]
    assert emb[-1] == (30, 30) and all(of == 30 and 0 <= d <= 30 for d, of in emb)
    for name, spans in seen.items():  # every stage runs from its own start to its own end
        assert all(0 <= d <= of for d, of in spans), name
    assert seen["writing"][-1][0] == seen["writing"][-1][1]
    assert words.text == "writing: 100 %"  # the label counts the stage itself
    assert bars == sorted(bars) and bars[-1] == (1000, 1000)  # one bar, never back


def test_the_import_bar_goes_once_from_empty_to_full_weighted_by_time():
    """Importing 5,000 chats, the bar ran to full while reading, started over for
    checking, again for embedding and again for writing.  It now goes once from 0 to 100 %,
    each stage taking the part of it its expected time takes (from the work's counts and
    the measured cost of each unit), and never goes back; the words still name the stage."""
    from hela_desktop.memfile import report
    from hela_desktop.memfile.report import STAGE_COST, ProgressText

    size, records, texts = 20_000_000, 40_000, 10_000  # bytes, records, texts to embed
    cost = {"reading": STAGE_COST["reading"] * size, "checking": STAGE_COST["checking"] * records,
            "embedding": STAGE_COST["embedding"] * texts, "writing": STAGE_COST["writing"] * records}
    whole = sum(cost.values())
    words, bars, ends = ProgressText(), [], {}

    def run(name, start, end, steps, total):
        words.stage(name, start, end)
        for k in range(steps + 1):
            done = start + (end - start) * k // steps if end else total * k // steps
            words.progress(done, total)
            bars.append(words.bar())
        ends[name] = bars[-1][0] / 1000

    run("reading", 0, 0, 50, size)
    assert words.text == "reading: 19.1 of 19.1 MB"
    run("checking", 0, records, 20, 2 * records)
    assert words.text == "checking: 100 %"
    run("embedding", records, records + texts, 40, 2 * records + texts)
    run("writing", records + texts, 2 * records + texts, 20, 2 * records + texts)
    assert words.text == "writing: 100 %"
    values = [v for v, _ in bars]
    assert all(m == 1000 for _, m in bars) and values == sorted(values)  # never back
    assert values[0] == 0 and values[-1] == 1000
    # the stages' parts follow their expected time; reading foresaw the records from the
    # bytes (RECORDS_PER_BYTE), so its part is near, not exactly, its share
    assert ends["reading"] == pytest.approx(cost["reading"] / whole, abs=0.05)
    assert ends["embedding"] - ends["checking"] > 0.5  # the slow part is most of the bar
    assert 1 - ends["embedding"] == pytest.approx(
        (1 - ends["checking"]) * cost["writing"] / (cost["embedding"] + cost["writing"]),
        abs=0.002)
    # a re-import has nothing to embed: the bar jumps ahead, it does not go back
    again = ProgressText()
    again.stage("reading", 0, 0)
    again.progress(size, size)
    at = again.bar()[0]
    again.stage("checking", 0, records)
    again.progress(records, 2 * records)
    again.stage("writing", records, 2 * records)
    again.progress(records + 1, 2 * records)
    assert at <= again.bar()[0] and again.progress(2 * records, 2 * records)
    assert again.bar() == (1000, 1000)
    assert report.TEXTS_PER_RECORD > 0


def test_the_backup_before_an_import_has_its_part_of_the_bar():
    """Importing into a data folder that holds memories first backs the memory file up, and
    the bar stood still through it: an import of 2,000 exchanges that has nothing new to
    embed (again, or a newer export) into a 50,000-memory file spent 0.39 s of 1.08 s
    copying its 134 MB.  The backup is now a stage weighted by the file's bytes like the
    others by their work, foreseen from the start: the bar moves through it, never back."""
    from hela_desktop.memfile.report import STAGE_COST, ProgressText

    size, records, backup = 3_300_000, 8_000, 134_000_000  # bytes, records, bytes
    cost = {"reading": STAGE_COST["reading"] * size, "checking": STAGE_COST["checking"] * records,
            "backup": STAGE_COST["backup"] * backup, "writing": STAGE_COST["writing"] * records}
    assert cost["backup"] > cost["writing"] / 2  # not a rounding error: a third of the import
    words, bars, at = ProgressText(backup_bytes=backup), [], {}

    def run(name, start, end, steps, total):
        words.stage(name, start, end)
        at[name] = words.bar()[0] / 1000
        for k in range(steps + 1):
            words.progress(start + (end - start) * k // steps if end else total * k // steps,
                           total)
            bars.append(words.bar())

    run("reading", 0, 0, 10, size)
    run("checking", 0, records, 10, 2 * records)
    run("backup", 0, backup, 20, backup)
    assert words.text == "backing up your memories: 100 %"
    during = [v for v, _ in bars[-21:]]
    run("writing", records, 2 * records, 10, 2 * records)
    values = [v for v, _ in bars]
    assert values == sorted(values) and values[-1] == 1000  # once, never back
    assert len(set(during)) == 21  # it moves with every step of the copy
    # what was left when the copy began, split by expected time with the writing after it
    # (reading and checking foresaw texts to embed: with nothing new there were none)
    part = at["writing"] - at["backup"]
    assert part == pytest.approx(
        (1 - at["backup"]) * cost["backup"] / (cost["backup"] + cost["writing"]), abs=0.002)
    assert part > 0.3
    # with texts to embed, embedding leaves the backup and the writing their parts
    words = ProgressText(backup_bytes=backup)
    words.stage("checking", 0, records)
    words.progress(records, 2 * records + 2000)
    words.stage("embedding", records, records + 2000)
    start = 1 - words.position
    words.progress(records + 2000, 2 * records + 2000)
    assert (1 - words.position) / start == pytest.approx(
        (cost["backup"] + cost["writing"])
        / (STAGE_COST["embedding"] * 2000 + cost["backup"] + cost["writing"]))
    # not foreseen (no size given): it still takes its part of what is left, by its cost
    late = ProgressText()
    late.stage("checking", 0, records)
    late.progress(records, 2 * records)
    late.stage("backup", 0, backup)
    late.progress(backup // 2, backup)
    mid = late.bar()[0]
    late.progress(backup, backup)
    assert 0 < mid < late.bar()[0] < 1000


def memories_folder(folder):
    """A data folder whose memory file holds 5,000 memories (12 MB: three steps of a
    backup's copy)."""
    from hela_desktop.bench.pool import build_pool

    with Store(folder) as s:
        build_pool(s, 5000)
    return folder


def test_an_import_backs_up_as_a_stage_of_its_own(tmp_path):
    """The backup made before writing is the stage "backup", between embedding and writing
    (after checking that the import changes something), its progress the memory
    file's bytes copied; the window's bar moves through it, never back.
    Cancelling during it stops the import with nothing changed and no backup kept."""
    import threading

    import numpy as np

    from hela_desktop import backups as B
    from hela_desktop.memfile import ImportCancelled, ProgressText

    folder = memories_folder(tmp_path / "d")
    notes = tmp_path / "notes.txt"
    notes.write_text("\n\n".join(f"Thing number {i} I noted." for i in range(30)))

    def embed(texts):
        return np.ones((len(texts), 384), np.float32) / np.sqrt(384)

    with Store(folder) as s:
        size = B.before_import_bytes(s, 2)
        assert size == s.path.stat().st_size > 8 * 2**20 and B.before_import_bytes(s, 0) == 0
        words, seen, bars = ProgressText(size), [], []

        def stage(name, start, end):
            words.stage(name, start, end)
            seen.append((name, start, end))

        def progress(d, t):
            words.progress(d, t)
            bars.append((words.name, d, t, words.bar()[0]))

        rep = import_file(s, notes, embedder=embed, stage=stage, progress=progress,
                          backup_keep=2)
        # (a write that looks for a change, as more checking, stops at it, undone)
        assert rep.backup and [n for n, *_ in seen] == \
            ["reading", "checking", "embedding", "checking", "backup", "writing"]
        assert ("backup", 0, size) in seen
        copy = [(d, t, v) for name, d, t, v in bars if name == "backup"]
        assert len(copy) >= 3 and copy[-1][:2] == (size, size)
        assert [d for d, _, _ in copy] == sorted({d for d, _, _ in copy})
        assert copy[0][2] < copy[-1][2]  # the bar moves through the copy
        values = [v for *_, v in bars]
        assert values == sorted(values) and values[-1] == 1000
        # cancelled while the copy is made: no backup, nothing imported
        made = sorted(B.backup_dir(s.path).iterdir())
        before = s.count_episodes()
        cancel = threading.Event()

        def stop_in_backup(d, t):
            if words.name == "backup":
                cancel.set()

        notes.write_text("A new thing.\n\nAnother new thing.")
        with pytest.raises(ImportCancelled):
            import_file(s, notes, embedder=embed, stage=words.stage, progress=stop_in_backup,
                        cancel=cancel, backup_keep=2)
        assert sorted(B.backup_dir(s.path).iterdir()) == made and s.count_episodes() == before


def test_a_note_on_one_line_keeps_its_title_apart():
    """A note's memory is its title, a blank line and its text.  On one line (the memory
    block the model reads, the Memories table) it read "Noa My sister. Lives in Haifa.", and
    the model answered "[Noa My sister's cat, Noa]"."""
    from hela_desktop.prompt import memory_line
    from hela_desktop.words import one_line

    assert one_line("Noa\n\nMy sister. Lives in Haifa.") == "Noa — My sister. Lives in Haifa."
    assert one_line("Garden › Pests\n \nAphids.") == "Garden › Pests — Aphids."
    assert one_line("I moved.\n\nNew flat is small.") == "I moved. New flat is small."
    assert one_line("a list\n- eggs\n- milk") == "a list - eggs - milk"  # lines, as before
    assert one_line("") == "" and one_line("\n\n  \n") == ""
    assert memory_line("Noa\n\nMy sister. Lives in Haifa.", None, 0.0) == \
        "- Noa — My sister. Lives in Haifa."
