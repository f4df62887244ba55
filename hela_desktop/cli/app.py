"""``hela-desktop app`` (and plain ``hela-desktop``): the desktop window."""

from __future__ import annotations

import argparse
import sys

from .common import data_dir_option, model_options, model_overrides

# the settings the app takes from the command line (the window has the rest)
APP_OVERRIDES = ("model_path", "n_gpu_layers", "profile")


def add_cli(sub) -> None:
    p = sub.add_parser("app", parents=[data_dir_option(), model_options()],
                       help="open the desktop app")
    p.set_defaults(func=cmd_app)


def cmd_app(args: argparse.Namespace) -> int:
    try:
        from ..ui.app import run_app
    except ImportError as exc:
        print(f"note: the desktop window is not available ({exc}); starting the terminal chat",
              file=sys.stderr)
        from .chat import cmd_chat

        return cmd_chat(args)
    given = model_overrides(args)
    overrides = {k: given[k] for k in APP_OVERRIDES if given[k] is not None}
    return run_app(args.data_dir, overrides or None)
