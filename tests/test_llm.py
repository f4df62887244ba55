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


@pytest.mark.slow
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


def _logits(model: LocalLLM):
    import llama_cpp
    import numpy as np

    ctx = model._llm._ctx.ctx
    return np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(ctx, -1),
                                 shape=(model._llm.n_vocab(),)).copy()


def test_replace_writes_a_shorter_line_in_place_without_moving_the_rest(llm):
    head = llm.tokenize("Memories: bees make honey. cats hate rain. ")
    mid = llm.tokenize("an old memory line that is long and will be dropped. ")
    tail = llm.tokenize("Question: what do bees make? Answer:")
    new = llm.tokenize("chess on Sundays. ")
    assert len(new) < len(mid)
    llm.reset()
    llm.sync(head + mid + tail)
    before = llm.evaluated_tokens
    a, b = len(head), len(head) + len(mid)
    n = llm.replace([(a, b, new)])
    assert n == len(new) + 1
    assert llm.evaluated_tokens - before == n
    assert llm.cached_tokens == head + new + tail
    pos = llm.positions
    # the new line sits where the old one began; the tail did not move (a hole in between)
    assert pos[: a + len(new)] == list(range(a + len(new)))
    assert pos[a + len(new):] == list(range(b, b + len(tail)))
    llm.push(llm.tokenize(" honey")[0])  # generation goes on after the hole
    assert llm.positions[-1] == b + len(tail)
    # a longer line does not fit: the tail moves right by the difference
    a2, b2 = a, a + len(new)
    longer = mid + mid
    llm.replace([(a2, b2, longer)])
    pos = llm.positions
    assert llm.cached_tokens[a2 : a2 + len(longer)] == longer
    assert pos[a2 + len(longer)] == a2 + len(longer)  # the tail follows the new line


def test_touching_edits_are_applied_as_one(llm):
    """Replacing the last memory line and appending another right after it (what a swap
    that adds more than it drops does) keeps the cache consistent, prepared or not."""
    head = llm.tokenize("Memories: bees make honey. ")
    mid = llm.tokenize("an old line. ")
    tail = llm.tokenize("Question: what do bees make? Answer:")
    first = llm.tokenize("a new and rather longer line about chess clubs. ")
    extra = llm.tokenize("one more line. ")
    a, b = len(head), len(head) + len(mid)
    edits = [(a, b, first), (b, b, extra)]
    results = []
    for use_side in (False, True):
        llm.reset()
        llm.sync(head + mid + tail)
        prepared = None
        if use_side:
            llm.mirror()
            prepared = llm.prepare(edits)
            assert prepared is not None
        assert llm.replace(edits, prepared) == len(first) + len(extra) + 1
        assert llm.cached_tokens == head + first + extra + tail
        pos = llm.positions
        assert pos == list(range(len(pos)))  # the tail moved right by exactly the growth
        results.append(_logits(llm))
    assert abs(results[0] - results[1]).max() < 1e-4


@pytest.mark.slow
def test_sync_can_drop_a_block_and_reuse_what_follows(llm):
    """A new turn's prompt lacks the previous turn's memory block: the block's cells are
    dropped and the cells after it reused (moved left), instead of evaluated again."""
    system = llm.tokenize("System: you are a helpful assistant. ")
    block = llm.tokenize("Memories: - my dog is called Biscuit. - my sister lives in Lisbon. ")
    turn = llm.tokenize("User: tell me about dogs please. Assistant: Dogs are loyal friends "
                        "and love long walks in the park every morning. ")
    new = llm.tokenize("User: and cats? Assistant:")
    llm.reset()
    llm.sync(system + block + turn)
    target = system + turn + new
    assert llm.sync(target, skip=len(block)) == len(new)  # the turn's cells were kept
    assert llm.cached_tokens == target
    assert llm.positions == list(range(len(target)))  # moved left: no hole
    # without permission to drop, everything after the common prefix is evaluated again
    llm.reset()
    llm.sync(system + block + turn)
    assert llm.sync(target) == len(turn) + len(new)
    # a block longer than allowed is not dropped
    llm.reset()
    llm.sync(system + block + turn)
    assert llm.sync(target, skip=len(block) - 1) == len(turn) + len(new)


def test_plain_completion_after_holes_keeps_the_bookkeeping(llm):
    """llama-cpp-python's own completion (used by consolidation) evaluates at positions equal
    to indices: a cache with holes is dropped first, and chat turns work afterwards."""
    head = llm.tokenize("Memories: bees make honey. ")
    mid = llm.tokenize("an old and rather long memory line that will be replaced. ")
    tail = llm.tokenize("Question: what do bees make? Answer:")
    llm.reset()
    llm.sync(head + mid + tail)
    llm.replace([(len(head), len(head) + len(mid), llm.tokenize("short. "))])
    assert llm.positions != list(range(len(llm.positions)))  # a hole
    out = llm.complete("The capital of France is", max_tokens=4, temperature=0.0)
    assert out["choices"][0]["text"]
    assert llm.positions == list(range(len(llm.cached_tokens)))
    prompt = llm.tokenize("The capital of France is Paris. The capital of Italy is")
    llm.sync(prompt)
    assert llm.cached_tokens == prompt and llm.positions == list(range(len(prompt)))
    llm.push(_greedy_next(llm))


@pytest.mark.slow
def test_replaced_cells_equal_an_exact_evaluation(llm):
    """The inserted tokens attend exactly to what precedes them: truncating the context right
    after the insert must predict the same next token as evaluating it from scratch."""
    head = llm.tokenize("The capital of France is Paris. The capital of Italy is")
    tail = llm.tokenize(" something else entirely, written later.")
    insert = llm.tokenize(" Rome. The capital of Spain is")
    llm.reset()
    llm.sync(head + tail)
    llm.replace([(len(head), len(head), insert)])
    assert llm.sync(head + insert) == 1  # keep the replaced cells, drop the tail
    spliced = _greedy_next(llm)
    llm.reset()
    llm.sync(head + insert)
    exact = _greedy_next(llm)
    assert spliced == exact


@pytest.mark.slow
def test_prepared_lines_equal_lines_decoded_in_place(llm):
    """A line evaluated on the side context and copied in gives the same context as one
    decoded in the main context: the same cells, so the same next-token logits."""
    head = llm.tokenize("Notes: my dog Biscuit is a beagle. My sister lives in Lisbon. ")
    old = llm.tokenize("I once visited Oslo in winter. ")
    tail = llm.tokenize("Question: where does my sister live? Answer: She lives in")
    new = llm.tokenize("My sister Ana moved to Lisbon in 2019 and loves it there. ")
    edit = [(len(head), len(head) + len(old), new)]

    llm.reset()
    llm.sync(head + old + tail)
    assert llm.prepare(edit) is None  # the side context has not seen this context yet
    llm.mirror()
    prepared = llm.prepare(edit)
    assert prepared is not None and prepared.tokens == len(new)
    side_before = llm.side_evaluated_tokens
    before = llm.evaluated_tokens
    assert llm.replace(edit, prepared) == len(new) + 1
    assert llm.side_evaluated_tokens == side_before  # nothing more was computed
    assert llm.evaluated_tokens - before == len(new) + 1
    copied, copied_pos = _logits(llm), llm.positions

    llm.reset()
    llm.sync(head + old + tail)
    llm.replace(edit)
    decoded = _logits(llm)
    assert llm.positions == copied_pos
    assert int(copied.argmax()) == int(decoded.argmax())
    assert abs(copied - decoded).max() < 1e-4

    # a prepared edit for a context that has changed since is not used: decoded instead
    llm.reset()
    llm.sync(head + old + tail)
    llm.mirror()
    stale = llm.prepare(edit)
    llm.sync(head + old + tail[:-1])
    llm.push(tail[-1])
    other = llm.tokenize("Something else entirely. ")
    assert llm.replace([(len(head), len(head) + len(old), other)], stale) == len(other) + 1
    assert llm.cached_tokens == head + other + tail


def test_utf8_stream_never_splits_a_character():
    s = Utf8Stream()
    data = "naïve ☕ café".encode()
    pieces = [s.push(data[i : i + 1]) for i in range(len(data))]
    assert "".join(pieces) + s.flush() == "naïve ☕ café"
    assert all("\ufffd" not in p for p in pieces)


def test_a_model_without_a_chat_template_gets_its_familys_format():
    from hela_desktop.llm import _CHATML, default_template, make_formatter

    assert default_template("llama") == _CHATML and default_template(None) == _CHATML
    f = make_formatter(default_template("gemma3"))
    text = f(messages=[{"role": "system", "content": "Be brief."},
                       {"role": "user", "content": "Hi"},
                       {"role": "assistant", "content": "Hello!"},
                       {"role": "user", "content": "Bye"}]).prompt
    assert text == ("<bos><start_of_turn>user\nBe brief.\n\nHi<end_of_turn>\n"
                    "<start_of_turn>model\nHello!<end_of_turn>\n"
                    "<start_of_turn>user\nBye<end_of_turn>\n<start_of_turn>model\n")


def test_from_settings_takes_the_settings_and_overrides(tmp_path):
    from hela_desktop.config import Settings

    s = Settings()
    s.n_ctx = 512
    s.n_gpu_layers = 0
    s.model_path = str(tmp_path / "missing.gguf")
    with pytest.raises(ModelError, match="model file not found"):  # the settings' file
        LocalLLM.from_settings(s)
    small = LocalLLM.from_settings(s, model_path="", n_ctx=256)  # "" = the bundled model
    try:
        assert small.n_ctx == 256 and small.n_gpu_layers == 0
        assert small.path == bundled_model_path()
    finally:
        small.close()


def test_chat_tag_names_the_data_folder_and_the_chat(tmp_path):
    from hela_desktop.kvcache import chat_tag

    assert chat_tag(tmp_path / "a", 3) == ("chat", str(tmp_path / "a"), 3)
    assert chat_tag(tmp_path / "a", 3) != chat_tag(tmp_path / "b", 3)


def _sampled(model: LocalLLM, prompt: list[int], n: int, seed: int | None) -> list[int]:
    model.reset()
    model.sync(prompt)
    model.start_sampling(1.2, 1.0, seed=seed)
    out: list[int] = []
    try:
        for _ in range(n):
            out.append(model.sample())
            model.sync(prompt + out)
    finally:
        model.stop_sampling()
    return out


def test_each_answer_is_drawn_afresh_unless_a_seed_is_given(llm):
    """Regenerate gave the very same answer, word for word, every time (the QA pass of
    the seventeenth session): the sampler was rebuilt on the model's fixed seed for every
    answer.  Without a seed each answer now takes the next seed of a sequence; with one,
    the same seed gives the same words (the benchmarks' fixed seeds)."""
    prompt = llm.tokenize("Once upon a time, in a land far away, there lived a")
    first, again = _sampled(llm, prompt, 12, None), _sampled(llm, prompt, 12, None)
    third = _sampled(llm, prompt, 12, None)
    assert len({tuple(first), tuple(again), tuple(third)}) >= 2  # not one answer thrice
    assert _sampled(llm, prompt, 12, 5) == _sampled(llm, prompt, 12, 5)
