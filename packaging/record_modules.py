"""Record every module a real chat turn imports, for the bundle's hidden imports.

transformers, sentence-transformers and torch import much of their code lazily (by name,
through ``importlib``), which PyInstaller's static analysis cannot see.  This script runs one
real turn (embedder + GGUF model, retrieval, generation with re-retrieval, storage) in a
temporary data folder and writes the names of all imported modules to
``packaging/runtime_modules.txt``; the spec file adds them as hidden imports.

Run it again after upgrading torch, transformers or sentence-transformers::

    .venv/bin/python packaging/record_modules.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent / "runtime_modules.txt"
SKIP_PREFIXES = ("__main__", "__mp_main__", "__editable__", "_distutils_hack", "hela_desktop",
                 "_pytest", "pytest", "hypothesis", "pytestqt")


def main() -> int:
    """Run one turn and write the sorted module list."""
    from hela_desktop.paths import set_offline_env

    set_offline_env()
    from hela_desktop.loader import open_assistant

    with tempfile.TemporaryDirectory() as tmp:
        assistant = open_assistant(Path(tmp))
        for message in ("hello", "My sister Ana lives in Lisbon.", "Where does my sister live?"):
            events = list(assistant.chat(message, seed=1))
        assistant.close()
    if not events or events[-1].type != "done":
        print("the turn did not finish", file=sys.stderr)
        return 1
    names = sorted(m for m in list(sys.modules)
                   if not m.startswith(SKIP_PREFIXES) and m not in sys.builtin_module_names)
    OUT.write_text("\n".join(names) + "\n", encoding="utf-8")
    print(f"{len(names)} modules -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
