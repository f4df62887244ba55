"""``hela-desktop bench speed``: retrieval latency, streaming overhead, prefix reuse, files.

Every figure is measured against a baseline in the same run:

- retrieval latency p50/p95 of the default profile at 1k / 10k / 100k synthetic memories
  (random unit embeddings, Zipf-distributed words so keyword scoring sees realistic
  document frequencies; the keyword cache is cleared before every query, so each query
  pays the cold FTS5 path), next to plain dense search on the same pool;
- tokens/s of the default model answering with re-retrieval every N tokens, against plain
  llama.cpp generation of the same prompt;
- prefill tokens per answer with KV-prefix reuse, against re-evaluating the whole prompt
  at each swap, and each swap's cost against its bound (memory block + user message +
  generated tokens);
- export/import time of 100k memories and one consolidation pass (when those modules exist);
- the import rate of a generated 10,000-exchange ChatGPT export (exchanges per second,
  embedding included).
"""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from ..config import Settings
from ..memory import MemoryEngine
from ..store import Store
from .pool import RandomEmbedder, build_pool

QUESTIONS = [
    "Tell me about the bees and the honey harvest.",
    "What should I cook tonight for dinner?",
    "Any advice for my trip to see the northern lights?",
    "How can I get better at playing music?",
]

TOPICS = [
    "I keep bees in the garden and harvest honey every August.",
    "My brother Tomas repairs vintage motorcycles in his garage.",
    "I am learning to play the cello; my teacher is very strict.",
    "Our cat Miso hates thunderstorms and hides under the bed.",
    "I ran the Berlin marathon last autumn in four hours.",
    "My favourite food is spicy ramen with a soft boiled egg.",
    "We are planning a trip to Iceland to see the northern lights.",
    "I work night shifts as an air traffic controller.",
    "My grandmother taught me to knit scarves when I was seven.",
    "I collect old maps of the Mediterranean coast.",
    "My daughter started school and loves painting dinosaurs.",
    "Chess tournaments on Sundays are my favourite weekend plan.",
    "I am allergic to peanuts and carry an epinephrine pen.",
    "We grow tomatoes, basil and chillies on the balcony.",
    "I play bass guitar in a jazz band called Blue Hour.",
    "I volunteer at the animal shelter walking dogs on Saturdays.",
    "Honey cake is the dessert my family bakes for every birthday.",
    "The northern lights were invisible last time because of clouds.",
    "My cello teacher recommended practising scales every morning.",
    "Ramen shops in Tokyo were the highlight of our holiday.",
]


def _percentile(xs: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(xs), q)) if xs else float("nan")


def bench_retrieval(sizes: list[int], queries: int, settings: Settings, workdir: Path) -> list[dict]:
    rng = np.random.default_rng(11)
    words = [f"w{i}" for i in range(20000)]
    out = []
    for n in sizes:
        with Store(workdir / f"pool-{n}") as store:
            t = time.perf_counter()
            build_pool(store, n)
            build_s = time.perf_counter() - t
            engine = MemoryEngine(store, RandomEmbedder(), settings)
            lat: dict[str, list[float]] = {"default": [], "dense": []}
            for qi in range(queries):
                q = rng.standard_normal(384).astype(np.float32)
                q /= np.linalg.norm(q)
                text = " ".join(words[int(k)] for k in rng.zipf(1.3, size=8) if k < 20000)
                for prof, key in ((settings.profile, "default"), ("dense", "dense")):
                    engine._kw_cache.clear()
                    t = time.perf_counter()
                    engine.retrieve(text or "w1", query_vec=q, profile=prof, with_text=False)
                    if qi >= 2:  # the first queries warm up numpy and SQLite pages
                        lat[key].append((time.perf_counter() - t) * 1000)
            out.append({
                "memories": n, "profile": settings.profile, "build_s": round(build_s, 1),
                "p50_ms": round(_percentile(lat["default"], 50), 2),
                "p95_ms": round(_percentile(lat["default"], 95), 2),
                "dense_p50_ms": round(_percentile(lat["dense"], 50), 2),
                "dense_p95_ms": round(_percentile(lat["dense"], 95), 2),
            })
            print(f"  retrieval @ {n:>7,}: p50 {out[-1]['p50_ms']:7.2f} ms  p95 "
                  f"{out[-1]['p95_ms']:7.2f} ms  (dense p50 {out[-1]['dense_p50_ms']:.2f} ms)",
                  file=sys.stderr)
    return out


def _spin() -> None:  # pragma: no cover - runs in the stress processes
    while True:
        pass


class Stress:
    """`n` busy processes (pure CPU spin loops) beside the benchmark: a machine with other
    work on its cores.  A context manager; it reports the load average seen."""

    def __init__(self, n: int):
        self.n = n
        self.procs: list = []
        self.loads: list[float] = []

    def __enter__(self) -> Stress:
        import multiprocessing as mp

        ctx = mp.get_context("spawn")
        for _ in range(self.n):
            p = ctx.Process(target=_spin, daemon=True)
            p.start()
            self.procs.append(p)
        return self

    def sample_load(self) -> None:
        import os

        if hasattr(os, "getloadavg"):
            self.loads.append(os.getloadavg()[0])

    def __exit__(self, *exc) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            p.join(5)

    def summary(self) -> dict:
        return {"processes": self.n,
                "load_1min": [round(min(self.loads), 2), round(max(self.loads), 2)]
                if self.loads else None}


def _plain_generation(llm, prompt: list[int], max_tokens: int) -> tuple[int, float]:
    """Plain llama.cpp: the same prompt, greedy, no retrieval. (tokens, seconds after prefill)"""
    llm.reset()
    llm.sync(prompt)
    llm.start_sampling(0.0, 1.0)
    n = 0
    t = time.perf_counter()
    try:
        while n < max_tokens:
            tok = llm.sample()
            if llm.is_end(tok):
                break
            llm.detokenize([tok])
            llm.push(tok)
            n += 1
    finally:
        llm.stop_sampling()
    return n, time.perf_counter() - t


def _bench_chat(settings: Settings, workdir: Path, model: str | None, **overrides):
    """An assistant on a fresh data folder holding the twenty TOPICS, greedy, 96-token answers,
    and one conversation: (assistant, conversation id, its settings)."""
    from ..loader import open_assistant
    from ..memory import NewEpisode

    s = settings.with_overrides(temperature=0.0, max_answer_tokens=96, model_path=model or None,
                                **overrides)
    a = open_assistant(workdir, s)
    a.engine.add_episodes([NewEpisode(t, "") for t in TOPICS])
    return a, a.new_conversation("bench"), s


def bench_streaming(settings: Settings, answers: int, workdir: Path, model: str | None,
                    stress: Stress | None = None) -> dict:
    from ..events import DoneEvent, MemoryUpdateEvent, TokenEvent

    a, conv, s = _bench_chat(settings, workdir / "stream", model)
    rows = []
    for i in range(answers):
        if stress is not None:
            stress.sample_load()
        q = QUESTIONS[i % len(QUESTIONS)]
        # 1) with live re-retrieval every N tokens (timed from first to last token)
        a.llm.reset()
        times = []
        swaps_full = []
        done = None
        for ev in a.chat(q, conv):
            if isinstance(ev, TokenEvent):
                times.append(time.perf_counter())
            elif isinstance(ev, MemoryUpdateEvent):
                swaps_full.append(ev)
            elif isinstance(ev, DoneEvent):
                done = ev
        if done is None:
            raise RuntimeError(f"answer {i + 1} ended without its done event")
        st = a.last_turn
        assert done is not None and st is not None  # the turn ran to its end
        gen_tokens = len(times)
        live_s = times[-1] - times[0] if gen_tokens > 1 else float("nan")
        # 2) plain generation of the same first prompt
        history = a._fit_history(conv, q)
        first_prompt = st.first_prompt
        plain_n, plain_s = _plain_generation(a.llm, first_prompt, gen_tokens)
        naive = st.prompt_tokens + sum(st.swap_full)
        rows.append({
            "question": q, "tokens": gen_tokens, "swaps": done.swaps,
            "deferred_swaps": done.deferred_swaps, "late_swaps": st.late_swaps,
            "swap_ms": [round(x * 1000, 1) for x in st.swap_seconds],
            "swap_shifted": st.swap_shifted,
            "live_tps": (gen_tokens - 1) / live_s if gen_tokens > 1 else 0.0,
            "live_s": live_s, "swap_pause_s": float(sum(st.swap_seconds)),
            "plain_tps": plain_n / plain_s if plain_s > 0 else 0.0,
            "prefill_reuse": done.prefill_tokens,
            "prefill_naive": naive,
            "swap_costs": st.swap_prefill, "swap_bounds": st.swap_bounds,
            "history_msgs": len(history),
        })
        print(f"  answer {i + 1}: {gen_tokens} tokens, {done.swaps} swaps "
              f"({', '.join(f'{x:.0f} ms' for x in rows[-1]['swap_ms']) or '-'}; "
              f"{done.deferred_swaps} deferred), live "
              f"{rows[-1]['live_tps']:.1f} tok/s vs plain {rows[-1]['plain_tps']:.1f} tok/s; "
              f"prefill {done.prefill_tokens} vs {naive} without reuse", file=sys.stderr)
    a.close()
    live = float(np.mean([r["live_tps"] for r in rows]))
    plain = float(np.mean([r["plain_tps"] for r in rows]))
    costs = [c for r in rows for c in r["swap_costs"]]
    live_s = sum(r["live_s"] for r in rows if r["tokens"] > 1)
    pause_s = sum(r["swap_pause_s"] for r in rows if r["tokens"] > 1)
    swap_ms = [m for r in rows for m in r["swap_ms"]]
    bounds = [b for r in rows for b in r["swap_bounds"]]
    return {
        "reretrieve_every": s.reretrieve_every, "answers": rows,
        "live_tokens_per_s": round(live, 1), "plain_tokens_per_s": round(plain, 1),
        "ratio": round(live / plain, 3) if plain else None,
        "swaps_per_answer": round(float(np.mean([r["swaps"] for r in rows])), 2),
        "prefill_per_answer_reuse": round(float(np.mean([r["prefill_reuse"] for r in rows])), 1),
        "prefill_per_answer_naive": round(float(np.mean([r["prefill_naive"] for r in rows])), 1),
        "swap_prefill_mean": round(float(np.mean(costs)), 1) if costs else 0.0,
        "swap_within_bound": all(c <= b for c, b in zip(costs, bounds, strict=True)),
        "deferred_per_answer": round(float(np.mean([r["deferred_swaps"] for r in rows])), 2),
        "swap_ms_mean": round(float(np.mean(swap_ms)), 1) if swap_ms else 0.0,
        "swap_ms_max": round(float(max(swap_ms)), 1) if swap_ms else 0.0,
        "swap_time_budget": s.swap_time_budget,
        "late_per_answer": round(float(np.mean([r["late_swaps"] for r in rows])), 2),
        "swaps_shifted": sum(x for r in rows for x in r["swap_shifted"]),
        # where the time goes: pauses for swaps, and re-retrieval running beside generation
        "swap_pause_share": round(pause_s / live_s, 3) if live_s else 0.0,
        "ratio_without_pauses": round((live_s / (live_s - pause_s)) * live / plain, 3)
        if plain and live_s > pause_s else None,
    }


def bench_turns(settings: Settings, turns: int, workdir: Path, model: str | None) -> dict:
    """Time to first token over one multi-turn chat: each new turn dropping the previous
    turn's memory block from the cache and reusing the answer behind it (splice mode)
    against evaluating from the first difference (exact mode)."""
    from ..events import TokenEvent

    out = {}
    for mode in ("exact", "splice"):
        # no swaps (time budget 0): both modes write the same answers
        a, conv, _s = _bench_chat(settings, workdir / f"turns-{mode}", model, swap_mode=mode,
                                  swap_time_budget=0.0)
        rows = []
        for i in range(turns):
            t0 = time.perf_counter()
            first = None
            for ev in a.chat(QUESTIONS[i % len(QUESTIONS)], conv):
                if first is None and isinstance(ev, TokenEvent):
                    first = time.perf_counter() - t0
            rows.append({"ttft_s": round(first or float("nan"), 3),
                         "prefill": a.last_turn.prefill_tokens,
                         "prompt": a.last_turn.prompt_tokens})
        a.close()
        later = rows[1:] or rows
        out[mode] = {"turns": rows,
                     "ttft_later_turns_s": round(float(np.mean([r["ttft_s"] for r in later])), 3),
                     "prefill_later_turns": round(float(np.mean([r["prefill"] for r in later])), 1)}
        print(f"  {mode}: first token after {out[mode]['ttft_later_turns_s']} s on average in "
              f"turns 2-{turns}, {out[mode]['prefill_later_turns']} tokens evaluated per turn",
              file=sys.stderr)
    return out


def run_speed(settings: Settings, *, sizes: list[int], queries: int = 60, answers: int = 8,
              quick: bool = False, skip: set[str] | frozenset[str] = frozenset(),
              stress: int = 0, model: str | None = None) -> dict:
    """What ``hela-desktop bench speed`` measures, as a report dict (see `format_report`).

    `skip`: parts left out (retrieval, stream, eager, turns, memfile, import, consolidate,
    backup).
    `quick`: small sizes, for a smoke test.  `stress`: run only the streaming comparisons,
    beside that many busy processes.  `model`: the GGUF file (default: the settings' own).
    """
    skip = set(skip)
    if quick:
        sizes, queries, answers = [1000, 5000], 20, 2
    report: dict = {"profile": settings.profile}
    if stress:  # a busy machine: only the streaming comparisons, beside N busy processes
        skip |= {"retrieval", "turns", "memfile", "consolidate", "backup"}
    with tempfile.TemporaryDirectory(prefix="hela-bench-") as tmp, \
            (Stress(stress) if stress else contextlib.nullcontext()) as busy:
        work = Path(tmp)
        if "retrieval" not in skip:
            print("retrieval latency (default profile, query vector given):", file=sys.stderr)
            report["retrieval"] = bench_retrieval(sizes, queries, settings, work)
        if "stream" not in skip:
            print("streaming with re-retrieval vs plain generation:", file=sys.stderr)
            report["streaming"] = bench_streaming(settings, answers, work, model, busy)
        if "eager" not in skip:
            # the same answers with every swap the re-retrieval proposes (no margin, no cost
            # weight; the time budget stays): what swaps cost when they are frequent
            eager = settings.with_overrides(swap_margin=0.0, swap_cost_weight=0.0)
            print("the same, making every swap re-retrieval proposes:", file=sys.stderr)
            report["streaming_eager"] = bench_streaming(eager, answers, work / "eager", model,
                                                        busy)
        if "turns" not in skip:
            print("time to first token over one chat, previous answer reused vs not:",
                  file=sys.stderr)
            report["turns"] = bench_turns(settings, 3 if quick else 6, work, model)
        _bench_files(report, skip, work, quick)
        if busy is not None:
            report["stress"] = busy.summary()
    return report


def _bench_files(report: dict, skip: set[str], work: Path, quick: bool) -> None:
    """The parts of `run_speed` without a model: memory files, import, consolidation."""
    if "memfile" not in skip:
        from .memfile_speed import bench_memfile

        n = 5000 if quick else 100_000
        print(f"memory file export/import of {n:,} memories:", file=sys.stderr)
        report["memfile"] = bench_memfile(n, work / "memfile")
    if "import" not in skip:
        from .import_speed import bench_import

        n = 500 if quick else 10_000
        print(f"importing a ChatGPT export of {n:,} exchanges:", file=sys.stderr)
        report["import"] = bench_import(work / "import", exchanges=n)
    if "consolidate" not in skip:
        from .consolidation_speed import bench_consolidation

        n = 100 if quick else 1000
        print(f"one consolidation pass over {n:,} memories:", file=sys.stderr)
        report["consolidation"] = bench_consolidation(n=n)
    if "backup" not in skip:
        from .backup_speed import bench_backup

        n = 1000 if quick else 100_000
        print(f"backups of {n:,} memories:", file=sys.stderr)
        report["backup"] = bench_backup(n, work / "backup")


def format_report(r: dict) -> str:
    lines = [f"# bench speed (profile: {r['profile']})", ""]
    if "stress" in r:
        st = r["stress"]
        lines += [f"- busy machine: {st['processes']} busy processes beside the benchmark, "
                  f"load average (1 min) {st['load_1min']}", ""]
    if "retrieval" in r:
        lines += ["| memories | p50 ms | p95 ms | dense p50 ms | dense p95 ms |",
                  "|---:|---:|---:|---:|---:|"]
        for x in r["retrieval"]:
            lines.append(f"| {x['memories']:,} | {x['p50_ms']} | {x['p95_ms']} | "
                         f"{x['dense_p50_ms']} | {x['dense_p95_ms']} |")
        lines.append("")
    for key, label in (("streaming", ""), ("streaming_eager", " (every proposed swap made)")):
        if key not in r:
            continue
        s = r[key]
        lines += [
            f"- streaming with re-retrieval every {s['reretrieve_every']} tokens{label}: "
            f"{s['live_tokens_per_s']} tok/s vs plain {s['plain_tokens_per_s']} tok/s "
            f"(ratio {s['ratio']})",
            f"- swaps per answer: {s['swaps_per_answer']}; prefill per answer: "
            f"{s['prefill_per_answer_reuse']} tokens with prefix reuse vs "
            f"{s['prefill_per_answer_naive']} re-evaluating the whole prompt at each swap",
            f"- mean swap cost {s['swap_prefill_mean']} tokens, {s['swap_ms_mean']} ms of pause "
            f"({s['swaps_shifted']} swaps moved the cache); every swap within its bound "
            f"(memory block + user message + generated): {s['swap_within_bound']}",
            f"- largest swap pause {s['swap_ms_max']} ms; swaps abandoned as late: "
            f"{s['late_per_answer']} per answer",
            f"- swap pauses: {100 * s['swap_pause_share']:.1f} % of answer time (budget "
            f"{100 * s['swap_time_budget']:.0f} %); without them "
            f"the ratio would be {s['ratio_without_pauses']} (the rest is re-retrieval beside "
            f"generation); swaps deferred by the time budget: {s['deferred_per_answer']} per "
            f"answer",
            "",
        ]
    if "turns" in r:
        t = r["turns"]
        lines += [f"- first token in turns 2-{len(t['splice']['turns'])} of one chat: "
                  f"{t['splice']['ttft_later_turns_s']} s reusing the previous answer "
                  f"({t['splice']['prefill_later_turns']} tokens evaluated per turn) vs "
                  f"{t['exact']['ttft_later_turns_s']} s without "
                  f"({t['exact']['prefill_later_turns']} tokens)", ""]
    if "memfile" in r:
        m = r["memfile"]
        lines.append(f"- memory file, {m['n']:,} memories: export {m['export_s']} s, import "
                     f"{m['import_s']} s, file {m.get('file_mb')} MB, peak RSS "
                     f"{m.get('rss_after_import_mb')} MB")
    if "import" in r:
        m = r["import"]
        lines.append(f"- ChatGPT export of {m['exchanges']:,} exchanges ({m['file_mb']} MB): "
                     f"imported in {m['seconds']} s, {m['exchanges_per_s']} exchanges per s "
                     f"embedding included (embedding {m['embed_per_s']} per s; reading "
                     f"{m.get('reading_s')} s, embedding {m.get('embedding_s')} s, writing "
                     f"{m.get('writing_s')} s); load average {m['load_avg']}")
    if "consolidation" in r:
        lines.append(f"- consolidation: {json.dumps(r['consolidation'])}")
    if "backup" in r:
        b = r["backup"]
        lines.append(f"- backups, {b['n']:,} memories ({b['file_mb']} MB): one backup "
                     f"{b['backup_s']} s; Delete for good of one memory {b['purge_s']} s, with "
                     f"{b['week']} backups {b['purge_week_s']} s (ratio {b['purge_ratio']}); "
                     f"restore {b['restore_s']} s; load average {b['load_avg']}")
    return "\n".join(lines)
