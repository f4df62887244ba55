"""``hela-desktop``: the desktop app, terminal chat, doctor, benchmarks, memory files.

Every subcommand is a thin wrapper over one library function; every one takes
``--data-dir DIR`` (default: the platform's user data folder, or ``$HELA_DATA_DIR``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import threading
from pathlib import Path

from .. import __version__
from ..paths import default_data_dir, set_offline_env


def _at_least(low, kind=int):
    """An argparse type: a number of `kind` not below `low` (else a usage error, exit 2)."""
    def check(text: str):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not v >= low:  # also refuses nan
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {text}")
        return v

    return check


def _common() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--data-dir", type=Path, default=argparse.SUPPRESS,
                   help="memory and settings folder (default: the platform user data folder, or $HELA_DATA_DIR)")
    return p


def _model_opts() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--model", metavar="PATH", help="GGUF model file (default: the setting, "
                   "else the bundled SmolLM2-135M-Instruct)")
    p.add_argument("--gpu-layers", type=_at_least(-1), help="layers to offload (-1 all, 0 CPU)")
    from ..memory import PROFILES

    p.add_argument("--profile", choices=PROFILES, help="retrieval profile (default: the setting)")
    p.add_argument("--server", metavar="URL", help="answer with an OpenAI-compatible model server "
                   "(e.g. http://127.0.0.1:8080) instead of a local model; the API key comes "
                   "from the setting or $HELA_SERVER_API_KEY")
    p.add_argument("--model-name", metavar="NAME", help="the server's model (default: the "
                   "setting, else the server's only model)")
    return p


def build_parser() -> argparse.ArgumentParser:
    common = _common()
    parser = argparse.ArgumentParser(
        prog="hela-desktop", parents=[common],
        description="HeLa Desktop: a private, offline assistant with a live Hebbian memory. "
                    "Without a command it opens the desktop app.")
    parser.add_argument("--version", action="version", version=f"hela-desktop {__version__}")
    parser.add_argument("--terminal", action="store_true",
                        help="start the terminal chat instead of the window")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    app = sub.add_parser("app", parents=[common, _model_opts()], help="open the desktop app")
    app.set_defaults(func=cmd_app)

    chat = sub.add_parser("chat", parents=[common, _model_opts()],
                          help="terminal chat (interactive, or one turn with --message)")
    chat.add_argument("--message", "-m", help="send one message and exit")
    chat.add_argument("--json", action="store_true", help="print events as JSON lines")
    chat.add_argument("--conversation", type=int, help="continue this conversation id")
    chat.add_argument("--new", action="store_true", help="start a new conversation")
    chat.add_argument("--max-tokens", type=_at_least(1), help="longest answer, in tokens")
    chat.add_argument("--temperature", type=_at_least(0.0, float))
    chat.add_argument("--seed", type=int, help="sampling seed (reproducible answers)")
    chat.set_defaults(func=cmd_chat)

    doctor = sub.add_parser("doctor", parents=[common, _model_opts()],
                            help="versions, model and embedder paths, GPU offload, data folder")
    doctor.add_argument("--json", action="store_true")
    doctor.set_defaults(func=cmd_doctor)

    bench = sub.add_parser("bench", help="benchmarks (speed, locomo, personal, gui)")
    bsub = bench.add_subparsers(dest="bench", metavar="BENCH")
    speed = bsub.add_parser("speed", parents=[common, _model_opts()],
                            help="retrieval latency, streaming overhead, prefill reuse, "
                                 "memory files, consolidation")
    speed.add_argument("--sizes", default="1000,10000,100000",
                       help="memory pool sizes for retrieval latency")
    speed.add_argument("--queries", type=int, default=60, help="queries per pool size")
    speed.add_argument("--answers", type=int, default=8, help="answers per streaming run")
    speed.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    speed.add_argument("--skip", default="", help="comma list: retrieval,stream,eager,turns,memfile,import,consolidate")
    speed.add_argument("--stress", type=_at_least(0), default=0, metavar="N",
                       help="run the streaming comparisons beside N busy processes (a busy "
                            "machine) and report ratio, largest swap pause and pause share")
    speed.add_argument("--json", action="store_true")
    speed.add_argument("--server-log", metavar="FILE", help="with --server: the log of a "
                       "llama_cpp.server run with --verbose True (it reports processed prompt "
                       "tokens only there)")
    speed.set_defaults(func=cmd_bench_speed)
    gui = bsub.add_parser("gui", parents=[common], help="graph view frame time")
    gui.add_argument("--sizes", default="500,2000,5000")
    gui.add_argument("--json", action="store_true")
    gui.set_defaults(func=cmd_bench_gui)
    bench.set_defaults(func=lambda a: (bench.print_help(), 2)[1])

    for mod, attr, target in (
        ("hela_desktop.bench.locomo", "add_cli", bsub),
        ("hela_desktop.bench.personal", "add_cli", bsub),
        ("hela_desktop.memfile", "add_cli", sub),
        ("hela_desktop.consolidate", "add_cli", sub),
        ("hela_desktop.memories_cli", "add_cli", sub),
        ("hela_desktop.knowledge_cli", "add_cli", sub),
    ):
        try:
            m = importlib.import_module(mod)
        except ImportError:
            continue
        reg = getattr(m, attr, None)
        if reg is not None:
            before = set(target.choices)
            reg(target)
            for name in set(target.choices) - before:
                _add_common(target.choices[name], common)
    return parser


def _add_common(p: argparse.ArgumentParser, common: argparse.ArgumentParser) -> None:
    if not any("--data-dir" in a.option_strings for a in p._actions):
        p.add_argument("--data-dir", type=Path, default=argparse.SUPPRESS,
                       help="memory and settings folder")


def main(argv: list[str] | None = None) -> int:
    set_offline_env()
    parser = build_parser()
    args = parser.parse_args(argv)
    args.data_dir = Path(getattr(args, "data_dir", None) or default_data_dir()).expanduser()
    func = getattr(args, "func", None)
    if func is None:
        func = cmd_chat if args.terminal else cmd_app
        for k, v in (("model", None), ("gpu_layers", None), ("profile", None), ("message", None),
                     ("server", None), ("model_name", None),
                     ("json", False), ("conversation", None), ("new", False),
                     ("max_tokens", None), ("temperature", None), ("seed", None)):
            setattr(args, k, getattr(args, k, v))
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        msg = environment_error(exc, args.data_dir)
        if msg is None:
            raise
        print(f"error: {msg}", file=sys.stderr)
        return EXIT_ENVIRONMENT


EXIT_ENVIRONMENT = 3  # the machine, not the input: store busy or damaged, disk, folder, settings


def environment_error(exc: BaseException, data_dir: Path) -> str | None:
    """One line (what happened, what to do) for an error that comes from the environment
    rather than from a bug: the memory file busy, damaged or newer, the data folder a file,
    read-only or full, settings.json malformed.  None for anything else."""
    import sqlite3

    from ..config import SettingsError
    from ..store import DB_FILE, StoreError, db_error_message

    if isinstance(exc, (StoreError, SettingsError)):
        return str(exc)
    if isinstance(exc, OSError) and exc.errno not in (1, 13, 17, 20, 28, 30, 122):
        return f"{exc.filename or data_dir}: {exc.strerror or exc}"
    if isinstance(exc, (sqlite3.Error, OSError)):
        return db_error_message(Path(data_dir) / DB_FILE, exc)
    return None


# ---------------------------------------------------------------------- helpers ------
def _settings(args):
    from ..config import Settings

    s = Settings.load(args.data_dir)  # a malformed file: SettingsError, one line in main()
    if getattr(args, "model", None):
        s.model_path = str(Path(args.model).expanduser())
    if getattr(args, "gpu_layers", None) is not None:
        s.n_gpu_layers = args.gpu_layers
    if getattr(args, "profile", None):
        s.profile = args.profile
    if getattr(args, "max_tokens", None) is not None:
        s.max_answer_tokens = args.max_tokens
    if getattr(args, "temperature", None) is not None:
        s.temperature = args.temperature
    if getattr(args, "server", None):
        s.backend, s.server_url = "server", args.server
    if getattr(args, "model_name", None):
        s.server_model = args.model_name
    if getattr(args, "model", None):
        s.backend = "local"
    s.validate()
    return s


def _error(msg: str, code: int = 2) -> int:
    print(f"error: {msg}", file=sys.stderr)
    return code


# ---------------------------------------------------------------------- commands -----
def cmd_app(args) -> int:
    try:
        from .ui.app import run_app
    except ImportError as exc:
        print(f"note: the desktop window is not available ({exc}); starting the terminal chat",
              file=sys.stderr)
        return cmd_chat(args)
    overrides = {}
    if getattr(args, "model", None):
        overrides["model_path"] = str(Path(args.model).expanduser())
    if getattr(args, "gpu_layers", None) is not None:
        overrides["n_gpu_layers"] = args.gpu_layers
    if getattr(args, "profile", None):
        overrides["profile"] = args.profile
    return run_app(args.data_dir, overrides or None)


def cmd_chat(args) -> int:
    from ..assistant import AnswerNotSaved, Assistant, MessageTooLong
    from ..embedder import EmbedderError
    from ..events import DoneEvent, MemoriesEvent, MemoryUpdateEvent, TokenEvent, to_json
    from ..llm import LocalLLM, ModelError
    from ..server_llm import ServerError, server_llm
    from ..store import StoreError

    s = _settings(args)
    if args.message is not None and not args.message.strip():
        return _error("empty message: nothing to send (give --message some text)")
    from ..memory import PROFILES

    if s.profile not in PROFILES:
        return _error(f"unknown profile {s.profile!r}; choose one of {', '.join(PROFILES)}")
    # Load the model (or check the server) before touching the data folder: a bad model
    # or an unreachable server writes nothing.
    try:
        if s.backend == "server":
            llm = server_llm(s).connect()
        else:
            llm = LocalLLM(s.model_path or None, n_ctx=s.n_ctx, n_gpu_layers=s.n_gpu_layers,
                           n_threads=s.n_threads)
    except (ModelError, ServerError) as exc:
        return _error(str(exc))
    try:
        assistant = Assistant(args.data_dir, s, llm=llm)
        assistant.load()
    except (EmbedderError, ModelError) as exc:
        return _error(str(exc))
    if not args.json:  # a long prompt takes a while to read: say how far it got
        assistant.on_progress = lambda done, total: print(
            f"\r\033[2m  reading the prompt: {done}/{total} tokens\033[0m",
            end="\n" if done >= total else "", file=sys.stderr, flush=True)
    conv = args.conversation
    if conv is not None and not assistant.store.conversation_exists(conv):
        return _error(f"no conversation {conv} in {assistant.store.path}")
    if conv is None and not args.new:
        convs = assistant.store.conversations()
        conv = convs[0]["id"] if convs and args.message is None else None

    def run_turn(message: str, conv_id):
        stop = threading.Event()
        gen = assistant.chat(message, conv_id, stop, seed=args.seed)
        done = None
        try:
            for ev in gen:
                if args.json:
                    print(to_json(ev), flush=True)
                    if isinstance(ev, DoneEvent):
                        done = ev
                    continue
                if isinstance(ev, MemoriesEvent):
                    if ev.memories:
                        ids = " ".join(f"#{m.episode_id}" for m in ev.memories)
                        print(f"\033[2m  recalled {ids}\033[0m", flush=True)
                elif isinstance(ev, TokenEvent):
                    print(ev.text, end="", flush=True)
                elif isinstance(ev, MemoryUpdateEvent):
                    add = " ".join(f"+#{m.episode_id}" for m in ev.added)
                    rem = " ".join(f"-#{i}" for i in ev.removed)
                    print(f"\033[2m ⟲[{add} {rem}]\033[0m", end="", flush=True)
                elif isinstance(ev, DoneEvent):
                    done = ev
                    tail = " (interrupted)" if ev.interrupted else ""
                    print(f"\n\033[2m  {ev.tokens} tokens, {ev.tokens_per_s:.1f} tok/s, "
                          f"{ev.swaps} swaps{tail}\033[0m", flush=True)
        except KeyboardInterrupt:
            gen.close()  # stores the partial answer, marked interrupted
            print("\n\033[2m  (interrupted; partial answer kept)\033[0m", file=sys.stderr)
            if args.message is not None:
                raise
        except ServerError as exc:  # the partial answer is stored, marked interrupted
            kept = " (partial answer kept, marked interrupted)" if done is not None else ""
            print(f"{'' if args.json else chr(10)}error: {exc}{kept}", file=sys.stderr, flush=True)
            if args.message is not None:
                raise SystemExit(3) from exc
        return done.conversation_id if done else conv_id

    try:
        if args.message is not None:
            try:
                run_turn(args.message, conv)
            except MessageTooLong as exc:
                return _error(str(exc))
            except AnswerNotSaved as exc:  # the process ends: it cannot be kept for later
                return _error(f"{exc.reason} — the answer above was not saved",
                              EXIT_ENVIRONMENT)
            return 0
        if s.backend == "server":
            from ..server_llm import privacy_warning, where_answers_come_from

            print(where_answers_come_from(llm.url, llm.model))
            warn = privacy_warning(llm.url)
            if warn:
                print(f"warning: {warn}", file=sys.stderr)
        print(f"HeLa Desktop {__version__} — terminal chat. Model: {llm.path.name} "
              f"({llm.device}). Memories: {len(assistant.engine)}. "
              "Ctrl-C stops an answer, Ctrl-D quits, /new starts a new chat.")
        while True:
            try:
                line = input("\nyou> ")
            except EOFError:
                print()
                return 0
            if not line.strip():
                continue
            if line.strip() == "/new":
                conv = None
                print("(new conversation)")
                continue
            if line.strip() in ("/quit", "/exit"):
                return 0
            print("hela> ", end="", flush=True)
            try:
                conv = run_turn(line, conv)
            except (MessageTooLong, StoreError) as exc:  # the chat goes on
                print(f"\nerror: {exc}", file=sys.stderr)
    finally:
        assistant.close()


def doctor_report(args) -> dict:
    """Everything `doctor` prints, as a dict."""
    import platform
    import sqlite3

    from ..config import Settings
    from ..llm import ModelError, check_gguf, gpu_offload_supported
    from ..paths import bundled_embedder_path, bundled_model_path, scan_models
    from ..qtlibs import report as qt_xcb_report
    from ..store import DB_FILE

    def ver(mod: str) -> str:
        try:
            from importlib.metadata import version

            return version(mod)
        except Exception:  # noqa: BLE001
            return "not installed"

    from ..config import SettingsError
    from ..store import check_memory_file, fts5_available

    settings_error = ""
    try:
        s = _settings(args)
    except SettingsError as exc:
        s, settings_error = Settings(), str(exc)
    data_dir = Path(args.data_dir)
    data_dir_error = ("the data folder is a file, not a folder; move it aside or choose "
                      "another --data-dir" if data_dir.exists() and not data_dir.is_dir() else "")
    model_ok, model_msg = True, ""
    try:
        model = str(check_gguf(s.model_path or None))
    except ModelError as exc:
        model, model_ok, model_msg = s.model_path or "(bundled default)", False, str(exc)
    fts5 = fts5_available()
    db = Path(args.data_dir) / DB_FILE
    server = None
    if s.backend == "server":
        from ..server_llm import api_key, check_server, privacy_warning

        key = api_key(s)
        ok, line = check_server(s.server_url, s.server_model, key, timeout=s.server_timeout)
        server = {"url": s.server_url, "model": s.server_model, "ok": ok, "message": line,
                  "api_key_set": bool(key), "warning": privacy_warning(s.server_url)}
    return {
        "hela-desktop": __version__,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": {m: ver(m) for m in (
            "llama-cpp-python", "sentence-transformers", "torch", "numpy",
            "PySide6-Essentials", "pyqtgraph", "APScheduler")},
        "sqlite": sqlite3.sqlite_version, "fts5": fts5,
        "model": model, "model_ok": model_ok, "model_error": model_msg,
        "bundled_model": str(bundled_model_path() or "missing"),
        "models_found": [str(p) for p in scan_models(args.data_dir)],
        "embedder": str(bundled_embedder_path() or "missing"),
        "gpu_offload_supported": gpu_offload_supported(),
        "n_gpu_layers_setting": s.n_gpu_layers,
        "data_dir": str(args.data_dir),
        "data_dir_error": data_dir_error,
        "settings_error": settings_error,
        "memory_file": str(db) if db.exists() else f"{db} (not created yet)",
        "memory_file_error": check_memory_file(db) if db.is_file() else "",
        "hf_hub_offline": os.environ.get("HF_HUB_OFFLINE"),
        "qt_xcb": qt_xcb_report(),
        "backend": s.backend,
        "server": server,
    }


def cmd_doctor(args) -> int:
    rep = doctor_report(args)
    if args.json:
        print(json.dumps(rep, indent=2))
    else:
        print(f"HeLa Desktop {rep['hela-desktop']} on Python {rep['python']} ({rep['platform']})")
        for k, v in rep["versions"].items():
            print(f"  {k:24} {v}")
        print(f"  {'sqlite':24} {rep['sqlite']} (FTS5 {'yes' if rep['fts5'] else 'NO'})")
        print(f"model:            {rep['model']}" + ("" if rep["model_ok"] else "  [PROBLEM]"))
        if rep["model_error"]:
            print(f"                  {rep['model_error']}")
        print(f"models found:     {len(rep['models_found'])}")
        for m in rep["models_found"]:
            print(f"                  {m}")
        print(f"embedder:         {rep['embedder']}")
        print(f"GPU offload:      {'supported' if rep['gpu_offload_supported'] else 'not supported (CPU build)'}"
              f"; n_gpu_layers setting {rep['n_gpu_layers_setting']}")
        print(f"data folder:      {rep['data_dir']}"
              + (f"  [PROBLEM]\n                  {rep['data_dir_error']}"
                 if rep["data_dir_error"] else ""))
        print(f"memory file:      {rep['memory_file']}"
              + (f"  [PROBLEM]\n                  {rep['memory_file_error']}"
                 if rep["memory_file_error"] else ""))
        if rep["settings_error"]:
            print(f"settings:         [PROBLEM]\n                  {rep['settings_error']}")
        print(f"offline mode:     HF_HUB_OFFLINE={rep['hf_hub_offline']}")
        xcb = rep["qt_xcb"]
        print("window (Qt xcb):  " + ("libraries found" if xcb["ok"] else
              f"missing {', '.join(xcb['missing_libraries'])}  [PROBLEM]\n"
              f"                  install them with: {xcb['install']}"))
        srv = rep["server"]
        if srv is not None:
            print(f"model server:     {'ok' if srv['ok'] else 'PROBLEM'}: {srv['message']}")
            if srv["warning"]:
                print(f"                  warning: {srv['warning']}")
    ok = (rep["embedder"] != "missing" and rep["fts5"]
          and not (rep["data_dir_error"] or rep["settings_error"] or rep["memory_file_error"]))
    if rep["server"] is not None:
        ok = ok and rep["server"]["ok"]
    else:
        ok = ok and rep["model_ok"]
    ok = ok and rep["qt_xcb"]["ok"]
    return 0 if ok else 1


def cmd_bench_speed(args) -> int:
    from .bench.speed import run_speed

    return run_speed(args)


def cmd_bench_gui(args) -> int:
    from .bench.gui import bench_gui

    sizes = tuple(int(x) for x in args.sizes.split(",") if x.strip())
    res = bench_gui(sizes=sizes)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
