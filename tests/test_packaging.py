"""The wheel carries every package and the app icon (resources/ lives at the top level)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_listed_in_pyproject():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "hela_desktop").rglob("__init__.py")}
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    assert "hela_desktop.resources" in listed


def test_wheel_contains_the_code_and_the_icon(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(ROOT)],
        check=True, capture_output=True, timeout=300)
    wheel = next(tmp_path.glob("hela_desktop-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for need in ("hela_desktop/cli/__init__.py", "hela_desktop/ui/main_window.py",
                 "hela_desktop/bench/speed.py", "hela_desktop/resources/hela-desktop.svg",
                 "hela_desktop/resources/hela-desktop.png"):
        assert need in names, need
    assert not any(n.startswith("tests/") for n in names)
