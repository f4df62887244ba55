"""Entry point of the packaged app (PyInstaller runs this file).

The offline switches are set before anything else is imported, so that no ML library
ever sees an environment without them, whatever the user's shell exports.
"""

from __future__ import annotations

import multiprocessing
import sys


def _run() -> int:
    from hela_desktop.paths import set_offline_env

    set_offline_env()
    from hela_desktop.cli import main

    return main()


if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(_run())
