"""ChatGPT data export (Settings ▸ Data controls ▸ Export data): the zip, or its
``conversations.json``.

Each conversation holds a ``mapping`` tree of message nodes (``parent``, ``children``,
``message``); editing a question or regenerating an answer makes a branch, and
``current_node`` is the last message of the branch the user saw last.  That branch is
followed from ``current_node`` up to the root.  Left out, and counted: system messages
(including custom instructions), tool messages and the assistant's calls to tools
(``recipient`` other than ``all``), messages hidden from the conversation, reasoning,
browsing and code-output blocks, and non-text parts (images and files become an
``[attached: …]`` note when the user wrote nothing else).
"""

from __future__ import annotations

from typing import Any

from ..memfile.format import _Bad
from .base import Chat, ConversationList, Message, branch, epoch, ident, need, text_of, tn

# content types whose text is what the person saw
_TEXT_TYPES = {"text", "multimodal_text"}
_SKIP_TYPES = {
    "thoughts": "reasoning", "reasoning_recap": "reasoning",
    "user_editable_context": "custom instructions", "model_editable_context": "memory note",
    "tether_browsing_display": "browsing result", "tether_quote": "quoted web page",
    "execution_output": "code output", "system_error": "error message",
    "sonic_webpage": "web page",
}


def _part_name(part: dict) -> str:
    ct = text_of(part.get("content_type")) or "file"
    if "image" in ct:
        return "image"
    if "audio" in ct:
        return "audio"
    return ct.replace("_", " ")


class ChatGPTSource(ConversationList):
    kind = "chatgpt"

    def chat(self, item: dict, where: str) -> Chat | None:
        mapping = need(item, "mapping", dict, where)
        cid = ident(item.get("conversation_id") or item.get("id"), "")
        if not cid:
            raise _Bad("no conversation id ('id' or 'conversation_id')", where)
        path = self._branch(mapping, item.get("current_node"), where)
        self.skip("message on another branch", sum(
            1 for k, n in mapping.items() if type(n) is dict and n.get("message") is not None)
            - sum(1 for k in path if mapping[k].get("message") is not None))
        self._off_branch(cid, mapping, set(path))
        msgs = []
        for node_id in path:
            m = self._message(mapping[node_id], node_id, where)
            if m is not None:
                msgs.append(m)
        return Chat(id=cid, title=text_of(item.get("title")) or "",
                    created=epoch(item.get("create_time")), updated=epoch(item.get("update_time")),
                    messages=msgs)

    def _off_branch(self, cid: str, mapping: dict, shown: set[str]) -> None:
        """The user's messages on the branches not shown (`HistorySource.left_branch`)."""
        for key, n in mapping.items():
            msg = n.get("message") if type(n) is dict and key not in shown else None
            if type(msg) is not dict:
                continue
            author = msg.get("author")
            if type(author) is dict and author.get("role") == "user":
                self.left_branch(cid, ident(msg.get("id"), key))

    def _branch(self, mapping: dict, current: Any, where: str) -> list[str]:
        """Node ids from the root to `current` (the branch shown last)."""
        if not mapping:
            return []
        if type(current) is not str or current not in mapping:
            if current is not None:
                raise _Bad(f"field 'current_node': {str(current)[:40]!r} is not in the "
                           "mapping", where)
            current = self._last_leaf(mapping, where)
        ids = {id(node): key for key, node in mapping.items()}
        return [ids[id(node)] for node in branch(mapping, current, "parent", where)]

    def _last_leaf(self, mapping: dict, where: str) -> str:
        """Without ``current_node``: from the root, always the newest child."""
        roots = [k for k, n in mapping.items() if type(n) is dict and n.get("parent") is None]
        if len(roots) != 1:
            raise _Bad("no 'current_node' and no single root message", where)
        node_id, seen = roots[0], set()
        while True:
            seen.add(node_id)
            kids = mapping[node_id].get("children")
            kids = [k for k in kids if type(k) is str and type(mapping.get(k)) is dict
                    and k not in seen] if type(kids) is list else []
            if not kids:
                return node_id
            node_id = kids[-1]

    def _content(self, content: dict, ct: str, w: str) -> tuple[list[str], list[str]] | None:
        """(texts, file names) of a message's content; None (counted) for a kind of content
        that is not kept."""
        texts: list[str] = []
        files: list[str] = []
        if ct in _TEXT_TYPES:
            parts = need(content, "parts", list, w, optional=True) or []
            for part in parts:
                if type(part) is str:
                    texts.append(part)
                elif type(part) is dict:
                    self.skip("non-text part")
                    files.append(_part_name(part))
                elif part is not None:
                    raise _Bad(f"field 'parts': expected text or an object, got {tn(part)}", w)
        elif ct == "code" and type(content.get("text")) is str:
            texts.append(content["text"])
        else:
            self.skip(f"{ct or 'unknown'} content")
            return None
        return texts, files

    def _message(self, node: dict, node_id: str, where: str) -> Message | None:
        msg = node.get("message")
        if msg is None:
            return None
        w = f"{where}, message {node_id[:40]!r}"
        if type(msg) is not dict:
            raise _Bad(f"field 'message': expected an object, got {tn(msg)}", w)
        author = need(msg, "author", dict, w)
        role = text_of(author.get("role"))
        raw_meta = msg.get("metadata")
        meta: dict = raw_meta if type(raw_meta) is dict else {}
        if role in ("system", "tool"):
            self.skip(f"{role} message")
            return None
        if role not in ("user", "assistant"):
            self.skip("message of another author")
            return None
        content = need(msg, "content", dict, w)
        ct = text_of(content.get("content_type")) or ""
        if ct in _SKIP_TYPES:
            self.skip(_SKIP_TYPES[ct])
            return None
        if meta.get("is_visually_hidden_from_conversation") or meta.get("is_user_system_message"):
            self.skip("hidden message")
            return None
        recipient = msg.get("recipient")
        if recipient not in (None, "all"):
            self.skip("call to a tool")
            return None
        got = self._content(content, ct, w)
        if got is None:
            return None
        texts, files = got
        atts = meta.get("attachments")
        if type(atts) is list:
            names = [text_of(a.get("name")) for a in atts if type(a) is dict]
            named = [n for n in names if n]
            if named:
                files = named
        text = self.text("\n".join(t for t in texts if t.strip()))
        if not text.strip() and not files and role == "assistant":
            self.skip("empty message")
            return None
        return Message(role=role, text=text, at=epoch(msg.get("create_time")),
                       id=ident(msg.get("id"), node_id), attachments=tuple(files),
                       model=text_of(meta.get("model_slug")))
