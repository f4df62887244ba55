"""Pass 7 of the terminal: one exit code and one wording for an id the memory file does
not hold, one shape for ``--json``, numeric options checked before anything runs.  Real
SQLite files; the commands run as real processes where the exit status is the point."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from hela_desktop.cli import main
from hela_desktop.store import Store

ENV = dict(os.environ, HF_HUB_OFFLINE="1")


def cli(*argv, timeout=300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hela_desktop", *map(str, argv)],
                          capture_output=True, text=True, env=ENV, timeout=timeout)


@pytest.fixture
def data(tmp_path):
    """A data folder with memories #1 (active), #2 (archived), #3 (deleted) and a
    conversation-less knowledge item #1 (in use)."""
    d = tmp_path / "data"
    now = time.time()
    with Store(d) as st, st.transaction():
        for text in ("I live in Porto.", "My cat is Miso.", "I play the piano."):
            st.add_episode(text, "Noted.", None, created_at=now - 3600)
        st.archive_episodes([(2, "test")], now)
        st.set_deleted(3, True)
        st.add_knowledge("user_model", "The user lives in Porto.", None, None, now, [1])
    return d


def test_restore_of_an_unknown_memory_is_refused_as_memories_restore_is(data):
    """`restore 999` exited 1 with no "error:" line, `memories restore 999` 2 with one."""
    for argv in (("restore", "999"), ("memories", "restore", "999")):
        r = cli(*argv, "--data-dir", data)
        assert r.returncode == 2, (argv, r.stderr)
        assert r.stderr.startswith("error: no memory #999 in ") and len(r.stderr.splitlines()) == 1


def test_restore_takes_every_id_or_none(data, capsys):
    """An id that is not an archived memory refuses the request: nothing is restored."""
    for ids, why in ((["2", "999"], "no memory #999"), (["1"], "memory #1 is not archived"),
                     (["3"], "memory #3 is deleted, not archived (`memories restore 3`")):
        assert main(["restore", *ids, "--data-dir", str(data)]) == 2
        out = capsys.readouterr()
        assert out.out == "" and out.err.startswith("error: ") and why in out.err, out.err
        with Store(data) as st:
            assert st.archived_ids() == [2]
    assert main(["restore", "2", "2", "--data-dir", str(data)]) == 0  # said twice: once
    assert capsys.readouterr().out == "restored #2\n"
    with Store(data) as st:
        assert st.archived_ids() == []


def test_unknown_ids_have_one_wording_and_exit_2(data, capsys, tmp_path):
    path = data / "memory.sqlite3"
    for argv, msg in ((["memories", "show", "99"], f"no memory #99 in {path}"),
                      (["knowledge", "delete", "99"], f"no knowledge item #99 in {path}"),
                      (["knowledge", "restore", "99"], f"no knowledge item #99 in {path}"),
                      (["export", str(tmp_path / "x.hela"), "--conversation", "99"],
                       f"no conversation #99 in {path}")):
        assert main([*argv, "--data-dir", str(data)]) == 2, argv
        err = capsys.readouterr().err
        assert err == f"error: {msg}\n", (argv, err)


def test_knowledge_delete_and_restore_refuse_what_they_cannot_do(data, capsys):
    """`knowledge restore` of an item in use said "restored", and deleting a deleted item
    "deleted", as `memories restore`/`delete` refuse to."""
    assert main(["knowledge", "restore", "1", "--data-dir", str(data)]) == 2
    assert capsys.readouterr().err == "error: knowledge #1 is not deleted\n"
    assert main(["knowledge", "delete", "1", "--data-dir", str(data)]) == 0
    capsys.readouterr()
    assert main(["knowledge", "delete", "1", "--data-dir", str(data)]) == 2
    assert "knowledge #1 is already deleted" in capsys.readouterr().err
    assert main(["knowledge", "restore", "1", "--data-dir", str(data)]) == 0
    assert capsys.readouterr().out == "knowledge #1 restored\n"


def test_json_listings_are_one_array(data, tmp_path):
    """`knowledge list --json` printed one object per line (nothing at all when empty)
    where `memories list --json` prints one array."""
    for argv in (("knowledge", "list", "--json"), ("knowledge", "list", "--all", "--json"),
                 ("memories", "list", "--json"), ("forget", "--list", "--json")):
        r = cli(*argv, "--data-dir", data)
        assert r.returncode == 0, r.stderr
        assert isinstance(json.loads(r.stdout), list), argv
    r = cli("knowledge", "list", "--json", "--data-dir", data)
    assert [k["text"] for k in json.loads(r.stdout)] == ["The user lives in Porto."]
    empty = tmp_path / "empty"
    Store(empty).close()
    r = cli("knowledge", "list", "--json", "--data-dir", empty)
    assert r.returncode == 0 and json.loads(r.stdout) == []


def test_consolidate_json_with_nothing_to_do_is_json(tmp_path, capsys):
    """`consolidate --json` printed "0 hubs, 0 clusters; nothing new to consolidate"."""
    d = tmp_path / "d"
    Store(d).close()
    assert main(["consolidate", "--json", "--dry-run", "--data-dir", str(d)]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["hubs"] == 0 and rep["clusters"] == 0 and rep["dry_run"] is True


@pytest.mark.parametrize("argv", [
    ("chat", "-m", "hi", "--seed", "-5"), ("chat", "-m", "hi", "--seed", "4294967295"),
    ("chat", "-m", "hi", "--temperature", "-1"), ("chat", "-m", "hi", "--temperature", "nan"),
    ("chat", "-m", "hi", "--max-tokens", "0"), ("chat", "--gpu-layers", "99999999999"),
    ("memories", "list", "--limit", "99999999999999999999"),
    ("memories", "search", "x", "--limit", "99999999999999999999"),
    ("consolidate", "--hub-degree", "-1"), ("consolidate", "--hub-degree", "inf"),
    ("forget", "--dry-run", "--stale-days", "inf"), ("forget", "--dry-run", "--max-degree", "nan"),
    ("bench", "speed", "--queries", "0"), ("bench", "speed", "--answers", "-1"),
    ("bench", "speed", "--sizes", "10,x"), ("bench", "speed", "--sizes", "0"),
    ("bench", "gui", "--sizes", "-5"), ("bench", "gui", "--sizes", ","),
    ("bench", "personal", "F", "--answer-tokens", "0"),
    ("bench", "personal", "F", "--temperature", "-1"),
    ("bench", "personal", "F", "--dialogues", "-2"),
    ("export", "x.hela", "--since", "2026-13-01"),
])
def test_out_of_range_numbers_are_refused_as_argparse_refuses(argv, data, capsys):
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--data-dir", str(data)])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "error: argument" in err and "Traceback" not in err, err


def test_the_edges_of_the_ranges_are_accepted():
    from hela_desktop.cli import build_parser

    p = build_parser()
    a = p.parse_args(["chat", "--seed", "0", "--temperature", "0", "--gpu-layers", "-1"])
    assert (a.seed, a.temperature, a.gpu_layers) == (0, 0.0, -1)
    assert p.parse_args(["chat", "--seed", "4294967294", "--temperature", "5"]).seed == 4294967294
    assert p.parse_args(["bench", "gui", "--sizes", "10, 20"]).sizes == [10, 20]


def test_consolidation_speed_refuses_a_pool_of_no_memories(capsys):
    from hela_desktop.cli.consolidation_speed import main as speed_main

    for argv in (["--n", "0"], ["--queries", "-3"], ["--max-clusters", "-1"], ["--sample", "-1"]):
        with pytest.raises(SystemExit) as exc:
            speed_main(argv)
        assert exc.value.code == 2 and "error: argument" in capsys.readouterr().err


def test_export_dates_at_the_ends_of_the_calendar(data, tmp_path, capsys):
    """`export --until 9999-12-31` was an OverflowError traceback, and `--since 0001-01-01`
    one too ("year 0 is out of range")."""
    out = tmp_path / "all.md"
    assert main(["export", str(out), "--since", "0001-01-01", "--until", "9999-12-31",
                 "--data-dir", str(data)]) == 0
    assert "I live in Porto." in out.read_text(encoding="utf-8")
    assert "Traceback" not in capsys.readouterr().err


def test_a_streaming_memory_list_with_old_dates_is_not_forgotten_on_import(tmp_path):
    """Its memories kept their 2024 dates and no `imported_at`: the first reflection after
    the import archived all of them as "not accessed for 600 days"."""
    items = [{"content": text, "created_at": "2024-03-01T10:00:00"}
             for text in ("I adopted a cat named Miso.", "I prefer tea over coffee.")]
    src = tmp_path / "memories.json"
    src.write_text(json.dumps(items), encoding="utf-8")
    d = tmp_path / "d"
    r = cli("import", src, "--data-dir", d)
    assert r.returncode == 0, r.stderr
    r = cli("forget", "--dry-run", "--json", "--data-dir", d)
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert rep["archived"] == [] and rep["kept_recent"] == 2, rep


def test_show_says_recalled_once_not_1_times(data, capsys):
    with Store(data) as st, st.transaction():
        st.record_access([(1, time.time(), None, 1, "{}")])
    assert main(["memories", "show", "1", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "recalled       once, last " in out and "1 times" not in out
    assert main(["memories", "show", "2", "--data-dir", str(data)]) == 0
    assert "recalled       0 times, last never" in capsys.readouterr().out


def test_export_since_after_until_is_refused_not_an_empty_file(data, tmp_path, capsys):
    out = tmp_path / "x.hela"
    assert main(["export", str(out), "--since", "2026-12-02", "--until", "2026-11-01",
                 "--data-dir", str(data)]) == 2
    assert capsys.readouterr().err.startswith("error: --since is after --until")
    assert not out.exists()
    day = time.strftime("%Y-%m-%d", time.localtime(time.time() - 3600))
    assert main(["export", str(out), "--since", day, "--until", day, "--format", "markdown",
                 "--data-dir", str(data)]) == 0  # one day: both ends included
    assert "I live in Porto." in out.read_text(encoding="utf-8")


def test_purge_with_nothing_archived_says_so(tmp_path, capsys):
    d = tmp_path / "d"
    Store(d).close()
    assert main(["forget", "--purge", "--dry-run", "--data-dir", str(d)]) == 0
    out = capsys.readouterr().out
    assert "no archived or deleted memories to delete" in out and "for good: \n" not in out


def test_summaries_count_in_words():
    """The terminal's export, import and reflection lines said "1 conversations", "(1 edges
    kept)", "1 clusters left", used table names ("episodes: 2 added") and gave a rate for
    two memories that was the embedder's loading time ("0.4 per s")."""
    from pathlib import Path

    from hela_desktop.cli.reflect import consolidation_summary
    from hela_desktop.consolidate import ConsolidationReport
    from hela_desktop.memfile.report import ExportReport, ImportReport
    from hela_desktop.words import count

    assert (count(1, "chat"), count(0, "chat"), count(2, "memory", "memories")) == (
        "1 chat", "0 chats", "2 memories")
    rep = ExportReport(Path("m.hela"), "native", {"episodes": 1, "edges": 2, "knowledge": 0,
                                                   "conversations": 1, "messages": 1,
                                                   "timelines": 1}, 8134, 0.1)
    assert rep.summary() == ("exported to m.hela (native, 8 KB): 1 memory, 2 links, "
                             "0 distilled facts, 1 chat, 1 message, 1 answer timeline")
    imp = ImportReport(Path("m.hela"), "native", added={"episodes": 2, "conversations": 1},
                       merged={"episodes": 1}, skipped={"conversations": 1}, embedded=2,
                       embed_seconds=5.0)
    assert imp.summary() == ("imported m.hela (native; 2 embedded): memories: 2 added, "
                             "1 merged, 0 already here; chats: 1 added, 0 merged, 1 already here")
    imp.embedded, imp.embed_seconds = 400, 8.0  # enough texts for the rate to be the embedder's
    assert "400 embedded, 50 per s" in imp.summary()
    imp.dry_run, imp.embed_seconds = True, 0.0  # a dry run embeds nothing: it says so
    assert imp.summary().startswith("would import m.hela (native; 400 to embed): ")
    line = consolidation_summary(ConsolidationReport(hubs=1, clusters=1, remaining=1))
    assert line.startswith("1 hub, 1 cluster (0 done before)") and "; 1 cluster left;" in line


def test_an_export_that_matches_nothing_writes_no_file_and_keeps_the_old_one(data, tmp_path,
                                                                             capsys):
    """`export --search` with no match wrote an empty memory file with exit 0, over a file
    already there; a folder that does not exist was exit 3 (the environment)."""
    out = tmp_path / "backup.hela"
    out.write_bytes(b"an earlier export")
    assert main(["export", str(out), "--search", "zebras", "--data-dir", str(data)]) == 2
    assert "no memory or chat matches the selection" in capsys.readouterr().err
    assert out.read_bytes() == b"an earlier export"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []
    assert main(["export", str(out), "--search", "Porto", "--data-dir", str(data)]) == 0
    assert capsys.readouterr().out.startswith(f"exported to {out} (native, ")
    with Store(tmp_path / "fresh") as st:  # a whole export of an empty store: a valid backup
        assert st.path.exists()
    empty = tmp_path / "empty.hela"
    assert main(["export", str(empty), "--data-dir", str(tmp_path / "fresh")]) == 0
    assert empty.exists()
    capsys.readouterr()
    assert main(["export", str(tmp_path / "no" / "x.hela"), "--data-dir", str(data)]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_every_json_event_line_starts_with_its_type():
    """`chat --json`'s `done` line carried "type" last, after the whole answer's timeline."""
    from hela_desktop.events import DoneEvent, TokenEvent, to_json

    for ev in (DoneEvent(conversation_id=1, message_id=2, episode_id=3, tokens=4, swaps=0,
                         prefill_tokens=9, tokens_per_s=5.0, elapsed_s=1.0, text="hi"),
               TokenEvent(index=0, text="hi")):
        line = to_json(ev)
        assert line.startswith('{"type": "'), line
        assert json.loads(line) == ev.to_dict()
