"""Distillation: what the local model is asked about one cluster, the grammar its answer
must follow, and how the answer is read and cleaned (see :mod:`hela_desktop.consolidate`,
step 3).  Qt-free; no SQL."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from .consolidate_params import ConsolidationParams
from .knowledge import KINDS, is_grounded, speaks_as_assistant

# ---------------------------------------------------------------------- the model ------
SYSTEM = (
    "You turn related conversation memories into short lasting knowledge. "
    "kind user_model: a trait or preference of the user, written about the user in third "
    "person. kind fact: a fact about the world or people in the user's life. kind persona: "
    "how the assistant should behave. replaces: true only if it corrects something said "
    "earlier."
)
# A one-shot example given as an earlier exchange (the small model copies an example that
# sits in the system prompt, but follows one given as a previous turn).
EXAMPLE_MEMORIES = ("- User: I drink coffee every morning. Assistant: Nice routine.\n"
                    "- User: Coffee keeps me awake at work. Assistant: Good.")
EXAMPLE_ANSWER = ('{"items": [{"kind": "user_model", "text": "The user drinks coffee every '
                  'morning.", "replaces": false}]}')

PREFIX = {"user_model": "The user ", "fact": "", "persona": "The assistant "}


def grammar_text(max_items: int = 2, max_chars: int = 90) -> str:
    """The GBNF grammar of one distillation answer."""
    more = ' ( ", " item )?' * max(0, max_items - 1)
    return (
        f'root ::= "{{\\"items\\": [" item{more} "]}}"\n'
        'item ::= "{\\"kind\\": \\"" ( um | fa | pe ) ", \\"replaces\\": " ( "true" | "false" ) "}"\n'
        'um ::= "user_model\\", \\"text\\": \\"The user " body "\\""\n'
        'fa ::= "fact\\", \\"text\\": \\"" body "\\""\n'
        'pe ::= "persona\\", \\"text\\": \\"The assistant " body "\\""\n'
        f'body ::= [^"\\\\\\x00-\\x1f]{{4,{int(max_chars)}}}\n'
    )


_GRAMMARS: dict[tuple[int, int], object] = {}


def _grammar(max_items: int, max_chars: int):
    key = (max_items, max_chars)
    if key not in _GRAMMARS:
        from llama_cpp import LlamaGrammar

        _GRAMMARS[key] = LlamaGrammar.from_string(grammar_text(max_items, max_chars),
                                                  verbose=False)
    return _GRAMMARS[key]


def cluster_prompt(texts: list[str], memory_chars: int = 220, *,
                   example: bool = True) -> list[dict]:
    """Chat messages asking for the knowledge in one cluster (stable part first: the system
    prompt and the example exchange are the same for every cluster, so llama.cpp reuses
    their KV cache)."""
    lines = []
    for t in texts:
        t = " ".join(t.split())
        lines.append("- " + (t[:memory_chars].rstrip() + "…" if len(t) > memory_chars else t))
    shot = [{"role": "user", "content": f"Memories:\n{EXAMPLE_MEMORIES}\n\nAnswer:"},
            {"role": "assistant", "content": EXAMPLE_ANSWER}] if example else []
    return [{"role": "system", "content": SYSTEM + ("" if example else " Answer with JSON only.")},
            *shot,
            {"role": "user", "content": "Memories:\n" + "\n".join(lines) + "\n\nAnswer:"}]


class Yielded(Exception):
    """The model call was stopped because the user came back (nothing is written)."""


def distil(llm, texts: list[str], params: ConsolidationParams | None = None, *,
           should_yield: Callable[[], bool] | None = None,
           example: bool = True) -> tuple[list[dict], str]:
    """Ask the local model for knowledge items in `texts` (one cluster); grammar-constrained.

    `llm` is a :class:`~hela_desktop.llm.LocalLLM`; the call goes through its llama.cpp
    completion (``llm.complete(prompt, grammar=...)``) with the model's chat template.
    Returns (parsed raw items, raw output); raises ValueError when nothing can be parsed,
    `Yielded` when `should_yield()` turned true during generation (checked every token).
    The caller must hold the model lock.
    """
    from llama_cpp import StoppingCriteriaList

    p = params or ConsolidationParams()
    prompt = llm.render(cluster_prompt(texts, p.memory_chars, example=example))
    fired = []

    def stop(_ids, _logits) -> bool:
        if should_yield is not None and should_yield():
            fired.append(True)
            return True
        return False

    out = llm.complete(
        prompt, grammar=_grammar(p.max_items, p.max_chars), max_tokens=p.max_tokens,
        temperature=p.temperature, top_k=40, top_p=0.95, repeat_penalty=1.0, seed=1234,
        stopping_criteria=StoppingCriteriaList([stop]))
    if fired:
        raise Yielded("the user is back")
    text = out["choices"][0]["text"]
    return parse_items(text), text


_ITEM_RE = re.compile(
    r'\{"kind": "(user_model|fact|persona)", "text": "([^"\\]*)", "replaces": (true|false)\}')


def parse_items(text: str) -> list[dict]:
    """Items from a (possibly truncated) grammar-shaped answer; ValueError if none."""
    try:
        data = json.loads(text)
        items = data["items"] if isinstance(data, dict) else None
    except (ValueError, KeyError, TypeError):
        items = None
    if not isinstance(items, list):  # truncated at max_tokens: keep the complete items
        items = [{"kind": k, "text": t, "replaces": r == "true"} for k, t, r in _ITEM_RE.findall(text)]
    good = [i for i in items if isinstance(i, dict) and i.get("kind") in KINDS
            and isinstance(i.get("text"), str)]
    if not good:
        raise ValueError(f"no knowledge item in model output {text[:120]!r}")
    return good


_ROLE = re.compile(r"\b(user|assistant)\s*:\s*", re.IGNORECASE)
_SPACES = re.compile(r"\s+")


def grounded(text: str, context: str | list[str]) -> bool:
    """Is the statement supported by the user's own words (`context`: their texts)?  See
    ``knowledge.support``: enough of its content words must stand in them, and it may not
    speak in the assistant's voice.  This also catches the small model's habit of copying
    the prompt's example instead of the memories."""

    return is_grounded(text, [context] if isinstance(context, str) else context)


def clean_items(items: list[dict], min_words: int = 3, context: str | None = None,
                max_chars: int | None = None) -> tuple[list[dict], list[dict]]:
    """(kept, rejected): normalised texts; too short, role-tagged, repeated or (given the
    cluster's `context` text) ungrounded items dropped.  An item as long as the grammar
    allows (`max_chars`) was cut there, perhaps inside a word: it keeps its clauses up to the
    last comma, or is dropped (QA pass 37: "…Tomasz built a new bookshelf for Solve.")."""
    kept, rejected, seen = [], [], set()
    for it in items:
        kind = it["kind"]
        text = _SPACES.sub(" ", str(it["text"])).strip()
        prefix = PREFIX[kind].strip()
        body = text[len(prefix):].strip() if prefix and text.startswith(prefix) else text
        reason = None
        if max_chars is not None and len(body) >= max_chars - 1:
            at = max(body.rfind(","), body.rfind(";"))
            body = body[:at] if at > 0 else body
            reason = None if at > 0 else "cut short"
        body = _ROLE.sub("", body).strip(" .,;:-")
        if reason is not None:
            pass
        elif len(re.findall(r"[^\W_]+", body)) < min_words:
            reason = "too short"
        elif not re.search(r"[A-Za-z]", body):
            reason = "no words"
        text = (f"{prefix} {body}" if prefix else body[:1].upper() + body[1:]).strip() + "."
        key = re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()
        # the whole statement, as the Knowledge tab weighs it (`knowledge.support`): without
        # its "The user" the identity check never fired, and "The user is a dog." (from "my
        # dog is called Pixel") was added, then shown as not supported (QA pass 22)
        if reason is None and context is not None and speaks_as_assistant(text):
            # (QA pass 35: a word-for-word copy of "My husband Dariusz is a primary school
            # teacher." was said to be "not grounded in the memories")
            reason = "speaks as “I” or to “you”, not of “The user”"
        elif reason is None and context is not None and not grounded(text, context):
            reason = "not grounded in the memories"
        if reason is None and key in seen:
            reason = "repeated"
        entry = {"kind": kind, "text": text, "replaces": bool(it.get("replaces"))}
        if reason:
            rejected.append({**entry, "reason": reason})
        else:
            seen.add(key)
            kept.append(entry)
    return kept, rejected
