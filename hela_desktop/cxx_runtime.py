"""One C++ runtime for the whole process: libstdc++ in the global symbol scope before torch
or llama.cpp is loaded (called by ``hela_desktop/__init__.py``, so first on every path in).

Seen on an H200 machine on 4 December 2026 (torch 2.11.0+cu130 from its wheels, llama.cpp
0.3.36 built there with CUDA 13.0 and without NCCL): llama.cpp alone answered on the GPU,
but any process that had also imported torch died (SIGSEGV) where llama.cpp sets up a
model's tokenizer, or at ``import torch`` when llama.cpp came first. With the system's
libstdc++ loaded globally first (as ``LD_PRELOAD`` would), the same build and torch shared
a process in either order, and a chat turn and ``bench speed`` passed on the GPU. The
likely cause: a library that torch loads globally carries C++ runtime symbols of its own
(the tokenizer's regular expressions use locale facets), and llama.cpp bound to those
rather than to libstdc++'s. ``doctor`` checks the two together (``llm.clash_with_torch``).
"""

from __future__ import annotations

import ctypes
import sys

LIBRARY = "libstdc++.so.6"


def share_cxx_runtime() -> str:
    """Load the C++ runtime globally (Linux only): its name, or '' where it was not loaded
    (another system, or none found: torch and llama.cpp then load their own as before)."""
    if not sys.platform.startswith("linux"):
        return ""
    try:
        ctypes.CDLL(LIBRARY, mode=ctypes.RTLD_GLOBAL)
    except OSError:
        return ""
    return LIBRARY
