"""HeLa Desktop: a private, offline assistant with a live Hebbian associative memory."""

__version__ = "0.20.0"
