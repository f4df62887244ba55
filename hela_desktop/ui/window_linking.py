"""Linking the chat, the timeline and the graph: hovering a token of an answer lights up
the memories that were active when it was written, everywhere at once."""

from __future__ import annotations

import html

from . import window_status as ws
from .theme import memory_color
from .window_base import WindowBase


class TokenLinks:
    """Hover and click on chat tokens and timeline columns, for one window."""

    def __init__(self, window: WindowBase):
        self.w = window

    def _spans_for_key(self, key: int):
        if key == self.w.timeline.message_key:
            return None  # the timeline has them (live too)
        m = self.w.chat.view.msgs.get(key)
        return m["spans"] if m else []

    def active_for(self, key: int, tok: int) -> list[int]:
        """The memories active when token `tok` of the message `key` was written."""
        if key == self.w.timeline.message_key:
            return self.w.timeline.active_at(tok)
        for a, b, ids in self._spans_for_key(key) or []:
            if a <= tok < b:
                return list(ids)
        return []

    def token_tooltip(self, key: int, tok: int) -> str:
        ids = self.active_for(key, tok)
        if not ids:
            return f"<b>token {tok}</b><br><i>no memories were active</i>"
        rows = "".join(f"<br><span style='color:{memory_color(i).name()}'>●</span> #{i} "
                       f"{html.escape(self.w.graph.label_of(i))}" for i in ids)
        return f"<b>token {tok}</b> — written with {len(ids)} memor{'y' if len(ids) == 1 else 'ies'}:{rows}"

    def show_message_timeline(self, key: int) -> None:
        tl = self.w.timeline
        if key == tl.message_key:
            return
        m = self.w.chat.view.msgs.get(key)
        if m is None:
            return
        title = ws.answer_title(self.w.chat.view, key) if m.get("message_id") else "Answer"
        tl.set_answer(m["spans"], m.get("n_tokens", 0), title, key=key)

    def chat_token_hovered(self, key: int, tok: int) -> None:
        w = self.w
        if key < 0:
            w.timeline.set_external_token(-1)
            w.graph.highlight([])
            w.timeline.set_highlight_ids([])
            return
        if not w.is_streaming():
            self.show_message_timeline(key)
        ids = self.active_for(key, tok)
        if key == w.timeline.message_key:
            w.timeline.set_external_token(tok)
        w.timeline.set_highlight_ids(ids)
        w.graph.highlight(ids)

    def chat_token_clicked(self, key: int, tok: int) -> None:
        ids = self.active_for(key, tok)
        if ids:
            self.w.show_right(0)
            self.w.graph.select(ids[0], center=True)

    def timeline_token_hovered(self, tok: int) -> None:
        w = self.w
        key = w.timeline.message_key
        if tok < 0 or key is None:
            w.chat.view.highlight_token(-1, -1)
            w.graph.highlight([])
            w.timeline.set_highlight_ids([])
            return
        w.chat.view.highlight_token(key, tok)
        ids = w.timeline.active_at(tok)
        w.graph.highlight(ids)
        w.timeline.set_highlight_ids(ids)

    def timeline_token_clicked(self, tok: int) -> None:
        key = self.w.timeline.message_key
        if key is not None:
            self.w.chat.view.highlight_token(key, tok, ensure_visible=True)
