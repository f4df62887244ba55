"""HeLa Desktop: a private, offline assistant with a live Hebbian associative memory."""

__version__ = "0.21.0"
