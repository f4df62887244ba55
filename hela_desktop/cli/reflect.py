"""``hela-desktop consolidate``, ``forget`` and ``restore``: what idle time does, by hand.

Thin calls into :mod:`hela_desktop.consolidate` (a reflective pass) and
:mod:`hela_desktop.forgetting` (archive, list, restore).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..words import count
from .common import (
    EXIT_USAGE,
    add_data_dir,
    an_id,
    at_least,
    error,
    existing_store,
    holds_folder,
    no_such,
)


def add_cli(sub) -> None:
    """Register ``consolidate``, ``forget`` and ``restore`` on the CLI's subparsers."""
    c = sub.add_parser(
        "consolidate", help="distil busy memory hubs into knowledge (the reflective agent)")
    c.add_argument("--dry-run", action="store_true",
                   help="run the model and show what would be stored; write nothing")
    c.add_argument("--max-clusters", type=at_least(0),
                   help="clusters per pass (default 16; 0: all)")
    c.add_argument("--hub-degree", type=at_least(0.0, float),
                   help="δ_hub: weighted degree a hub exceeds (absolute: turns off the "
                        "top-20%% rule)")
    c.add_argument("--redo", action="store_true",
                   help="forget which clusters were already processed, then run (with "
                        "--dry-run: preview every cluster; nothing is changed)")
    c.add_argument("--model", metavar="PATH", help="GGUF model file (default: the setting, "
                   "else the bundled SmolLM2-135M-Instruct)")
    c.add_argument("--json", action="store_true", help="print the report as JSON")
    c.set_defaults(func=cmd_consolidate)

    f = sub.add_parser(
        "forget", help="archive weak, isolated, stale memories (restorable; --purge deletes)")
    f.add_argument("--dry-run", action="store_true", help="show what would be archived")
    f.add_argument("--purge", action="store_true",
                   help="also delete every archived and deleted memory for good (cannot be "
                        "undone)")
    f.add_argument("--max-degree", type=at_least(0.0, float),
                   help="archive below this association degree (links beyond the chat's "
                        "own chain; default 0.6)")
    f.add_argument("--stale-days", type=at_least(0.0, float),
                   help="…and not accessed for this many days (default 30; a memory in "
                        "which you stated something: 365, not changed by this option)")
    f.add_argument("--list", action="store_true", help="list archived memories and exit")
    f.add_argument("--json", action="store_true", help="print the report as JSON")
    f.set_defaults(func=cmd_forget)

    r = sub.add_parser("restore", help="bring archived memories back, with their edges")
    r.add_argument("ids", nargs="+", type=an_id, metavar="ID",
                   help="ids of archived memories (`forget --list` shows them)")
    r.set_defaults(func=cmd_restore)
    for p in (c, f, r):
        add_data_dir(p)
    holds_folder(c, lambda a: not a.dry_run, create=False)  # a missing folder: refused
    holds_folder(f, lambda a: not (a.dry_run or a.list), create=False)
    holds_folder(r, create=False)


# ---------------------------------------------------------------------- consolidate --
def open_engine(data_dir: Path):
    """(a `MemoryEngine` on the folder's store, with the embedder; the folder's settings).
    A malformed settings file raises before the store is opened."""
    from ..config import Settings
    from ..embedder import Embedder
    from ..memory import MemoryEngine

    settings = Settings.load(data_dir)
    store = existing_store(data_dir)
    return MemoryEngine(store, Embedder(), settings), settings


def _params(args: argparse.Namespace):
    from ..consolidate import ConsolidationParams

    p = ConsolidationParams()
    if args.max_clusters is not None:
        p.max_clusters = None if args.max_clusters <= 0 else args.max_clusters
    if args.hub_degree is not None:
        p.hub_degree = args.hub_degree
        p.hub_quantile = 0.0
    return p


def print_cluster(d: dict, dry_run: bool = False) -> None:
    """One distilled cluster as ``consolidate`` shows it: its items, then the rejected."""
    head = f"cluster #{d['hub']} (D={d['degree']:.2f}, episodes {d['members']})"
    if d["status"] != "ok":
        print(f"{head}: skipped, invalid model output", flush=True)
        return
    print(head, flush=True)
    verb = "would be " if dry_run else ""
    for it in d["items"]:
        extra = ""
        if it["action"] in ("strengthened", "superseded") and it.get("other_id"):
            extra = f" (#k{it['other_id']}, cos {it['similarity']:.2f})"
        print(f"  {verb}{it['action']}: [{it['kind']}] {it['text']}{extra}", flush=True)
    for it in d.get("rejected", []):
        print(f"  rejected ({it['reason']}): {it['text']}", flush=True)


def consolidation_summary(rep) -> str:
    """The last line of ``consolidate``: what the pass did."""
    tag = "dry run, nothing written: " if rep.dry_run else ""
    return (f"{tag}{count(rep.hubs, 'hub')}, {count(rep.clusters, 'cluster')} "
            f"({rep.already_done} done "
            f"before), {rep.distilled} distilled, {rep.failed} invalid; knowledge: "
            f"{rep.added} added, {rep.strengthened} strengthened, {rep.superseded} "
            f"superseded, {rep.rejected} rejected; {count(rep.remaining, 'cluster')} left; "
            f"{rep.seconds:.1f} s")


def cmd_consolidate(args: argparse.Namespace) -> int:
    """``hela-desktop consolidate [--dry-run]``: one pass, printed."""
    from ..consolidate import ConsolidationReport, consolidate, plan_pass
    from ..llm import LocalLLM, ModelError
    from ..server_llm import ServerError, server_llm

    p = _params(args)
    engine, settings = open_engine(Path(args.data_dir))
    try:
        hubs, clusters, pending = plan_pass(engine.store, engine.hela, p, redo=args.redo,
                                            dry_run=args.dry_run)
        if not pending:  # the model is not loaded: the report of a pass that found all done
            if args.json:
                rep = ConsolidationReport(dry_run=args.dry_run, hubs=hubs, clusters=clusters,
                                          already_done=clusters)
                print(json.dumps(rep.to_dict(), indent=2))
            else:
                print(f"{hubs} hubs, {clusters} clusters; nothing new to consolidate")
            return 0
        model = getattr(args, "model", None)
        try:  # the model the settings name, as the app's idle passes use (--model: that file)
            llm = (server_llm(settings).connect() if settings.backend == "server" and not model
                   else LocalLLM.from_settings(settings, model_path=model or settings.model_path,
                                               n_ctx=min(settings.n_ctx, 2048)))
        except (ModelError, ServerError) as exc:
            return error(str(exc))
        show = None if args.json else (lambda d: print_cluster(d, args.dry_run))
        rep = consolidate(engine, llm, params=p, dry_run=args.dry_run, on_cluster=show,
                          redo=args.redo and args.dry_run)  # (a real redo reset the markers)
        llm.close()
        print(json.dumps(rep.to_dict(), indent=2) if args.json else consolidation_summary(rep))
        return 0
    finally:
        engine.store.close()


# ---------------------------------------------------------------------- forget -------
def _print_archived(store, as_json: bool = False) -> None:
    from ..forgetting import archived_episodes

    rows = archived_episodes(store, limit=1_000_000)
    if as_json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for e in rows:
        label = " ".join(e["text"].split())[:70]
        print(f"#{e['id']}  {label}\n      {e['reason']} ({count(e['edges'], 'link')} kept)")
    print(f"{count(len(rows), 'archived memory', 'archived memories')}")


def forget_lines(rep, dry_run: bool, purge: bool) -> list[str]:
    """What ``forget`` prints: each archived memory and why, the purged ones, a summary."""
    verb = "would archive" if dry_run else "archived"
    out = [f"{verb} #{a['episode_id']}: {a['label']}\n      {a['reason']}"
           for a in rep.archived]
    if purge and not rep.purged:
        out.append("no archived or deleted memories to delete")
    elif purge:
        pv = "would delete" if dry_run else "deleted"
        drawn = (f", and {count(len(rep.purged_knowledge), 'knowledge item')} drawn only "
                 "from them" if rep.purged_knowledge else "")
        out.append(f"{pv} {count(len(rep.purged), 'archived or deleted memory', 'archived or deleted memories')} "
                   f"for good{drawn}: " + " ".join(f"#{i}" for i in rep.purged))
    out.append(f"{'dry run, nothing written: ' if dry_run else ''}{rep.checked} memories "
               f"checked, {len(rep.archived)} {verb}; kept: {rep.kept_pinned} pinned, "
               f"{rep.kept_knowledge} knowledge sources, {rep.kept_connected} connected, "
               f"{rep.kept_recent} made, imported or recalled lately")
    return out


def cmd_forget(args: argparse.Namespace) -> int:
    """``hela-desktop forget [--dry-run] [--purge]``: archive by the rule, print why."""
    from ..config import Settings
    from ..forgetting import ForgettingParams, forget

    data_dir = Path(args.data_dir)
    store = existing_store(data_dir)
    try:
        if args.list:
            _print_archived(store, args.json)
            return 0
        fp = ForgettingParams()
        if args.max_degree is not None:
            fp.max_degree = args.max_degree
        if args.stale_days is not None:
            fp.stale_days = args.stale_days
        settings = Settings.load(data_dir)
        rep = forget(store, hela=settings.hela, params=fp, dry_run=args.dry_run,
                     purge=args.purge)
        if args.json:
            print(json.dumps(rep.to_dict(), indent=2))
        else:
            print("\n".join(forget_lines(rep, args.dry_run, args.purge)))
        return 0
    finally:
        store.close()


def restore_refusals(store, ids: list[int]) -> list[str]:
    """Why `restore` cannot take each of `ids` (none: all are archived memories): an id
    the memory file does not hold, or a memory that is not archived."""
    archived = set(store.archived_ids(ids))
    out = []
    for i in dict.fromkeys(ids):
        if i in archived:
            continue
        e = store.episode(i)
        if e is None:
            out.append(no_such("memory", i, store))
        elif e.deleted_at is not None:
            out.append(f"memory #{i} is deleted, not archived (`memories restore {i}` "
                       "brings it back)")
        else:
            out.append(f"memory #{i} is not archived")
    return out


def cmd_restore(args: argparse.Namespace) -> int:
    """``hela-desktop restore ID...``: un-archive (edges were kept).  An id that is not an
    archived memory refuses the whole request (exit 2): nothing is restored."""
    from ..forgetting import restore

    ids = list(dict.fromkeys(args.ids))  # `restore 4 4`: once
    store = existing_store(Path(args.data_dir))
    try:
        # the write lock first: a busy or read-only store is that (exit 3) whatever the
        # ids, and nothing changes between the check and the restore
        with store.transaction():
            refused = restore_refusals(store, ids)
            for msg in refused:
                error(msg)
            done = [] if refused else restore(store, ids)
        for i in done:
            print(f"restored #{i}")
        return EXIT_USAGE if refused else 0
    finally:
        store.close()
