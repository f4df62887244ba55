"""`hela-desktop memories …` on a real SQLite file with the real embedder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from hela_desktop.cli import main
from hela_desktop.config import Settings
from hela_desktop.memory import MemoryEngine, NewEpisode
from hela_desktop.store import Store

SEED = [
    ("I am allergic to peanuts, so I avoid satay.", "Good to know; I will keep that in mind."),
    ("My sister Ana lives in Lisbon.", "Nice, Lisbon is a lovely city."),
    ("I work as a nurse at the hospital in Porto.", "Nursing is demanding work."),
    ("My cat is called Miso and he is orange.", "Miso is a great name for a cat."),
    ("I am learning to play the piano.", "Practice a little every day."),
]


@pytest.fixture
def data(tmp_path, embedder):
    d = tmp_path / "data"
    with Store(d) as st:
        MemoryEngine(st, embedder, Settings()).add_episodes(
            [NewEpisode(u, a, created_at=time.time() - 60 * (9 - i)) for i, (u, a) in enumerate(SEED)])
    return d


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.slow
def test_search_by_meaning_from_the_installed_command(data):
    """The issue's check: `memories search allergy --json` finds the memory saying "allergic"."""
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    r = subprocess.run([sys.executable, "-m", "hela_desktop.cli", "memories", "search", "allergy",
                        "--json", "--data-dir", str(data)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    hits = json.loads(r.stdout)
    assert hits and "allergic" in hits[0]["user"]
    assert hits[0]["semantic"] > 0.35 and hits[0]["score"] >= hits[-1]["score"]
    # unrelated memories are not listed
    assert not any("piano" in h["user"] or "Lisbon" in h["user"] for h in hits)


def test_search_ranks_meaning_plus_keywords(data, capsys):
    rc, out, _ = run(capsys, "memories", "search", "food allergy", "--json", "--data-dir", str(data))
    assert rc == 0 and "allergic" in json.loads(out)[0]["user"]
    # a keyword that is in one memory ranks it first, with a keyword share
    rc, out, _ = run(capsys, "memories", "search", "Miso", "--json", "--data-dir", str(data))
    hits = json.loads(out)
    assert hits[0]["user"].startswith("My cat is called Miso") and hits[0]["keyword"] == 1.0
    rc, out, _ = run(capsys, "memories", "search", "sister", "--data-dir", str(data))
    assert rc == 0 and out.splitlines()[0].split()[1] == "#2" and "keywords" in out.splitlines()[0]
    rc, out, _ = run(capsys, "memories", "search", "xyzzy quux", "--data-dir", str(data))
    assert rc == 0 and "nothing matches" in out


def test_a_question_that_echoes_the_search_does_not_hide_the_fact(tmp_path, embedder, capsys):
    """The QA pass of the seventeenth session: with "What am I allergic to?" asked once,
    searching "allergy" listed only that question (cos 0.71) and not "I'm allergic to
    peanuts…" (0.45), which fell under the band below the best match (0.51)."""
    d = tmp_path / "data"
    with Store(d) as st:
        MemoryEngine(st, embedder, Settings()).add_episodes([
            NewEpisode("I'm allergic to peanuts and shellfish, so I have to be careful when "
                       "eating out.", "Noted."),
            NewEpisode("My dog is called Biscuit and he's a Jack Russell terrier.", "Cute!"),
            NewEpisode("What am I allergic to?", "Peanuts and shellfish.")])
    rc, out, _ = run(capsys, "memories", "search", "allergy", "--json", "--data-dir", str(d))
    users = [h["user"] for h in json.loads(out)]
    assert rc == 0 and len(users) == 2 and users[0] == "What am I allergic to?"
    assert users[1].startswith("I'm allergic to peanuts")  # the fact, found
    rc, out, _ = run(capsys, "memories", "search", "dog", "--json", "--data-dir", str(d))
    assert [h["user"][:9] for h in json.loads(out)] == ["My dog is"]


def test_list_show_edit_pin_delete_restore(data, capsys):
    rc, out, _ = run(capsys, "memories", "list", "--json", "--data-dir", str(data))
    rows = json.loads(out)
    assert rc == 0 and [r["id"] for r in rows] == [5, 4, 3, 2, 1]  # newest first
    rc, out, _ = run(capsys, "memories", "show", "2", "--data-dir", str(data))
    assert rc == 0 and "Memory #2 (active)" in out and "Ana lives in Lisbon" in out

    rc, out, _ = run(capsys, "memories", "edit", "2", "--user", "My sister Ana lives in Madrid.",
                     "--data-dir", str(data))
    assert rc == 0 and "re-embedded" in out
    rc, out, _ = run(capsys, "memories", "search", "Spain capital", "--json", "--data-dir", str(data))
    assert any(h["id"] == 2 for h in json.loads(out))  # recall follows the edit
    rc, out, _ = run(capsys, "memories", "show", "2", "--json", "--data-dir", str(data))
    shown = json.loads(out)
    assert shown["user"].endswith("Madrid.") and shown["assistant"] == SEED[1][1]

    assert run(capsys, "memories", "pin", "3", "--data-dir", str(data))[0] == 0
    with Store(data) as st:
        assert st.episode(3).pinned
    assert run(capsys, "memories", "pin", "3", "--off", "--data-dir", str(data))[0] == 0
    rc, out, _ = run(capsys, "memories", "delete", "4", "--data-dir", str(data))
    assert rc == 0 and "memories restore 4" in out
    rc, out, _ = run(capsys, "memories", "list", "--json", "--data-dir", str(data))
    assert 4 not in [r["id"] for r in json.loads(out)]
    rc, out, _ = run(capsys, "memories", "search", "cat", "--json", "--data-dir", str(data))
    assert 4 not in [h["id"] for h in json.loads(out)]  # deleted: out of search too
    assert run(capsys, "memories", "restore", "4", "--data-dir", str(data))[0] == 0
    with Store(data) as st:
        e = st.episode(4)
        assert e.deleted_at is None and not st.episode(3).pinned


def test_bad_input_is_one_error_line(data, tmp_path, capsys):
    for argv, msg in (
        (("show", "99"), "no memory #99"),
        (("edit", "1"), "nothing to change"),
        (("edit", "1", "--user", " ", "--answer", ""), "cannot be empty"),
        (("restore", "1"), "neither deleted nor archived"),
        (("search", "  "), "empty search"),
    ):
        rc, out, err = run(capsys, "memories", *argv, "--data-dir", str(data))
        assert rc == 2 and err.startswith("error: ") and msg in err and len(err.splitlines()) == 1, (argv, err)
    rc, _, err = run(capsys, "memories", "list", "--data-dir", str(tmp_path / "empty"))
    assert rc == 2 and "no memories in" in err and not (tmp_path / "empty").exists()
    with Store(data) as st:  # nothing was changed by the refused commands
        assert st.episode(1).user_text == SEED[0][0]


def test_out_of_range_numbers_are_one_usage_line_not_a_traceback(data, capsys):
    """QA pass 6: an id past SQLite's largest integer was an OverflowError traceback (exit 1);
    `--limit 0`/`-1` silently listed one memory; `forget --stale-days -5` archived fresh ones."""
    huge = "99999999999999999999999"
    for argv in (("memories", "show", huge), ("memories", "pin", huge), ("memories", "show", "0"),
                 ("restore", huge), ("knowledge", "delete", huge),
                 ("export", str(data / "x.hela"), "--conversation", huge),
                 ("chat", "-m", "hi", "--conversation", huge),
                 ("memories", "list", "--limit", "0"), ("memories", "search", "cat", "--limit", "-1"),
                 ("forget", "--dry-run", "--stale-days", "-5"),
                 ("forget", "--dry-run", "--max-degree", "-1")):
        with pytest.raises(SystemExit) as exc:
            main([*argv, "--data-dir", str(data)])
        err = capsys.readouterr().err
        assert exc.value.code == 2 and "error: argument" in err and "Traceback" not in err, (argv, err)
    rc, out, _ = run(capsys, "memories", "list", "--limit", "2", "--data-dir", str(data))
    assert rc == 0 and "(2 of 5 memories)" in out


def test_emptying_what_you_said_is_refused(data, capsys):
    """QA pass 6: `memories edit 1 --user ""` wiped what you said (the memory then
    answered no question about it)."""
    rc, _, err = run(capsys, "memories", "edit", "1", "--user", "  ", "--data-dir", str(data))
    assert rc == 2 and err.startswith("error: ") and "cannot be empty" in err
    with Store(data) as st:
        assert st.episode(1).user_text == SEED[0][0]


def test_list_reads_a_memory_file_named_directly_and_names_a_file_folder(data, tmp_path, capsys):
    """QA pass 6: `--data-dir …/memory.sqlite3` (accepted by the other commands) listed
    'no memories … yet', and so did a data folder that is a plain file."""
    rc, out, _ = run(capsys, "memories", "list", "--data-dir", str(data / "memory.sqlite3"))
    assert rc == 0 and "(5 of 5 memories)" in out
    f = tmp_path / "notes.txt"
    f.write_text("hello")
    rc, _, err = run(capsys, "memories", "list", "--data-dir", str(f))
    assert rc == 3 and "is a file" in err and "no memories" not in err and f.read_text() == "hello"


@pytest.mark.parametrize("argv", [
    ("knowledge", "list"), ("knowledge", "delete", "1"), ("forget", "--list"),
    ("forget", "--dry-run"), ("forget",), ("restore", "3"), ("consolidate", "--dry-run"),
    ("export", "OUT"),
])
def test_a_mistyped_data_folder_is_refused_and_not_created(tmp_path, capsys, argv):
    """QA pass 6: with a mistyped --data-dir these commands made a new, empty data folder
    and answered "0 archived memories", "no knowledge yet", or wrote an empty export with
    exit 0 (a backup that holds nothing)."""
    missing, out = tmp_path / "typo", tmp_path / "backup.hela"
    argv = tuple(str(out) if a == "OUT" else a for a in argv)
    rc = main([*argv, "--data-dir", str(missing)])
    err = capsys.readouterr().err
    assert rc == 2 and f"no memories in {missing} yet" in err and len(err.splitlines()) == 1
    assert not missing.exists() and not out.exists()


def test_list_and_search_lines_fit_a_narrow_terminal(data, capsys, monkeypatch):
    """QA pass 6: `memories list` cut a memory at 100 characters whatever the terminal's
    width, so each line (about 126 characters) wrapped in an 80- or 60-column terminal."""
    monkeypatch.setenv("COLUMNS", "60")
    rc, out, _ = run(capsys, "memories", "list", "--data-dir", str(data))
    assert rc == 0 and max(len(line) for line in out.splitlines()) <= 60
    assert "#1" in out and "(5 of 5 memories)" in out
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, _ = run(capsys, "memories", "search", "cat", "--data-dir", str(data))
    assert rc == 0 and out and max(len(line) for line in out.splitlines()) <= 80
    monkeypatch.delenv("COLUMNS")  # piped, no $COLUMNS: the full 100 characters, as before
    rc, out, _ = run(capsys, "memories", "list", "--data-dir", str(data))
    assert max(len(line) for line in out.splitlines()) > 80


def test_an_empty_data_dir_is_refused_not_the_current_folder(tmp_path, capsys, monkeypatch):
    """QA pass 6: `--data-dir ""` (an unset shell variable) meant the current folder:
    `chat` would have made a memory file wherever the terminal stood."""
    monkeypatch.chdir(tmp_path)
    for argv in (("chat", "-m", "hi", "--data-dir", ""), ("--data-dir", " ", "memories", "list")):
        with pytest.raises(SystemExit) as exc:
            main(list(argv))
        err = capsys.readouterr().err
        assert exc.value.code == 2 and "--data-dir: empty" in err, err
    assert not any(tmp_path.iterdir())


def test_chat_new_and_conversation_together_are_refused(data, capsys):
    """QA pass 6: `chat --new --conversation 1` ignored --new and went on in chat 1."""
    with pytest.raises(SystemExit) as exc:
        main(["chat", "--new", "--conversation", "1", "-m", "hi", "--data-dir", str(data)])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "not allowed with argument" in err


def test_export_to_dash_is_refused_not_a_file_named_dash(data, tmp_path, capsys, monkeypatch):
    """QA pass 6: `export -` wrote a file called "-" into the current folder."""
    monkeypatch.chdir(tmp_path)
    rc, _, err = run(capsys, "export", "-", "--data-dir", str(data))
    assert rc == 2 and err.startswith("error: export writes a file")
    assert not (tmp_path / "-").exists()
