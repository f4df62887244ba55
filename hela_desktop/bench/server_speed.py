"""``hela-desktop bench speed --server URL``: re-retrieval against plain streaming, same server.

For each question, two answers from the same server, greedy, the same length cap:

1. a chat turn with live re-retrieval (the twenty TOPICS as memories, the user's settings);
2. the same first prompt streamed plainly (one request, no retrieval, no swaps).

Reported: tokens/s of each (first to last token), their ratio, the swaps made, and for each
swap the prompt tokens the server says it processed next to the bound the layout promises
(memory block + user message + generated text, counted by the server's tokenizer where it
has an endpoint for it).  Servers that report no processed-token count over HTTP
(``llama_cpp.server``) are read from their log with ``--server-log FILE``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ..config import Settings
from ..server_llm import LlamaCppPythonLog, ServerError, ServerLLM, StreamReport
from .speed import QUESTIONS, TOPICS


def _server_count(llm, text: str) -> tuple[int, str]:
    """Tokens of `text` by the server's own tokenizer where it offers one, else ours."""
    for path, key in (("/extras/tokenize", "input"), ("/tokenize", "content")):
        try:
            d = llm.client.post_json(path, {key: text, "model": llm.model})
        except ServerError:
            continue
        toks = d.get("tokens") if isinstance(d, dict) else None
        if isinstance(toks, list):
            return len(toks), "server"
    return llm.count_tokens(text), "estimate"


def _rate(times: list[float]) -> tuple[int, float]:
    """(tokens, seconds from the first token to the last)."""
    return len(times), (times[-1] - times[0]) if len(times) > 1 else 0.0


def _answer(a, llm: ServerLLM, q: str, max_tokens: int, log: LlamaCppPythonLog | None
            ) -> tuple[dict, list[dict], tuple[int, float, int, float]]:
    """One question both ways: a chat turn with re-retrieval, then the same first prompt
    streamed plainly.  (its answer row, its swap rows, (tokens, s) of each way)."""
    from ..events import DoneEvent, MemoriesEvent, TokenEvent

    times: list[float] = []
    done, first = None, []
    for ev in a.chat(q, a.new_conversation("bench"), seed=1):
        if isinstance(ev, MemoriesEvent):
            first = ev.memories
        elif isinstance(ev, TokenEvent):
            times.append(time.perf_counter())
        elif isinstance(ev, DoneEvent):
            done = ev
    state = a.last_turn
    assert done is not None and state is not None  # a finished turn ends with DoneEvent
    n1, t1 = _rate(times)
    # plain streaming of the same first prompt, one request, nothing else
    ptimes = []
    req = ({"prompt": llm.text(state.first_prompt)} if llm.mode_in_use == "completions"
           else {"messages": a._stable_messages() + [
               {"role": "user", "content": a._user_content(first, q)}]})
    for _ in llm.stream(**req, max_tokens=max_tokens, temperature=0.0, top_p=1.0,
                        seed=1, report=StreamReport()):
        ptimes.append(time.perf_counter())
    if log is not None:
        log.take()  # the plain request's line is not a swap's
    n2, t2 = _rate(ptimes)
    row = {"question": q, "tokens": done.tokens, "swaps": done.swaps,
           "tokens_per_s": round(n1 / t1, 2) if t1 else None,
           "plain_tokens": n2, "plain_tokens_per_s": round(n2 / t2, 2) if t2 else None}
    swaps = []
    for r in state.requests[1:]:
        bound, how = _server_count(llm, r.bound_text)
        swaps.append({"processed": r.processed, "bound": bound, "bound_by": how,
                      "estimate": r.estimate,
                      "within_bound": None if r.processed is None else r.processed <= bound + 2})
    return row, swaps, (n1, t1, n2, t2)


def bench_server(settings: Settings, answers: int, workdir: Path, log: str | None = None) -> dict:
    from ..loader import open_assistant
    from ..memory import NewEpisode

    s = settings.with_overrides(backend="server", temperature=0.0, max_answer_tokens=96)
    a = open_assistant(workdir, s)
    try:
        llm, engine = a.llm, a.engine
        assert isinstance(llm, ServerLLM)  # backend "server"
        if log:
            llm.log = LlamaCppPythonLog(log)
        engine.add_episodes([NewEpisode(t, "") for t in TOPICS])
        rows, swaps_rows = [], []
        rr_n = rr_s = plain_n = plain_s = 0.0
        for i in range(answers):
            row, swaps, (n1, t1, n2, t2) = _answer(a, llm, QUESTIONS[i % len(QUESTIONS)],
                                                   s.max_answer_tokens, llm.log)
            rr_n, rr_s, plain_n, plain_s = rr_n + n1, rr_s + t1, plain_n + n2, plain_s + t2
            rows.append(row)
            swaps_rows += swaps
        rr = rr_n / rr_s if rr_s else 0.0
        plain = plain_n / plain_s if plain_s else 0.0
        processed = [r["processed"] for r in swaps_rows if r["processed"] is not None]
        return {
            "server": llm.url, "model": llm.model, "kind": llm.kind, "mode": llm.mode_in_use,
            "answers": rows, "tokens_per_s": round(rr, 2), "plain_tokens_per_s": round(plain, 2),
            "ratio": round(rr / plain, 3) if plain else None,
            "swaps": len(swaps_rows), "per_swap": swaps_rows,
            "processed_per_swap_mean": round(sum(processed) / len(processed), 1) if processed else None,
            "bound_per_swap_mean": round(sum(r["bound"] for r in swaps_rows) / len(swaps_rows), 1)
            if swaps_rows else None,
            "all_within_bound": all(r["within_bound"] for r in swaps_rows) if processed else None,
            "counts_reported": bool(processed),
        }
    finally:
        a.close()


def format_server_report(r: dict) -> str:
    lines = [f"# bench speed --server {r['server']} ({r['kind']}, {r['mode']} mode)", "",
             "| | tokens/s |", "|---|---:|",
             f"| plain streaming | {r['plain_tokens_per_s']} |",
             f"| with re-retrieval | {r['tokens_per_s']} |",
             f"| ratio | {r['ratio']}× |", "",
             f"swaps: {r['swaps']}"]
    if r["swaps"]:
        if r["counts_reported"]:
            lines.append(f"prompt tokens the server processed per swap: mean "
                         f"{r['processed_per_swap_mean']} (bound: memory block + user message + "
                         f"generated, mean {r['bound_per_swap_mean']}); all within bound: "
                         f"{r['all_within_bound']}")
        else:
            lines.append("the server reported no processed-token counts (for llama_cpp.server "
                         "pass --server-log with its log file)")
    return "\n".join(lines)


def run_server_speed(settings: Settings, *, answers: int, eager: bool = True,
                     log: str | None = None) -> dict:
    """What ``hela-desktop bench speed --server URL`` measures: one `bench_server` report
    per run, by name ("default", and with `eager` "eager": every swap re-retrieval
    proposes).  `log`: the server's log (``--server-log``).  Raises ServerError."""
    import tempfile

    print(f"re-retrieval vs plain streaming from {settings.server_url}:", file=sys.stderr)
    runs = {"default": settings}
    if eager:
        # every swap re-retrieval proposes (no margin, no cost weight; the time budget stays)
        runs["eager"] = settings.with_overrides(swap_margin=0.0, swap_cost_weight=0.0)
    report = {}
    with tempfile.TemporaryDirectory(prefix="hela-bench-") as tmp:
        for name, s in runs.items():
            report[name] = bench_server(s, answers, Path(tmp) / name, log)
    return report


def format_server_reports(report: dict) -> str:
    """`run_server_speed`'s report as text: one section per run."""
    return "\n\n".join(f"## {name}\n{format_server_report(r)}" for name, r in report.items())
