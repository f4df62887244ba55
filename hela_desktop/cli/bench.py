"""``hela-desktop bench speed|gui|locomo|headroom|personal``: the benchmarks of :mod:`hela_desktop.bench`."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager
from pathlib import Path

from ..config import Settings
from .common import (
    add_data_dir,
    at_least,
    data_dir_option,
    error,
    in_range,
    model_options,
    shows_help,
)


def add_cli(sub) -> None:
    bench = sub.add_parser("bench", help="benchmarks (speed, locomo, headroom, personal, gui)")
    bsub = bench.add_subparsers(dest="bench", metavar="BENCH")
    add_speed(bsub)
    add_gui(bsub)
    add_locomo(bsub)
    add_headroom(bsub)
    add_personal(bsub)
    bench.set_defaults(func=shows_help(bench))


# ---------------------------------------------------------------------- speed, gui ---
def add_speed(bsub) -> None:
    speed = bsub.add_parser("speed", parents=[data_dir_option(), model_options()],
                            help="retrieval latency, streaming overhead, prefill reuse, first-token "
                                 "latency, memory files, history import, consolidation, backups")
    speed.add_argument("--sizes", type=_sizes, default="1000,10000,100000",
                       help="memory pool sizes for retrieval latency (default 1000,10000,100000)")
    speed.add_argument("--queries", type=at_least(1), default=60, help="queries per pool size (default 60)")
    speed.add_argument("--answers", type=at_least(1), default=8, help="answers per streaming run (default 8)")
    speed.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    speed.add_argument("--skip", type=_parts, default=frozenset(),
                       help="comma list of parts to leave out: " + ",".join(SPEED_PARTS))
    speed.add_argument("--stress", type=at_least(0), default=0, metavar="N",
                       help="run the streaming comparisons beside N busy processes (a busy "
                            "machine) and report ratio, largest swap pause and pause share")
    speed.add_argument("--json", action="store_true", help="print the report as JSON")
    speed.add_argument("--server-log", metavar="FILE", help="with --server: the log of a "
                       "llama_cpp.server run with --verbose True (it reports processed prompt "
                       "tokens only there)")
    speed.set_defaults(func=cmd_bench_speed)


def _comma_list(text: str | None) -> list[str]:
    return [x.strip() for x in (text or "").split(",") if x.strip()]


SPEED_PARTS = ("retrieval", "stream", "eager", "turns", "memfile", "import", "consolidate",
               "backup")


def _parts(text: str) -> frozenset[str]:
    """An argparse type: `bench speed --skip`'s comma list, every name one of its parts (a
    mistyped "--skip consolidation" was silently ignored and ran everything)."""
    names = _comma_list(text)
    wrong = [n for n in names if n not in SPEED_PARTS]
    if wrong:
        raise argparse.ArgumentTypeError(
            f"no part named {', '.join(wrong)}; the parts are {', '.join(SPEED_PARTS)}")
    return frozenset(names)


def _sizes(text: str) -> list[int]:
    """An argparse type: comma-separated sizes, each a whole number of at least 1."""
    one = at_least(1)
    sizes = [one(x) for x in _comma_list(text)]
    if not sizes:
        raise argparse.ArgumentTypeError("give at least one size")
    return sizes


def cmd_bench_speed(args: argparse.Namespace) -> int:

    # --profile, and --server with --model-name; --model is passed to the runs that load one
    settings = Settings.load(args.data_dir).with_overrides(
        profile=args.profile or None, backend="server" if args.server else None,
        server_url=args.server or None,
        server_model=(args.model_name or None) if args.server else None)
    skip = set(args.skip)
    if args.server:  # re-retrieval vs plain streaming from one server
        from ..bench.server_speed import format_server_reports, run_server_speed
        from ..server_llm import ServerError

        try:
            report = run_server_speed(settings, answers=2 if args.quick else args.answers,
                                      eager="eager" not in skip, log=args.server_log)
        except ServerError as exc:
            return error(str(exc))
        print(json.dumps(report, indent=2) if args.json else format_server_reports(report))
        return 0
    from ..bench.speed import format_report, run_speed

    report = run_speed(settings, sizes=args.sizes,
                       queries=args.queries, answers=args.answers, quick=args.quick, skip=skip,
                       stress=args.stress or 0, model=args.model)
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0


def add_gui(bsub) -> None:
    gui = bsub.add_parser("gui", parents=[data_dir_option()], help="graph view frame time")
    gui.add_argument("--sizes", type=_sizes, default="500,2000,5000",
                     help="graph sizes in nodes (default 500,2000,5000)")
    gui.add_argument("--json", action="store_true", help="print the report as JSON")
    gui.set_defaults(func=cmd_bench_gui)


def cmd_bench_gui(args: argparse.Namespace) -> int:
    from ..bench.gui import bench_gui, format_gui_report

    res = bench_gui(sizes=tuple(args.sizes))
    print(json.dumps(res, indent=2) if args.json else format_gui_report(res))
    return 0


@contextmanager
def _json_lines(path: Path | None):
    """A writer of one JSON line per call into `path` (None: no writer)."""
    if path is None:
        yield None
        return
    with open(path, "w", encoding="utf-8") as fh:
        yield lambda d: fh.write(json.dumps(d, ensure_ascii=False) + "\n")


# ---------------------------------------------------------------------- locomo -------
def add_locomo(bsub) -> argparse.ArgumentParser:
    """Register ``bench locomo`` on the ``bench`` subparsers."""
    from ..bench.locomo import METHODS

    p = bsub.add_parser(
        "locomo", help="LoCoMo evidence recall: every profile and baseline, same token budget")
    p.add_argument("file", type=Path, help="LoCoMo JSON (e.g. locomo10.json)")
    p.add_argument("--k", type=at_least(1), default=10,
                   help="dense top-k that sets the token budget (10)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", type=Path, help="write the markdown report here")
    p.add_argument("--dump", type=Path, help="one JSON line per question and method")
    p.add_argument("--conversations", type=at_least(1), metavar="N",
                   help="only the first N conversations")
    p.add_argument("--samples", help="only these sample ids (comma-separated)")
    p.add_argument("--methods", help=f"comma-separated subset of {','.join(METHODS)}")
    p.add_argument("--granularity", choices=("turn", "pair"), default="turn")
    p.add_argument("--answer", action="store_true", help="also answer with the local model (F1)")
    p.add_argument("--model", help="GGUF model for --answer (default: the bundled one)")
    p.add_argument("--questions", type=at_least(1), metavar="N",
                   help="--answer: at most N questions")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    p.add_argument("--consolidated", action="store_true",
                   help="add hela-consolidated: ingest, consolidate with the local model "
                        "(--model), then ask (slow: minutes per conversation on a CPU)")
    add_data_dir(p)
    p.set_defaults(func=cmd_locomo)
    return p


def _locomo_input(args: argparse.Namespace) -> tuple[list[dict], object]:
    """The conversations a LoCoMo command selected (`file`, `--conversations`, `--samples`)
    and the embedder, caching in the data folder unless `--no-cache`; ValueError with the
    message to print when the file is unreadable or selects nothing."""
    from ..bench import locomo as L

    try:
        samples = L.load_samples(args.file, args.conversations, args.samples)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{args.file}: {exc}") from exc
    if not samples:
        raise ValueError("no conversations selected")
    data_dir = Path(getattr(args, "data_dir", None) or Path.home() / ".cache" / "hela-desktop")
    return samples, L.CachedEmbedder(None if args.no_cache else data_dir / ".bench-cache")


def _locomo_methods(text: str | None) -> tuple[str, ...]:
    """--methods as a tuple (default: all); ValueError unless dense is in and all are known."""
    from ..bench.locomo import METHODS

    if not text:
        return METHODS
    methods = tuple(_comma_list(text))
    if any(m not in METHODS for m in methods) or "dense" not in methods:
        raise ValueError(f"methods must include dense and come from {METHODS}")
    return methods


def _locomo_summary(res: dict) -> dict:
    """What ``bench locomo --json`` prints: per method, recall by category and tokens."""
    from ..bench.locomo import JSON_COLUMNS

    return {"k": res["k"], "default_profile": res["default_profile"],
            "methods": {m: {c: r[c] for c in JSON_COLUMNS} for m, r in res["methods"].items()}}


def cmd_locomo(args: argparse.Namespace) -> int:
    """Handler of ``hela-desktop bench locomo``."""
    from ..bench import locomo as L

    try:
        samples, emb = _locomo_input(args)
        methods = _locomo_methods(args.methods)
    except ValueError as exc:
        return error(str(exc))
    answerer = L.make_answerer(args.model) if args.answer else None
    consolidate_llm = None
    if args.consolidated:
        from ..llm import LocalLLM, ModelError

        try:
            consolidate_llm = LocalLLM.from_settings(Settings(), model_path=args.model, n_ctx=2048)
        except ModelError as exc:
            return error(str(exc))
    with _json_lines(args.dump) as dump:
        res = L.run_locomo(samples, k=args.k, embedder=emb, methods=methods,
                           granularity=args.granularity, dump=dump, answerer=answerer,
                           max_answer_questions=args.questions, consolidate_llm=consolidate_llm)
    report = L.markdown_report(res)
    if args.out:
        Path(args.out).write_text(report, encoding="utf-8")
    if args.json:
        print(json.dumps(_locomo_summary(res)))
    else:
        print(report)
        print(f"({res['seconds']:.0f} s)")
    return 0


# ---------------------------------------------------------------------- headroom -----
def add_headroom(bsub) -> argparse.ArgumentParser:
    """Register ``bench headroom`` on the ``bench`` subparsers."""
    from ..bench.lived import DEFAULT_RULE, RULES

    p = bsub.add_parser(
        "headroom", help="LoCoMo: how much missed evidence the prior and learned links "
                         "reach from what was recalled, and how often a link points at it")
    p.add_argument("file", type=Path, help="LoCoMo JSON (e.g. locomo10.json)")
    p.add_argument("--k", type=at_least(1), default=10,
                   help="dense top-k that sets the token budget (10)")
    p.add_argument("--next", type=at_least(1), default=10, dest="margin", metavar="N",
                   help="compare with the N memories ranked right after the recalled set (10)")
    p.add_argument("--rules", default=f"{DEFAULT_RULE},hela-lived-indicator",
                   help=f"comma-separated lived rules to replay, from {','.join(RULES)}")
    p.add_argument("--conversations", type=at_least(1), metavar="N",
                   help="only the first N conversations")
    p.add_argument("--samples", help="only these sample ids (comma-separated)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    add_data_dir(p)
    p.set_defaults(func=cmd_headroom)
    return p


def cmd_headroom(args: argparse.Namespace) -> int:
    """Handler of ``hela-desktop bench headroom``."""
    from ..bench import headroom as H

    try:
        samples, emb = _locomo_input(args)
    except ValueError as exc:
        return error(str(exc))
    try:
        res = H.headroom(samples, embedder=emb, rules=tuple(_comma_list(args.rules)),
                         k=args.k, margin=args.margin)
    except ValueError as exc:
        return error(str(exc))
    finally:
        save = getattr(emb, "save", None)
        if callable(save):
            save()
    print(json.dumps(res) if args.json else H.markdown(res))
    return 0


# ---------------------------------------------------------------------- personal -----
def add_personal(bsub) -> argparse.ArgumentParser:
    """Register ``bench personal`` on the ``bench`` subparsers."""
    p = bsub.add_parser(
        "personal", help="the whole memory loop on personal dialogues (personal-dev.json)")
    p.add_argument("file", type=Path, help="dialogues JSON (e.g. personal-dev.json)")
    p.add_argument("--answer", action="store_true",
                   help="score the answers too (correct, format leaks, repeats)")
    p.add_argument("--reflect", action="store_true",
                   help="run consolidation and forgetting between sessions")
    p.add_argument("--model", help="GGUF chat model (default: the bundled one)")
    p.add_argument("--answer-tokens", type=at_least(1), default=48, help="longest answer (48)")
    p.add_argument("--temperature", type=in_range(0.0, 5.0, float), default=0.0,
                   help="sampling temperature of the answers (0: greedy, the default; the "
                        "app's own default is 0.7), sampled with a fixed seed per turn")
    p.add_argument("--dialogues", type=at_least(1), metavar="N",
                   help="only the first N dialogues")
    p.add_argument("--ids", help="only these dialogue ids (comma-separated)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--dump", type=Path, help="one JSON line per probe")
    add_data_dir(p)
    p.set_defaults(func=cmd_personal)
    return p


def cmd_personal(args: argparse.Namespace) -> int:
    """Handler of ``hela-desktop bench personal``."""
    from ..bench.personal import DataError, load_dialogues, markdown_report, run_personal
    from ..embedder import Embedder
    from ..llm import LocalLLM, ModelError

    try:
        dialogues = load_dialogues(args.file, args.dialogues, args.ids)
    except DataError as exc:
        return error(str(exc))
    if not dialogues:
        return error("no dialogues selected")
    try:
        llm = LocalLLM.from_settings(Settings(), model_path=args.model, n_ctx=4096)
    except ModelError as exc:
        return error(str(exc))
    emb = Embedder()
    try:
        with _json_lines(args.dump) as dump:
            res = run_personal(
                dialogues, llm=llm, embedder=emb, answer=args.answer, reflect=args.reflect,
                answer_tokens=args.answer_tokens, temperature=args.temperature, dump=dump,
                progress=None if args.json else (lambda m: print(m, file=sys.stderr)))
    finally:
        llm.close()
    print(json.dumps(res) if args.json else markdown_report(res))
    return 0
