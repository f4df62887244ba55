"""README against the code it documents: every command-line option, every setting with its
default, every retrieval profile.  ("Document every command, setting and file format a user
meets": a new option or setting that README does not name fails here.)"""

from __future__ import annotations

import argparse
import re
from dataclasses import fields
from pathlib import Path

from hela_desktop.cli import build_parser
from hela_desktop.config import GateParams, HelaParams, Settings
from hela_desktop.memory import PROFILES

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _options(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(command words, long option) for every option of every command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, (*path, name))
        else:
            for opt in action.option_strings:
                if opt.startswith("--") and opt != "--help":
                    yield path, opt


def test_every_command_line_option_is_named_in_readme():
    missing = sorted({(" ".join(p) or "hela-desktop", o) for p, o in _options(build_parser())
                      if o not in README})
    assert not missing, f"options README does not name: {missing}"


def _settings_rows() -> dict[str, str]:
    """README's settings table: key -> default column, for rows naming one key."""
    table = README.split("### Settings (`settings.json`)", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in table.splitlines():
        m = re.match(r"\| `([\w.*]+)` \| (.+?) \|", line)
        if m:
            rows[m.group(1)] = m.group(2).strip()
    return rows


def _as_readme(v) -> str:
    """A default as README's table writes it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '`""`' if v == "" else f"`{v}`"
    return f"{v:g}"


def test_every_setting_is_in_the_settings_table_with_its_default():
    rows = _settings_rows()
    d = Settings()
    for f in fields(Settings):
        if f.name in ("hela", "streaming"):
            assert f"{f.name}.*" in rows, f.name
            continue
        if f.name == "gate":  # a row (or a shared row) for each of the gate's keys
            assert not [g.name for g in fields(GateParams) if f"`gate.{g.name}`" not in README]
            continue
        if f.name in ("temperature", "top_p"):
            continue  # one row for both (below)
        assert f.name in rows, f"settings.json key {f.name!r} is not in README's table"
        v = getattr(d, f.name)
        if f.name == "system_prompt":
            assert v in rows[f.name]
        else:  # a number in README may carry trailing zeros ("0.10")
            got = rows[f.name]
            want = _as_readme(v)
            assert got == want or (isinstance(v, float) and float(got) == v), (f.name, got, want)
    assert "| `temperature`, `top_p` | 0.7, 0.9 |" in README
    assert (d.temperature, d.top_p) == (0.7, 0.9)


def test_gate_and_name_edge_defaults_in_the_table():
    g, h = GateParams(), HelaParams()
    assert f"| `gate.associations`, `gate.association_min` | {g.associations}, " \
           f"{g.association_min} |" in README
    assert f"| `gate.personal_min`, `gate.general_min` | {g.personal_min}, {g.general_min} |" \
           in README
    assert f"| `hela.name_edge`, `hela.name_edge_k` | {h.name_edge}, {h.name_edge_k} |" in README


def test_the_profile_row_names_every_profile():
    row = _settings_rows()["profile"]
    line = next(ln for ln in README.splitlines() if ln.startswith(f"| `profile` | {row} |"))
    assert set(re.findall(r"`([\w-]+)`", line.split("|")[3])) >= set(PROFILES)
