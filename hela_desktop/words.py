"""Counts in words, for every message a person reads (Qt-free): "1 memory", "2 memories"."""

from __future__ import annotations


def count(n: int, one: str, many: str | None = None) -> str:
    """`n` and its noun, singular for exactly one: ``count(1, "chat")`` is "1 chat",
    ``count(3, "memory", "memories")`` is "3 memories" (default plural: `one` + "s")."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
