"""Claude data export (Settings ▸ Privacy ▸ Export data): the zip, or its
``conversations.json``.

A list of conversations (``uuid``, ``name``, ``created_at``, ``updated_at``) with their
``chat_messages`` (``uuid``, ``sender`` human/assistant, ``text`` and/or ``content``
blocks, ``created_at``, ``attachments``, ``files``).  When messages carry
``parent_message_uuid`` and the conversation names its ``current_leaf_message_uuid``, the
branch that ends there is followed (an edited question or a retried answer is a branch);
otherwise the messages are taken in order.  Text blocks are kept; thinking, tool use and
tool results are left out and counted; attachments are named in the memory's provenance
(their extracted text is not imported).
"""

from __future__ import annotations

from typing import Any

from ..memfile.format import _Bad
from .base import Chat, ConversationList, Message, epoch, ident, need, text_of, tn

_ROLES = {"human": "user", "user": "user", "assistant": "assistant"}


class ClaudeSource(ConversationList):
    kind = "claude"

    def chat(self, item: dict, where: str) -> Chat | None:
        raw = need(item, "chat_messages", list, where)
        cid = ident(item.get("uuid"), "")
        if not cid:
            raise _Bad("no conversation id ('uuid')", where)
        raw = self._branch(raw, item.get("current_leaf_message_uuid"), where)
        msgs = []
        for i, m in enumerate(raw, 1):
            msg = self._message(m, f"{where}, message {i}", f"{cid}:{i}")
            if msg is not None:
                msgs.append(msg)
        return Chat(id=cid, title=text_of(item.get("name")) or "",
                    created=epoch(item.get("created_at")), updated=epoch(item.get("updated_at")),
                    messages=msgs)

    def _branch(self, raw: list, leaf: Any, where: str) -> list:
        by_id = {m.get("uuid"): m for m in raw if type(m) is dict and type(m.get("uuid")) is str}
        if type(leaf) is not str or leaf not in by_id or \
                not any("parent_message_uuid" in m for m in by_id.values()):
            return raw
        path, seen, node = [], set(), by_id.get(leaf)
        while node is not None:
            u = node["uuid"]
            if u in seen:
                raise _Bad("the message tree has a cycle", where)
            seen.add(u)
            path.append(node)
            parent = node.get("parent_message_uuid")
            node = by_id.get(parent) if type(parent) is str else None
        path.reverse()
        self.skip("message on another branch", len(raw) - len(path))
        return path

    def _message(self, m: Any, w: str, fallback_id: str) -> Message | None:
        if type(m) is not dict:
            raise _Bad(f"expected a message object, got {tn(m)}", w)
        role = _ROLES.get(text_of(m.get("sender")) or "")
        if role is None:
            self.skip("message of another sender")
            return None
        texts: list[str] = []
        blocks = need(m, "content", list, w, optional=True)
        if blocks:
            for b in blocks:
                if type(b) is not dict:
                    raise _Bad(f"field 'content': expected blocks, got {tn(b)}", w)
                kind = text_of(b.get("type")) or "unknown"
                if kind == "text" and type(b.get("text")) is str:
                    texts.append(b["text"])
                else:
                    self.skip({"thinking": "thinking", "tool_use": "tool use",
                               "tool_result": "tool result"}.get(kind, "non-text block"))
        elif type(m.get("text")) is str:
            texts.append(m["text"])
        files = []
        for key in ("attachments", "files", "files_v2"):
            for a in need(m, key, list, w, optional=True) or []:
                if type(a) is dict:
                    name = text_of(a.get("file_name")) or text_of(a.get("file_uuid"))
                    if name and name not in files:
                        files.append(name)
        text = self.text("\n\n".join(t for t in texts if t.strip()))
        if not text.strip() and not files and role == "assistant":
            self.skip("empty message")
            return None
        return Message(role=role, text=text, at=epoch(m.get("created_at")),
                       id=ident(m.get("uuid"), fallback_id), attachments=tuple(files))
