"""The llama.cpp layer with the real default GGUF: errors, prefix reuse, KV splicing."""

from __future__ import annotations

import pytest

from hela_desktop.llm import LocalLLM, ModelError, Utf8Stream, check_gguf
from hela_desktop.paths import bundled_model_path


def test_missing_model_names_the_file(tmp_path):
    with pytest.raises(ModelError, match="model file not found") as e:
        check_gguf(tmp_path / "nope.gguf")
    assert str(tmp_path / "nope.gguf") in str(e.value)


def test_not_a_gguf_is_refused(tmp_path):
    p = tmp_path / "model.gguf"
    p.write_bytes(b"<html>not a model</html>")
    with pytest.raises(ModelError, match="not a GGUF model file"):
        LocalLLM(p)


def test_truncated_gguf_is_refused_by_llama_cpp(tmp_path):
    src = bundled_model_path()
    p = tmp_path / "truncated.gguf"
    p.write_bytes(src.read_bytes()[: 1 << 20])  # right magic, 1 MiB of 98 MB
    with pytest.raises(ModelError, match="could not load this model"):
        LocalLLM(p)


def test_sync_reuses_the_longest_cached_prefix(llm):
    a = llm.tokenize("The quick brown fox jumps over the lazy dog. " * 4)
    b = a[:30] + llm.tokenize(" A completely different ending.")
    llm.reset()
    assert llm.sync(a) == len(a)
    assert llm.sync(a) == 0  # nothing changed: nothing evaluated
    assert llm.sync(b) == len(b) - 30  # only the tail after the shared 30 tokens
    assert llm.cached_tokens == b
    assert llm.sync(b[:20]) == 1  # a pure prefix: only the last token is re-run


def _greedy_next(model: LocalLLM) -> int:
    model.start_sampling(0.0, 1.0)
    try:
        return model.sample()
    finally:
        model.stop_sampling()


def test_splice_edits_the_context_and_evaluates_only_the_insert(llm):
    head = llm.tokenize("Memories: bees make honey. cats hate rain. ")
    mid = llm.tokenize("old memory line to drop. ")
    tail = llm.tokenize("Question: what do bees make? Answer:")
    new = llm.tokenize("new line about chess. ")
    llm.reset()
    llm.sync(head + mid + tail)
    before = llm.evaluated_tokens
    a, b = len(head), len(head) + len(mid)
    n = llm.splice([(a, b)], b, new)
    assert n == len(new) + 1
    assert llm.evaluated_tokens - before == n
    assert llm.cached_tokens == head + new + tail


def test_spliced_cells_equal_an_exact_evaluation(llm):
    """The inserted tokens attend exactly to what precedes them: truncating the context right
    after the insert must predict the same next token as evaluating it from scratch."""
    head = llm.tokenize("The capital of France is Paris. The capital of Italy is")
    tail = llm.tokenize(" something else entirely, written later.")
    insert = llm.tokenize(" Rome. The capital of Spain is")
    llm.reset()
    llm.sync(head + tail)
    llm.splice([], len(head), insert)
    assert llm.sync(head + insert) == 1  # keep the spliced cells, drop the tail
    spliced = _greedy_next(llm)
    llm.reset()
    llm.sync(head + insert)
    exact = _greedy_next(llm)
    assert spliced == exact


def test_utf8_stream_never_splits_a_character():
    s = Utf8Stream()
    data = "naïve ☕ café".encode()
    pieces = [s.push(data[i : i + 1]) for i in range(len(data))]
    assert "".join(pieces) + s.flush() == "naïve ☕ café"
    assert all("\ufffd" not in p for p in pieces)
