#!/usr/bin/env python3
"""The layout rules of ARCHITECTURE.md, checked on the source tree (no imports are run).

  1. SQL is executed only in the storage layer (``hela_desktop/store/``).
  2. No module of ``hela_desktop`` is longer than 800 lines.
  3. No import cycle between ``hela_desktop`` modules, counting imports inside functions.
  4. The engine never imports Qt: only ``ui/``, ``cli/`` (which opens the app) and
     ``bench/gui.py`` may import PySide6, pyqtgraph or ``hela_desktop.ui``.
  5. Layers (ARCHITECTURE.md): a module imports only from its own layer or the ones below.

Prints one line per violation and exits 1 if there is any; ``tests/test_layout.py`` runs it.
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 800
SQL_HOME = "hela_desktop/store/"
QT_ALLOWED = ("hela_desktop/ui/", "hela_desktop/cli/", "hela_desktop/bench/gui.py")
QT_MODULES = ("PySide6", "pyqtgraph", "shiboken6", "hela_desktop.ui")
# ARCHITECTURE.md's layers, lowest first: the first part of a module's name under
# hela_desktop (a package or a module) -> its layer
LAYERS = (
    ("base", ("formulas", "config", "paths", "timewords", "correction_cues", "change_words", "kin", "given_names", "about_me", "fact_words", "facts", "name_index", "follow_up", "taken_back", "superseded", "life_news", "whom", "says_of", "your_own", "older_news", "gave_up", "places_of", "passed_over", "opposites", "doses", "made_up", "language", "food_groups", "medicines", "cautions", "allergy_of", "minors", "words", "events", "embedder", "model_catalog",
              "answer_loop",
              "qtlibs", "consolidate_params", "memory_index", "folder_lock", "cxx_runtime",
              "__init__")),
    ("storage", ("store",)),
    ("memory", ("backups", "edges", "retrieval", "memory", "knowledge", "recall_reasons", "gate", "forgetting",
                "consolidate_prompt", "consolidate", "prompt", "forget_request",
                "about_you")),
    ("models", ("kvcache", "side_context", "model_f16", "llm", "server_llm")),
    ("turns", ("turn", "swap", "local_turn", "server_turn", "assistant", "loader", "session",
               "doubt", "sources", "scheduler")),
    ("files", ("memfile", "importers", "chat_export")),
    ("front ends", ("ui", "bench")),
    ("command line", ("cli", "__main__")),
)
LAYER_OF = {part: (rank, name) for rank, (name, parts) in enumerate(LAYERS) for part in parts}
SQL_CALL = re.compile(r"\.(execute|executemany|executescript)\(")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted((root / "hela_desktop").rglob("*.py"))}


def layer(module: str) -> tuple[int, str] | None:
    parts = module.split(".")
    return LAYER_OF.get(parts[1] if len(parts) > 1 else "__init__")


def imported(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    """The hela_desktop modules (and any other top-level modules) that `path` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_pkg = path.name == "__init__.py"
    here = name.split(".") if is_pkg else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            for a in node.names:
                sub = f"{mod}.{a.name}"
                out.add(sub if sub in known else mod)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return found


def violations(root: Path = ROOT) -> list[str]:
    known = modules(root)
    out: list[str] = []
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n") + (0 if text.endswith("\n") else 1)
        if lines > MAX_LINES:
            out.append(f"{rel}: {lines} lines (at most {MAX_LINES})")
        if not rel.startswith(SQL_HOME):
            for no, line in enumerate(text.splitlines(), 1):
                if SQL_CALL.search(line):
                    out.append(f"{rel}:{no}: SQL outside the storage layer: {line.strip()}")
        deps = imported(path, name, known)
        if not rel.startswith(QT_ALLOWED):
            for d in sorted(deps):
                if d.startswith(QT_MODULES):
                    out.append(f"{rel}: the engine imports Qt ({d})")
        mine = layer(name)
        if mine is None:
            out.append(f"{rel}: in no layer of ARCHITECTURE.md (add it to LAYERS)")
        else:
            for d in sorted(x for x in deps if x in known):
                theirs = layer(d)
                if theirs is not None and theirs[0] > mine[0]:
                    out.append(f"{rel}: layer '{mine[1]}' imports {d} of the higher layer "
                               f"'{theirs[1]}'")
        # a package's own __init__ is not an edge from its submodules' point of view when
        # they import a sibling; edges run to the exact module named
        graph[name] = {d for d in deps if d in known and d != name}
    for comp in cycles(graph):
        out.append("import cycle: " + " <-> ".join(comp))
    return out


def main() -> int:
    found = violations()
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} layout violation(s)", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
