"""The layout rules of ARCHITECTURE.md hold for the tree (scripts/check_layout.py), and the
checker itself catches each kind of violation in a small planted tree."""
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _checker():
    spec = importlib.util.spec_from_file_location("check_layout", ROOT / "scripts" / "check_layout.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["check_layout"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_the_tree_keeps_the_layout_rules():
    assert _checker().violations() == []


def test_the_checker_catches_each_kind_of_violation(tmp_path):
    pkg = tmp_path / "hela_desktop"
    (pkg / "store").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "store" / "__init__.py").write_text("from ..memory import x\n")  # storage -> memory
    (pkg / "memory.py").write_text(
        "def f(conn):\n    from .gate import y\n    conn.execute('select 1')\n")
    (pkg / "gate.py").write_text("from .memory import f\nfrom PySide6 import QtCore\n")
    (pkg / "formulas.py").write_text("x = 1\n" * 801)
    (pkg / "oddity.py").write_text("")
    found = "\n".join(_checker().violations(tmp_path))
    assert "hela_desktop/memory.py:3: SQL outside the storage layer" in found
    assert "hela_desktop/formulas.py: 801 lines" in found
    assert "import cycle: hela_desktop.gate <-> hela_desktop.memory" in found
    assert "hela_desktop/gate.py: the engine imports Qt (PySide6)" in found
    assert "layer 'storage' imports hela_desktop.memory of the higher layer 'memory'" in found
    assert "hela_desktop/oddity.py: in no layer" in found
