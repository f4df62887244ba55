"""``hela-desktop doctor``: versions, model and embedder paths, GPU offload, data folder."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from .. import __version__
from .common import data_dir_option, model_options, settings_from_args

PACKAGES = ("llama-cpp-python", "sentence-transformers", "torch", "numpy",
            "PySide6-Essentials", "pyqtgraph", "APScheduler")


def add_cli(sub) -> None:
    doctor = sub.add_parser("doctor", parents=[data_dir_option(), model_options()],
                            help="versions, model and embedder paths, GPU offload, data folder")
    doctor.add_argument("--json", action="store_true", help="print the report as JSON")
    doctor.set_defaults(func=cmd_doctor)


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:  # noqa: BLE001
        return "not installed"


def _model(s) -> tuple[str, bool, str]:
    """(the model file, whether it loads as a GGUF, why not)."""
    from ..llm import ModelError, check_gguf
    from ..model_catalog import why_unusable

    try:
        path = check_gguf(s.model_path or None)
    except ModelError as exc:
        return s.model_path or "(bundled default)", False, str(exc)
    why = why_unusable(path)  # (a download cut short has the right first bytes too)
    return str(path), not why, f"llama.cpp cannot use this file: {why}" if why else ""


def _server(s) -> dict | None:
    """The model server's check, when the settings answer with one."""
    if s.backend != "server":
        return None
    from ..server_llm import api_key, check_server, privacy_warning

    key = api_key(s)
    ok, line = check_server(s.server_url, s.server_model, key, timeout=s.server_timeout)
    return {"url": s.server_url, "model": s.server_model, "ok": ok, "message": line,
            "api_key_set": bool(key), "warning": privacy_warning(s.server_url)}


def _other_apps_models() -> list[dict]:
    """The GGUF chat models LM Studio, Jan, GPT4All and Ollama keep (the Settings list)."""
    from ..model_catalog import find_models

    return [{"name": m.name, "app": m.app, "path": str(m.path), "description": m.describe(),
             "usable": not m.problem} for m in find_models()]


def doctor_report(args: argparse.Namespace) -> dict:
    """Everything `doctor` prints, as a dict."""
    import platform
    import sqlite3

    from ..config import Settings, SettingsError
    from ..llm import clash_with_torch, gpu_offload_supported
    from ..model_f16 import state as f16_state
    from ..paths import bundled_embedder_path, bundled_model_path, scan_models
    from ..qtlibs import report as qt_xcb_report
    from ..store import DB_FILE, check_memory_file, fts5_available

    settings_error = ""
    try:
        s = settings_from_args(args)
    except SettingsError as exc:
        s, settings_error = Settings(), str(exc)
    data_dir = Path(args.data_dir)
    data_dir_error = ("the data folder is a file, not a folder; move it aside or choose "
                      "another --data-dir" if data_dir.exists() and not data_dir.is_dir() else "")
    model, model_ok, model_msg = _model(s)
    db = data_dir / DB_FILE
    beside_torch = clash_with_torch(model=model if model_ok else None)  # before llama.cpp loads
    return {
        "hela-desktop": __version__,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": {m: _version(m) for m in PACKAGES},
        "sqlite": sqlite3.sqlite_version, "fts5": fts5_available(),
        "model": model, "model_ok": model_ok, "model_error": model_msg,
        "bundled_model": str(bundled_model_path() or "missing"),
        "bundled_model_f16": f16_state(bundled_model_path()),
        "models_found": [str(p) for p in scan_models(args.data_dir)],
        "other_apps_models": _other_apps_models(),
        "embedder": str(bundled_embedder_path() or "missing"),
        "gpu_offload_supported": gpu_offload_supported(),
        "beside_torch": beside_torch,  # None: a build without CUDA, nothing to check
        "n_gpu_layers_setting": s.n_gpu_layers,
        "data_dir": str(args.data_dir),
        "data_dir_error": data_dir_error,
        "settings_error": settings_error,
        "memory_file": str(db) if db.exists() else f"{db} (not created yet)",
        "memory_file_error": check_memory_file(db) if db.is_file() else "",
        "backups": _backups(db, s.backup_keep),
        "hf_hub_offline": os.environ.get("HF_HUB_OFFLINE"),
        "qt_xcb": qt_xcb_report(),
        "backend": s.backend,
        "server": _server(s),
    }


def _backups(db: Path, keep: int) -> dict:
    """How many backups the data folder holds, the newest, and how many are kept."""
    from ..backups import list_backups

    found = list_backups(db)
    return {"count": len(found), "newest": found[0].to_dict()["made"] if found else None,
            "keep": keep}


def _problem(line: str, detail: str) -> str:
    """`line`, and when `detail` is set, a [PROBLEM] mark with the detail below it."""
    return line + (f"  [PROBLEM]\n                  {detail}" if detail else "")


def format_report(rep: dict) -> str:
    """The report as `doctor` prints it without --json."""
    out = [f"HeLa Desktop {rep['hela-desktop']} on Python {rep['python']} ({rep['platform']})"]
    out += [f"  {k:24} {v}" for k, v in rep["versions"].items()]
    out.append(f"  {'sqlite':24} {rep['sqlite']} (FTS5 {'yes' if rep['fts5'] else 'NO'})")
    out.append(f"model:            {rep['model']}" + ("" if rep["model_ok"] else "  [PROBLEM]"))
    if rep["model_error"]:
        out.append(f"                  {rep['model_error']}")
    out.append(f"bundled at F16:   {rep['bundled_model_f16']}")
    out.append(f"models found:     {len(rep['models_found'])}")
    out += [f"                  {m}" for m in rep["models_found"]]
    others = rep["other_apps_models"]
    out.append(f"other apps:       {len(others)} GGUF chat model{'' if len(others) == 1 else 's'}"
               " of LM Studio, Jan, GPT4All, Ollama" + (" (use one with --model PATH or in "
                                                        "Settings)" if others else ""))
    for m in others:
        out += [f"                  {m['description']}", f"                    {m['path']}"]
    out.append(f"embedder:         {rep['embedder']}")
    out.append(f"GPU offload:      {'supported' if rep['gpu_offload_supported'] else 'not supported (CPU build)'}"
               f"; n_gpu_layers setting {rep['n_gpu_layers_setting']}")
    if rep["beside_torch"] is not None:
        out.append(_problem("with torch:       " + ("loads in one process" if not rep["beside_torch"]
                                                    else "fails"), rep["beside_torch"]))
    out.append(_problem(f"data folder:      {rep['data_dir']}", rep["data_dir_error"]))
    out.append(_problem(f"memory file:      {rep['memory_file']}", rep["memory_file_error"]))
    bk = rep["backups"]
    out.append("backups:          " + (
        "off (backup_keep 0)" if not bk["keep"] else
        f"{bk['count']}, newest {bk['newest']} (keeps {bk['keep']})" if bk["count"] else
        f"none yet (one a day while the app is idle; keeps {bk['keep']})"))
    if rep["settings_error"]:
        out.append(f"settings:         [PROBLEM]\n                  {rep['settings_error']}")
    out.append(f"offline mode:     HF_HUB_OFFLINE={rep['hf_hub_offline']}")
    xcb = rep["qt_xcb"]
    out.append("window (Qt xcb):  " + ("libraries found" if xcb["ok"] else
               f"missing {', '.join(xcb['missing_libraries'])}  [PROBLEM]\n"
               f"                  install them with: {xcb['install']}"))
    srv = rep["server"]
    if srv is not None:
        out.append(f"model server:     {'ok' if srv['ok'] else 'PROBLEM'}: {srv['message']}")
        if srv["warning"]:
            out.append(f"                  warning: {srv['warning']}")
    return "\n".join(out)


def report_ok(rep: dict) -> bool:
    """Whether everything the app needs is there: the embedder, FTS5, a usable data folder,
    settings and memory file, the model (or the server), the window's libraries, and a
    GPU build of llama.cpp that torch can share a process with."""
    ok = (rep["embedder"] != "missing" and rep["fts5"] and not rep["beside_torch"]
          and not (rep["data_dir_error"] or rep["settings_error"] or rep["memory_file_error"]))
    answers = rep["server"]["ok"] if rep["server"] is not None else rep["model_ok"]
    return bool(ok and answers and rep["qt_xcb"]["ok"])


def cmd_doctor(args: argparse.Namespace) -> int:
    rep = doctor_report(args)
    print(json.dumps(rep, indent=2) if args.json else format_report(rep))
    return 0 if report_ok(rep) else 1
