"""HeLa Desktop: a private, offline assistant with a live Hebbian associative memory."""

from .cxx_runtime import share_cxx_runtime

__version__ = "0.47.0"

# before anything here loads torch or llama.cpp (see cxx_runtime): with CUDA, the two crash
# in one process without it
share_cxx_runtime()
