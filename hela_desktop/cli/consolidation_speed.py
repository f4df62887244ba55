"""``python -m hela_desktop.cli.consolidation_speed``: one consolidation pass, timed.

The command line of :mod:`hela_desktop.bench.consolidation_speed` (``bench speed`` runs
the same pass as one of its parts)::

    python -m hela_desktop.cli.consolidation_speed --n 1000
    python -m hela_desktop.cli.consolidation_speed --locomo FILE --sample 0
"""

from __future__ import annotations

import argparse
import json

from ..bench import consolidation_speed
from .common import at_least


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="How long one reflective-consolidation pass takes over a realistic memory pool.")
    ap.add_argument("--n", type=at_least(1), default=1000)
    ap.add_argument("--queries", type=at_least(1), default=300)
    ap.add_argument("--max-clusters", type=at_least(0), default=16, help="0: all clusters")
    ap.add_argument("--locomo", metavar="FILE",
                    help="instead: evidence recall on one LoCoMo conversation, before and "
                         "after consolidation")
    ap.add_argument("--sample", type=at_least(0), default=0, help="--locomo: conversation index")
    args = ap.parse_args(argv)
    if args.locomo:
        res = consolidation_speed.bench_locomo_consolidated(
            args.locomo, sample=args.sample, max_clusters=args.max_clusters or None)
    else:
        res = consolidation_speed.bench_consolidation(
            args.n, queries=args.queries, max_clusters=args.max_clusters or None)
    print(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
