"""Where the memory graph's dots were, kept per data folder so that the graph reopens as
it was (Qt-free).

The arrangement is the window's, not a memory: it lives beside the memory file, in
``graph-layout.json`` in the data folder, and not in it, so an export, a backup or a
memory file copied elsewhere carries no layout it does not need, and losing the file loses
nothing but the arrangement (the graph is laid out afresh).  It holds ids, coordinates and
the topic colour each dot wore (``"topics"``: {id: slot}, so a topic keeps its colour across
a restart; a file without it is read as before) only, no words; it is written when the window closes or opens another folder, and every
few minutes while it is open (`KEEP_EVERY_MS`: an app that is killed or crashes loses at
most that much of it), with the dots drawn then (a memory deleted for good leaves it at the
next write; an arrangement already on disk is not written again).  A damaged or foreign
file is ignored.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..paths import write_private_text

LAYOUT_FILE = "graph-layout.json"
VERSION = 1
KEEP_EVERY_MS = 3 * 60 * 1000  # how often an open window keeps its arrangement


def load_positions(data_dir: Path) -> dict[int, tuple[float, float]]:
    """The kept positions, ``{id: (x, y)}`` ({} when there are none or the file is unreadable)."""
    try:
        doc = json.loads((Path(data_dir) / LAYOUT_FILE).read_text(encoding="utf-8"))
        if doc.get("version") != VERSION:
            return {}
        kept = {}
        for key, xy in doc["positions"].items():
            x, y = float(xy[0]), float(xy[1])
            if np.isfinite(x) and np.isfinite(y):
                kept[int(key)] = (x, y)
        return kept
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        return {}


def load_topics(data_dir: Path) -> dict[int, int]:
    """The kept topic colour slots, ``{id: slot}`` ({} when there are none)."""
    try:
        doc = json.loads((Path(data_dir) / LAYOUT_FILE).read_text(encoding="utf-8"))
        if doc.get("version") != VERSION or not isinstance(doc.get("topics"), dict):
            return {}
        return {int(k): int(v) for k, v in doc["topics"].items()
                if isinstance(v, int) and 0 <= v < 64}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def save_positions(data_dir: Path, ids, xy, topics=None) -> bool:
    """Keep these positions, and each dot's topic colour slot (`topics`, -1: none) when
    given (written whole, then moved into place); False when it could not be written (a
    read-only folder: only the arrangement is lost)."""
    ids, xy = np.asarray(ids), np.asarray(xy, dtype=np.float64)
    if not len(ids) or len(ids) != len(xy):
        return False
    doc: dict = {"version": VERSION, "positions": {
        str(int(i)): [round(float(p[0]), 4), round(float(p[1]), 4)]
        for i, p in zip(ids, xy) if np.isfinite(p).all()}}
    if topics is not None and len(topics) == len(ids):
        doc["topics"] = {str(int(i)): int(t) for i, t in zip(ids, topics) if int(t) >= 0}
    path, text = Path(data_dir) / LAYOUT_FILE, json.dumps(doc, separators=(",", ":"))
    try:
        if path.is_file() and path.stat().st_size == len(text) and path.read_text(
                encoding="utf-8") == text:
            return True  # kept already: no write
        write_private_text(path, text)
        return True
    except OSError:
        return False
