"""Counts in words, for every message a person reads (Qt-free): "1 memory", "2 memories"."""

from __future__ import annotations


def count(n: int, one: str, many: str | None = None) -> str:
    """`n` and its noun, singular for exactly one: ``count(1, "chat")`` is "1 chat",
    ``count(3, "memory", "memories")`` is "3 memories" (default plural: `one` + "s")."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def memory_ref(text: str | None) -> int | None:
    """The memory id a search names as the app writes it ("#12", or "12" after "#" with
    spaces around), else None: ``memory_ref(" #12 ")`` is 12, ``memory_ref("12")`` None."""
    t = (text or "").strip()
    digits = t[1:].strip()
    if not t.startswith("#") or not digits.isascii() or not digits.isdecimal() or len(digits) > 18:
        return None  # 19 digits could pass SQLite's integers
    return int(digits)
