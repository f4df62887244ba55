"""Benchmark of importing a conversation history: a generated ChatGPT export.

`write_chatgpt_export` writes a realistic ``conversations.json`` (streamed to disk, never
built whole in memory): conversations of user/assistant exchanges in ChatGPT's ``mapping``
tree, each with a hidden system root, a custom-instructions message, an edited question (a
dead branch) and a tool call in some exchanges, varied sentences and timestamps.
`bench_import` imports it into an empty store with the real embedder and reports the
import rate in exchanges per second, embedding included, and the embedding rate alone.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np

from ..memfile import import_file
from ..store import Store

_SUBJECTS = ("my sister Ana", "our cat Miso", "the garden", "my cello teacher", "the team",
             "my landlord", "the Lisbon trip", "my running plan", "the quarterly budget",
             "grandma's recipe", "the new laptop", "the jazz band")
_VERBS = ("keeps asking about", "is worried about", "loves", "wants to change", "forgot",
          "reminded me of", "keeps postponing", "is excited about")
_OBJECTS = ("the weekend plans", "a birthday present", "tax forms", "the dentist visit",
            "piano lessons", "spicy ramen", "the marathon in October", "a broken bike",
            "a job offer in Porto", "the tomato harvest", "a chess tournament", "a lost key")
_REPLY = ("Here is a thought: break it into small steps, write down what matters most, and "
          "check back next week to see how it went. ")


def _sentence(rng: np.random.Generator) -> str:
    return (f"{_SUBJECTS[rng.integers(len(_SUBJECTS))]} "
            f"{_VERBS[rng.integers(len(_VERBS))]} {_OBJECTS[rng.integers(len(_OBJECTS))]}")


def write_chatgpt_export(path: Path, *, conversations: int, exchanges: int,
                         reply_chars: int = 400, seed: int = 3) -> int:
    """Write a ChatGPT ``conversations.json`` with `conversations` × `exchanges`
    exchanges; returns the number of exchanges."""
    rng = np.random.default_rng(seed)
    t = 1_650_000_000.0
    reps = max(1, reply_chars // len(_REPLY))
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("[")
        for c in range(conversations):
            cid = f"conv-{c:06d}"
            mapping = {"root": {"id": "root", "message": None, "parent": None,
                                "children": ["sys"]}}

            def add(mid, role, parts, parent, *, ctype="text", meta=None, recipient="all",
                    mapping=mapping):
                nonlocal t
                t += float(rng.integers(5, 90))
                mapping[parent]["children"].append(mid)
                mapping[mid] = {"id": mid, "parent": parent, "children": [], "message": {
                    "id": mid, "author": {"role": role, "name": None, "metadata": {}},
                    "create_time": t, "update_time": None,
                    "content": {"content_type": ctype, "parts": parts},
                    "status": "finished_successfully", "end_turn": None, "weight": 1.0,
                    "metadata": meta or {}, "recipient": recipient}}

            mapping["root"]["children"] = []
            add("sys", "system", [""], "root",
                meta={"is_visually_hidden_from_conversation": True})
            last = "sys"
            for e in range(exchanges):
                u = f"{cid}-u{e}"
                if e % 7 == 3:  # an edited question leaves a dead branch behind
                    add(u + "x", "user", ["(first wording) " + _sentence(rng)], last)
                add(u, "user", [f"Today {_sentence(rng)}, and {_sentence(rng)}."], last)
                parent = u
                if e % 5 == 2:  # a tool call and its result, hidden
                    add(u + "c", "assistant", ["search('...')"], u, recipient="browser")
                    add(u + "t", "tool", ["results"], u + "c",
                        ctype="tether_browsing_display")
                    parent = u + "t"
                add(f"{cid}-a{e}", "assistant", [_REPLY * reps + _sentence(rng) + "."], parent,
                    meta={"model_slug": "gpt-4o"})
                last = f"{cid}-a{e}"
            conv = {"title": f"Chat {c}: {_sentence(rng)}", "create_time": t - 1000,
                    "update_time": t, "mapping": mapping, "moderation_results": [],
                    "current_node": last, "plugin_ids": None, "conversation_id": cid,
                    "conversation_template_id": None, "gizmo_id": None, "is_archived": False,
                    "safe_urls": [], "id": cid}
            if c:
                fh.write(",")
            fh.write(json.dumps(conv, ensure_ascii=False))
            t += 86_400.0
        fh.write("]")
    return conversations * exchanges


def bench_import(work: Path, *, exchanges: int = 10_000, per_conversation: int = 20,
                 embedder=None) -> dict:
    """Import a generated `exchanges`-exchange ChatGPT export into an empty store, with the
    real embedder; figures for the whole import and for its parts."""
    work.mkdir(parents=True, exist_ok=True)
    path = work / "conversations.json"
    n = write_chatgpt_export(path, conversations=max(1, exchanges // per_conversation),
                             exchanges=per_conversation)
    if embedder is None:
        from ..embedder import Embedder

        embedder = Embedder()
    stages: dict[str, float] = {}

    def stage(name: str, _a: int, _b: int) -> None:
        stages[name] = time.perf_counter()

    with Store(work / "data") as store:
        t0 = time.perf_counter()
        rep = import_file(store, path, embedder=embedder, stage=stage)
        total = time.perf_counter() - t0
        stored = store.count_episodes()
    t_end = t0 + total
    order = ["reading", "checking", "embedding", "writing"]
    spans = {}
    for i, name in enumerate(order):
        if name in stages:
            nxt = next((stages[m] for m in order[i + 1:] if m in stages), t_end)
            spans[f"{name}_s"] = round(nxt - stages[name], 2)
    return {
        "exchanges": n, "stored": stored, "file_mb": round(path.stat().st_size / 2**20, 1),
        "seconds": round(total, 2), "exchanges_per_s": round(n / total, 1),
        "embed_per_s": round(rep.embed_rate or 0.0, 1), **spans,
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }
