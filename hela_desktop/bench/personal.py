"""``hela-desktop bench personal FILE``: the whole memory loop on personal dialogues.

Retrieval recall on LoCoMo says nothing about what a user meets: whether the right memory
is in the prompt when they ask about themselves, whether nothing is when they ask for a
poem, whether a fact that changed shows its newer value, whether answers parrot markup or
repeat themselves, and whether distilled knowledge is what they said.  This benchmark
measures exactly that, through the app's own turn path.

Input (``personal-dev.json``; only the user's messages are written)::

    [{"id": str,
      "sessions": [{"date": ISO-8601, "turns": [user message, ...]}, ...],
      "probes": [{"ask": str, "kind": "recall"|"update"|"association"|"unrelated",
                  "expect": [str], "avoid": [str],
                  "evidence": [[session_index, turn_index], ...]}]}]

A run, per dialogue, in a fresh data folder:

1. Every session is played as one chat through `Assistant.chat` at the session's date (one
   turn every two minutes): retrieval, the relevance gate, live re-retrieval, the model's
   answer (``--answer-tokens``, default 48; greedy, or sampled at ``--temperature`` with
   seed 0 per turn), storing, Hebbian updates.  With
   ``--reflect``, consolidation and forgetting run between sessions, as idle time would.
2. A week after the last session each probe is asked as a new chat, through the same path.
3. Scores (shares in %):

   - ``in_prompt`` (recall, update, association): every evidence turn's memory was in the
     prompt, before the first token or brought in by re-retrieval;
   - ``superseded_absent`` (update): no *other* memory stating an ``avoid`` value was in
     the prompt, unless it was marked as older than a newer one (the evidence itself may
     name the old value: "I quit the climbing gym");
   - ``no_memory`` (unrelated): no memory and no knowledge line in the prompt at all;
   - ``noise``: memories in the prompt that are not evidence, per probe (all probes);
   - ``unrecalled`` (every kind): the answer was marked "Not from your memories" (a question
     about the user's life with nothing recalled for it; never an unrelated probe's);
   - with ``--answer``: ``correct`` (the answer contains an ``expect`` string and no
     ``avoid`` string, case-insensitive), ``format_leak`` (memory or transcript markup in
     the answer: a line starting with a bracketed date such as "(2025-" or with "User:" /
     "Assistant:"), ``repeats`` (at least 80 % the same as an earlier answer in the same
     dialogue, `difflib` ratio), ``copies_memory`` (a line of the answer is a whole memory
     of its prompt, word for word, four words or more), ``wrong_flagged`` (wrong answers to memory probes that
     were marked "Not from your memories" or "Check this answer", `doubt.answer_doubt`),
     ``right_flagged`` (right answers so marked), ``right_made_up`` (right answers marked
     only for a name or number none of the memories it was given says: a true mark of a
     made-up detail, not a false alarm);
   - ``knowledge``: live items after the run and the share grounded in the user's own
     words of their source episodes (``knowledge.item_support``).
"""

from __future__ import annotations

import difflib
import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from .. import facts
from ..config import Settings
from ..events import DoneEvent, MemoriesEvent, MemoryUpdateEvent
from ..prompt import could_be_markup

KINDS = ("recall", "update", "association", "unrelated")
REPEAT_RATIO = 0.8
PROBE_DELAY = 7 * 86400.0  # probes are asked a week after the last session
TURN_GAP = 120.0  # seconds between turns of a session


class DataError(ValueError):
    pass


def load_dialogues(path: Path, limit: int | None = None, ids: str | None = None) -> list[dict]:
    """Read and check a dialogues file; DataError names what is wrong."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(f"{path}: {exc}") from exc
    if not isinstance(data, list):
        raise DataError(f"{path}: expected a JSON list of dialogues")
    for n, d in enumerate(data):
        where = f"{path}: dialogue {n}"
        if not isinstance(d, dict) or not isinstance(d.get("sessions"), list) \
                or not isinstance(d.get("probes"), list):
            raise DataError(f"{where}: needs 'sessions' and 'probes' lists")
        for s in d["sessions"]:
            if not isinstance(s, dict) or not isinstance(s.get("turns"), list):
                raise DataError(f"{where}: a session needs 'date' and 'turns'")
            _timestamp(s.get("date"), where)
            if not all(isinstance(t, str) and t.strip() for t in s["turns"]):
                raise DataError(f"{where}: turns must be non-empty strings")
        for p in d["probes"]:
            if not isinstance(p, dict) or p.get("kind") not in KINDS \
                    or not isinstance(p.get("ask"), str):
                raise DataError(f"{where}: a probe needs 'ask' and a 'kind' in {KINDS}")
            for si, ti in p.get("evidence", []):
                if not (0 <= si < len(d["sessions"]) and 0 <= ti < len(d["sessions"][si]["turns"])):
                    raise DataError(f"{where}: evidence [{si}, {ti}] names no turn")
    if ids:
        want = {i.strip() for i in ids.split(",") if i.strip()}
        data = [d for d in data if str(d.get("id")) in want]
    return data[:limit] if limit else data


def _timestamp(value, where: str) -> float:
    try:
        return datetime.fromisoformat(str(value)).timestamp()
    except (TypeError, ValueError) as exc:
        raise DataError(f"{where}: bad session date {value!r}") from exc


def _turn(assistant, text: str, conversation: int, now: float) -> dict:
    """One chat turn through the app's path; what was in the prompt, and the answer."""
    memories: dict[int, dict] = {}
    done = None
    for ev in assistant.chat(text, conversation, now=now, seed=0):
        if isinstance(ev, MemoriesEvent):
            for r in ev.memories:
                memories.setdefault(r.episode_id, {"text": r.text, **_why(r)})
        elif isinstance(ev, MemoryUpdateEvent):
            for r in ev.added:
                memories.setdefault(r.episode_id, {"text": r.text, "swapped_in": True, **_why(r)})
        elif isinstance(ev, DoneEvent):
            done = ev
    knowledge = [{"id": k.episode_id, "text": k.text} for k in assistant.turn_knowledge]
    return {"memories": memories, "knowledge": knowledge, "answer": done.text if done else "",
            "episode_id": done.episode_id if done else None,
            "unrecalled": bool(done and done.unrecalled),
            "doubted": bool(done and done.doubt),
            "doubt_kind": (done.doubt or {}).get("kind") if done else None}


def _why(r) -> dict:
    keep = ("gate", "similarity", "bar", "older_than", "supersedes", "via_name")
    return {k: r.extra[k] for k in keep if k in r.extra}


def _contains(text: str, needles: list[str]) -> bool:
    low = text.lower()
    return any(n.lower() in low for n in needles if n)


def copies_memory(answer: str, memories: list[str], min_words: int = 4) -> bool:
    """Does a line of the answer (a list bullet, case and punctuation aside) say a whole
    memory of its prompt word for word ("• Ana and I plan a trip to the Azores in May.")?
    The memory block parroted back in the user's voice, not an answer.  Memories under
    `min_words` words are left out: "I'm vegan." may well be the answer's own words."""
    said = {k for k in map(facts.word_key, memories) if len(k) >= min_words}
    return any(facts.word_key(line) in said for line in answer.splitlines())


def is_repeat(answer: str, earlier: list[str], ratio: float = REPEAT_RATIO) -> bool:
    a = " ".join(answer.split()).lower()
    if not a:
        return False
    for e in earlier:
        e = " ".join(e.split()).lower()
        if e and difflib.SequenceMatcher(None, a, e, autojunk=False).ratio() >= ratio:
            return True
    return False


def run_dialogue(d: dict, *, llm, embedder, settings: Settings, answer: bool, reflect: bool,
                 progress: Callable[[str], None] | None = None) -> list[dict]:
    """Play one dialogue in a fresh data folder; one result dict per probe."""
    from ..knowledge import GROUNDED_MIN, item_support, list_knowledge
    from ..loader import open_assistant

    rows = []
    with tempfile.TemporaryDirectory(prefix="hela-personal-") as tmp:
        llm.reset()  # no cached cells from another data folder
        a = open_assistant(Path(tmp), replace(settings), llm=llm, embedder=embedder)
        key: dict[tuple[int, int], int] = {}
        answers: list[str] = []
        last = 0.0
        for si, sess in enumerate(d["sessions"]):
            t0 = _timestamp(sess["date"], d.get("id", "?"))
            conv = a.store.add_conversation(f"session {si + 1}", at=t0)
            for ti, text in enumerate(sess["turns"]):
                last = t0 + ti * TURN_GAP
                res = _turn(a, text, conv, last)
                if res["episode_id"] is not None:
                    key[(si, ti)] = res["episode_id"]
                answers.append(res["answer"])
            if reflect and si + 1 < len(d["sessions"]):
                _reflect(a, _timestamp(d["sessions"][si + 1]["date"], "") - 3600)
            if progress:
                progress(f"{d.get('id')}: session {si + 1}/{len(d['sessions'])} played")
        t_probe = last + PROBE_DELAY
        for pi, p in enumerate(d["probes"]):
            conv = a.store.add_conversation("probe", at=t_probe)
            res = _turn(a, p["ask"], conv, t_probe + pi * TURN_GAP)
            evidence = {key.get((si, ti)) for si, ti in p.get("evidence", [])}
            in_prompt = set(res["memories"])
            row = {
                "dialogue": d.get("id"), "ask": p["ask"], "kind": p["kind"],
                "evidence_ids": sorted(e for e in evidence if e is not None),
                "missing_evidence": None in evidence,
                "memories": [{"id": i, **m} for i, m in res["memories"].items()],
                "knowledge": res["knowledge"],
                "in_prompt": bool(evidence) and None not in evidence and evidence <= in_prompt,
                "noise": len(in_prompt - evidence),
                "no_memory": not in_prompt and not res["knowledge"],
                "superseded_absent": not any(
                    _contains(m["text"], p.get("avoid", [])) and "older_than" not in m
                    for i, m in res["memories"].items() if i not in evidence),
                "unrecalled": res["unrecalled"],
                "doubted": res["doubted"], "doubt_kind": res["doubt_kind"],
                "answer": res["answer"],
            }
            if answer:
                text = res["answer"]
                row["correct"] = (_contains(text, p.get("expect", []))
                                  and not _contains(text, p.get("avoid", [])))
                row["format_leak"] = could_be_markup(text)
                row["repeats"] = is_repeat(text, answers)
                row["copies_memory"] = copies_memory(
                    text, [m["text"] for m in res["memories"].values()])
            answers.append(res["answer"])
            rows.append(row)
        items = list_knowledge(a.store)
        grounded = sum(item_support(a.store, k) >= GROUNDED_MIN for k in items)
        for r in rows:
            r["_knowledge"] = (len(items), grounded)
        a.store.close()
    return rows


def _reflect(assistant, now: float) -> None:
    """Idle-time work between sessions: consolidation, then forgetting."""
    from ..consolidate import consolidate
    from ..forgetting import forget

    consolidate(assistant.engine, assistant.llm, now=now)
    forget(assistant.engine, now=now)


def summarize(rows: list[dict], dialogues: int, answer: bool) -> dict:
    def share(sel, field):
        return round(100.0 * sum(bool(r[field]) for r in sel) / len(sel), 1) if sel else None

    by = {k: [r for r in rows if r["kind"] == k] for k in KINDS}
    probes = {
        "recall": {"n": len(by["recall"]), "in_prompt": share(by["recall"], "in_prompt")},
        "update": {"n": len(by["update"]), "in_prompt": share(by["update"], "in_prompt"),
                   "superseded_absent": share(by["update"], "superseded_absent")},
        "association": {"n": len(by["association"]),
                        "in_prompt": share(by["association"], "in_prompt")},
        "unrelated": {"n": len(by["unrelated"]), "no_memory": share(by["unrelated"], "no_memory")},
    }
    for k in KINDS:
        probes[k]["unrecalled"] = share(by[k], "unrecalled")
    answers = None
    if answer:
        answers = {"n": len(rows), "correct": share(rows, "correct"),
                   "format_leak": share(rows, "format_leak"), "repeats": share(rows, "repeats"),
                   "copies_memory": share(rows, "copies_memory")}
        scored = [r for r in rows if r["kind"] != "unrelated"]
        answers["correct_memory_probes"] = share(scored, "correct")
        # how many wrong answers to memory probes the window marked "Not from your memories"
        # or "Check this answer" (`doubt.answer_doubt`), and how many right ones it doubted
        for r in scored:
            r["flagged"] = bool(r["unrecalled"] or r["doubted"])
        answers["wrong_flagged"] = share([r for r in scored if not r["correct"]], "flagged")
        answers["right_flagged"] = share([r for r in scored if r["correct"]], "flagged")
        # … of those, the ones marked only for a name or number no memory says: the mark is
        # true of the answer ("15th, 2026" where the memory says "in September")
        for r in scored:
            r["made_up"] = r.get("doubt_kind") == "made_up" and not r["unrecalled"]
        answers["right_made_up"] = share([r for r in scored if r["correct"]], "made_up")
    seen, items, grounded = set(), 0, 0
    for r in rows:
        if r["dialogue"] not in seen:
            seen.add(r["dialogue"])
            items += r["_knowledge"][0]
            grounded += r["_knowledge"][1]
    return {
        "dialogues": dialogues, "probes": probes,
        "noise": round(sum(r["noise"] for r in rows) / len(rows), 2) if rows else None,
        "answers": answers,
        "knowledge": {"items": items,
                      "grounded": round(100.0 * grounded / items, 1) if items else None},
    }


def run_personal(dialogues: list[dict], *, llm, embedder, settings: Settings | None = None,
                 answer: bool = False, reflect: bool = False, answer_tokens: int = 48,
                 temperature: float = 0.0, dump: Callable[[dict], None] | None = None,
                 progress: Callable[[str], None] | None = None) -> dict:
    s = (settings or Settings()).with_overrides(temperature=temperature,
                                                max_answer_tokens=answer_tokens)
    t0 = time.perf_counter()
    rows: list[dict] = []
    for d in dialogues:
        got = run_dialogue(d, llm=llm, embedder=embedder, settings=s, answer=answer,
                           reflect=reflect, progress=progress)
        rows += got
        if dump is not None:
            for r in got:
                dump({k: v for k, v in r.items() if not k.startswith("_")})
    out = summarize(rows, len(dialogues), answer)
    out["model"] = getattr(llm, "name", None)
    out["temperature"] = s.temperature
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


def markdown_report(res: dict) -> str:
    p = res["probes"]
    lines = [f"# bench personal: {res['dialogues']} dialogues, model {res['model']}, "
             f"temperature {res.get('temperature', 0.0)}", "",
             "| probes | n | in prompt | other |", "|---|---|---|---|",
             f"| recall | {p['recall']['n']} | {p['recall']['in_prompt']} % | |",
             f"| update | {p['update']['n']} | {p['update']['in_prompt']} % | superseded absent "
             f"{p['update']['superseded_absent']} % |",
             f"| association | {p['association']['n']} | {p['association']['in_prompt']} % | |",
             f"| unrelated | {p['unrelated']['n']} | | no memory {p['unrelated']['no_memory']} % |",
             "", f"Noise: {res['noise']} memories per probe that are not evidence.",
             "Marked \"not from your memories\": " + ", ".join(
                 f"{k} {p[k]['unrecalled']} %" for k in KINDS) + "."]
    a = res["answers"]
    if a:
        lines.append(f"Answers ({a['n']}): correct {a['correct']} % (memory probes "
                     f"{a['correct_memory_probes']} %), format leak {a['format_leak']} %, "
                     f"repeats {a['repeats']} %, memory lines copied {a['copies_memory']} %; "
                     f"wrong answers marked {a['wrong_flagged']} %, right ones "
                     f"{a.get('right_flagged', 0)} % ({a.get('right_made_up', 0)} % for a "
                     "made-up name or number).")
    k = res["knowledge"]
    lines.append(f"Knowledge: {k['items']} items, grounded {k['grounded']} %.")
    lines.append(f"({res['seconds']:.0f} s)")
    return "\n".join(lines)
