"""Entry point of the packaged app (PyInstaller runs this file).

The offline switches are set before anything else is imported, so that no ML library
ever sees an environment without them, whatever the user's shell exports.
"""

from __future__ import annotations

import multiprocessing
import os
import sys


def _run() -> int:
    # A bare environment (env -i, some service managers) has no locale; Qt then warns and
    # falls back to C.UTF-8 anyway. Say so up front instead.
    if not any(os.environ.get(k) for k in ("LC_ALL", "LC_CTYPE", "LANG")):
        os.environ["LC_CTYPE"] = "C.UTF-8"
    from hela_desktop.paths import set_offline_env

    set_offline_env()
    from hela_desktop.cli import main

    return main()


if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(_run())
