"""The window tests' environment, set before PySide6 is imported: Qt offscreen, no model
hub, and a throwaway folder for QSettings (the app remembers window layout and data folder
there: the tests stay away from, and independent of, whatever a real session stored).

Import it first in a window test module: ``import qt_env  # noqa: F401``."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="hela-qt-config-")
