"""Open WebUI chat export (Settings ▸ Chats ▸ Export chats, or a chat's ⋯ ▸ Download ▸
Export chat (.json)): a JSON list of chats.

Each entry has ``id``, ``title``, ``created_at``/``updated_at`` and a ``chat`` object whose
``history`` holds ``messages`` by id (``parentId``, ``childrenIds``, ``role``, ``content``,
``timestamp``, ``model``, ``files``) and ``currentId``, the last message of the branch
shown; that branch is followed.  Without ``history``, ``chat.messages`` is taken in order.
Reasoning (``<details type="reasoning">``) and tool-call blocks in answers are left out.
"""

from __future__ import annotations

import re
from typing import Any

from ..memfile.format import _Bad
from .base import Chat, ConversationList, Message, branch, epoch, ident, need, text_of, tn

_DETAILS = re.compile(r"<details\b[^>]*>.*?</details>\s*", re.DOTALL | re.IGNORECASE)


class OpenWebUISource(ConversationList):
    kind = "openwebui"
    noun = "chats"

    def chat(self, item: dict, where: str) -> Chat | None:
        chat = item.get("chat") if "chat" in item else item
        if type(chat) is not dict:
            raise _Bad(f"field 'chat': expected an object, got {tn(chat)}", where)
        cid = ident(item.get("id"), "") or ident(chat.get("id"), "")
        if not cid:
            raise _Bad("no chat id ('id')", where)
        history = need(chat, "history", dict, where, optional=True)
        if history is not None and type(history.get("messages")) is dict \
                and history["messages"]:
            raw = self._branch(history["messages"], history.get("currentId"), cid, where)
        else:
            raw = need(chat, "messages", list, where, optional=True) or []
        msgs = []
        for i, m in enumerate(raw, 1):
            msg = self._message(m, f"{where}, message {i}", f"{cid}:{i}")
            if msg is not None:
                msgs.append(msg)
        created = epoch(item.get("created_at")) or epoch(chat.get("timestamp"))
        return Chat(id=cid, title=text_of(item.get("title")) or text_of(chat.get("title")) or "",
                    created=created, updated=epoch(item.get("updated_at")), messages=msgs)

    def _branch(self, by_id: dict, current: Any, cid: str, where: str) -> list:
        if type(current) is not str or current not in by_id:
            # no current message: the newest leaf
            leaves = [m for m in by_id.values() if type(m) is dict and not m.get("childrenIds")]
            if not leaves:
                raise _Bad("field 'history': no current message and no last message", where)
            current = max(leaves, key=lambda m: epoch(m.get("timestamp")) or 0).get("id")
        path = branch(by_id, current, "parentId", where)
        self.skip("message on another branch", len(by_id) - len(path))
        shown = {id(m) for m in path}
        for key, m in by_id.items():  # the user's messages on the branches not shown
            if id(m) not in shown and type(m) is dict and m.get("role") == "user":
                self.left_branch(cid, ident(m.get("id"), str(key)))
        return path

    def _message(self, m: Any, w: str, fallback_id: str) -> Message | None:
        if type(m) is not dict:
            raise _Bad(f"expected a message object, got {tn(m)}", w)
        role = text_of(m.get("role"))
        if role not in ("user", "assistant"):
            self.skip(f"{role} message" if role == "system" else "message of another role")
            return None
        content = m.get("content")
        texts: list[str] = []
        if type(content) is str:
            texts.append(content)
        elif type(content) is list:  # OpenAI-style parts
            for p in content:
                if type(p) is dict and p.get("type") == "text" and type(p.get("text")) is str:
                    texts.append(p["text"])
                else:
                    self.skip("non-text part")
        elif content is not None:
            raise _Bad(f"field 'content': expected text, got {tn(content)}", w)
        text = "\n".join(texts)
        if role == "assistant" and "<details" in text:
            stripped = _DETAILS.sub("", text)
            if stripped != text:
                self.skip("reasoning or tool block")
                text = stripped
        names = [text_of(f.get("name")) for f in (need(m, "files", list, w, optional=True) or [])
                 if type(f) is dict]
        files = [f for f in names if f]
        text = self.text(text.strip())
        if not text and not files and role == "assistant":
            self.skip("empty message")
            return None
        return Message(role=role, text=text, at=epoch(m.get("timestamp")),
                       id=ident(m.get("id"), fallback_id), attachments=tuple(files),
                       model=text_of(m.get("model")))
