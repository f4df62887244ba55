"""What the SQLite library of this Python can do (for ``hela-desktop doctor``)."""

from __future__ import annotations

import sqlite3


def fts5_available() -> bool:
    """True when SQLite has the FTS5 full-text extension (keyword search needs it)."""
    try:
        c = sqlite3.connect(":memory:")
        try:
            c.execute("CREATE VIRTUAL TABLE t USING fts5(x)")
        finally:
            c.close()
    except sqlite3.Error:
        return False
    return True
