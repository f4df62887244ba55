"""Syntax colours for code blocks in answers (Pygments), as character spans for the chat
view and as HTML for the clipboard."""

from __future__ import annotations

import html


def _lexer(code: str, lang: str):
    from pygments.lexers import TextLexer, get_lexer_by_name, guess_lexer
    from pygments.util import ClassNotFound

    keep = {"stripnl": False, "ensurenl": False}  # character positions must not move
    try:
        return get_lexer_by_name(lang.split()[0], **keep) if lang.strip() else guess_lexer(code, **keep)
    except (ClassNotFound, IndexError):
        return TextLexer(**keep)


def _style(dark: bool):
    from pygments.styles import get_style_by_name

    return get_style_by_name("monokai" if dark else "default")


def code_spans(code: str, lang: str = "", *, dark: bool = False) -> list[tuple[int, int, str, bool]]:
    """(start, end, colour "#rrggbb", bold) for each coloured run of `code`."""
    try:
        lexer = _lexer(code, lang)
        style = _style(dark)
    except ImportError:  # pragma: no cover - pygments ships with the app's dependencies
        return []
    out, pos = [], 0
    for ttype, value in lexer.get_tokens(code):
        end = pos + len(value)
        st = style.style_for_token(ttype)
        if st.get("color") and value.strip():
            out.append((pos, min(end, len(code)), "#" + st["color"], bool(st.get("bold"))))
        pos = end
    return out


def code_html(code: str, lang: str = "", *, dark: bool = False) -> str:
    """`code` as a coloured <pre> block (inline styles), for pasting into rich editors."""
    parts, pos = [], 0
    for a, b, colour, bold in code_spans(code, lang, dark=dark):
        parts.append(html.escape(code[pos:a]))
        text = html.escape(code[a:b])
        parts.append(f"<span style='color:{colour}{';font-weight:bold' if bold else ''}'>{text}</span>")
        pos = b
    parts.append(html.escape(code[pos:]))
    return "<pre style='font-family:monospace'>" + "".join(parts) + "</pre>"
