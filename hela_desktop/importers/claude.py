"""Claude data export (Settings ▸ Privacy ▸ Export data): the zip, or its
``conversations.json``.

A list of conversations (``uuid``, ``name``, ``created_at``, ``updated_at``) with their
``chat_messages`` (``uuid``, ``sender`` human/assistant, ``text`` and/or ``content``
blocks, ``created_at``, ``attachments``, ``files``).  When messages carry
``parent_message_uuid`` and the conversation names its ``current_leaf_message_uuid``, the
branch that ends there is followed (an edited question or a retried answer is a branch);
otherwise the messages are taken in order.  Text blocks are kept; so are the artifacts
Claude wrote (code, documents: a ``tool_use`` block named ``artifacts`` whose ``input``
carries ``command`` create / rewrite / update, ``id``, ``type``, ``title``, ``language``,
``content``, or ``old_str`` / ``new_str`` for an update), as Markdown in the answer (see
`Artifacts`), and the files it wrote with its newer file tools (since claude.ai's "create
files": ``create_file`` with ``path``, ``file_text``; ``str_replace`` with ``path``,
``old_str``, ``new_str``; and the text editor tool ``str_replace_based_edit_tool`` with its
``command`` create / str_replace / insert / undo_edit; see `file_call`) the same way;
thinking, other tool use (``view``, the editor's view, ``bash_tool``, ``present_files``, …)
and tool results are left out and counted; attachments are named in the memory's
provenance (their extracted text is not imported).
"""

from __future__ import annotations

import re
from typing import Any

from ..memfile.format import _Bad
from .base import Chat, ConversationList, Message, epoch, ident, need, text_of, tn

_ROLES = {"human": "user", "user": "user", "assistant": "assistant"}
# an artifact's fence language from its type when it names none (application/vnd.ant.code
# carries `language`)
_TYPE_LANGUAGE = {"text/markdown": "markdown", "text/html": "html", "image/svg+xml": "svg",
                  "application/vnd.ant.mermaid": "mermaid", "application/vnd.ant.react": "jsx",
                  "text/plain": "text"}
# a created file's fence language from its extension (others: the extension itself, when it
# is one word)
_EXTENSION_LANGUAGE = {"py": "python", "js": "javascript", "mjs": "javascript", "ts": "typescript",
                       "md": "markdown", "htm": "html", "sh": "bash", "yml": "yaml",
                       "rs": "rust", "rb": "ruby", "kt": "kotlin", "cs": "csharp", "txt": "text",
                       "h": "c", "hpp": "cpp", "cc": "cpp"}
# claude.ai's file tools, each as the artifacts command it is
_FILE_COMMANDS = {"create_file": "create", "str_replace": "update"}
# Claude's text editor tool (``str_replace_based_edit_tool``; ``str_replace_editor`` before
# Claude 4), one tool whose ``command`` says what it does, as the artifacts command it is
_EDITOR_TOOLS = ("str_replace_based_edit_tool", "str_replace_editor")
_EDITOR_COMMANDS = {"create": "create", "str_replace": "update", "insert": "insert",
                    "undo_edit": "undo", "view": "view"}
FILE_TOOLS = (*_FILE_COMMANDS, *_EDITOR_TOOLS)  # the tools whose files come into answers
_TICKS = re.compile(r"^[ \t]*(`{3,})", re.MULTILINE)
_UNSHOWN = str.maketrans("*`", "  ")  # a title is shown in bold: no emphasis or code of its own
_LANGUAGE = re.compile(r"[\w+#.-]{1,40}(?![^\s])")  # "python", "c++", "objective-c"
TITLE_MAX = 200  # characters of an artifact's title kept


def fenced(text: str, language: str = "") -> str:
    """`text` in a Markdown code fence longer than any fence inside it (an artifact that is
    itself Markdown with code blocks stays one block)."""
    longest = max((len(m.group(1)) for m in _TICKS.finditer(text)), default=2)
    fence = "`" * max(3, longest + 1)
    body = text.rstrip("\n")
    return f"{fence}{language}\n{body}\n{fence}"


class Artifacts:
    """The artifacts of one conversation as Claude left them after each message: a create or
    rewrite sets an artifact's content, an update replaces its `old_str` with `new_str` in
    the content it has so far (the first occurrence, as Claude does).  Each message's answer
    gets, where an artifact was first touched in it, the artifact as that message left it:
    its title in bold and its content in a code fence of its language.  An update whose old
    text is not found (its artifact was written on another branch, or changed since) is
    kept as a note with the new text; so is one past the conversation's budget, which keeps
    many small edits of a large artifact from copying it whole into every answer without
    bound (`AMPLIFY` times what the export wrote, plus `SPARE` characters)."""

    AMPLIFY, SPARE = 16, 4_000_000
    UNDO = 8  # earlier versions of an artifact kept for "undo" (the text editor's undo_edit)

    def __init__(self) -> None:
        self.content: dict[str, str] = {}
        self.earlier: dict[str, list[str | None]] = {}  # versions before, for undo
        self.title: dict[str, str] = {}
        self.language: dict[str, str] = {}
        self.written = 0  # characters of artifact text in the export (content, new_str)
        self.shown_chars = 0  # characters of artifacts put into answers

    def apply(self, inp: Any, key: str) -> tuple[str | None, str | None]:
        """Apply one ``artifacts`` tool call: (the id of the artifact it changed, or None;
        a note to show in its place, or None).  A "view" changes nothing."""
        if type(inp) is not dict:
            return None, None
        aid = text_of(inp.get("id")) or key
        self._describe(aid, inp)
        command = text_of(inp.get("command")) or "create"
        content, old, new = (text_of(inp.get(k)) for k in ("content", "old_str", "new_str"))
        if command in ("create", "rewrite") or (command == "update" and old is None):
            if content is None:
                return None, None
            self._set(aid, content)
            self.written += len(content)
            return aid, None
        if command == "undo":
            if not self.earlier.get(aid):
                return None, None
            was = self.earlier[aid].pop()
            if was is None:  # it was created by the edit undone
                self.content.pop(aid, None)
                return None, None
            self.content[aid] = was
            return self._within_budget(aid, was)
        if command not in ("update", "insert") or new is None:
            return None, None
        self.written += len(new)
        have = self.content.get(aid)
        changed = _inserted(have, inp.get("insert_line"), new) if command == "insert" else \
            have.replace(old, new, 1) if have is not None and old and old in have else None
        if changed is None:
            what = "an insertion whose place" if command == "insert" else "a change whose earlier text"
            return None, (f"**{self.name(aid)}** ({what} was not found; the new text):\n\n"
                          + fenced(new, self.language.get(aid, "")))
        self._set(aid, changed)
        return self._within_budget(aid, new)

    def _set(self, aid: str, content: str) -> None:
        """The artifact's content now; the one before kept for an undo."""
        earlier = self.earlier.setdefault(aid, [])
        earlier.append(self.content.get(aid))
        del earlier[:-self.UNDO]
        self.content[aid] = content

    def _within_budget(self, aid: str, new: str) -> tuple[str | None, str | None]:
        """The changed artifact shown whole while the conversation's budget allows; past
        it, a note with the new text."""
        if self.shown_chars + len(self.content[aid]) <= self.AMPLIFY * self.written + self.SPARE:
            return aid, None
        return None, f"**{self.name(aid)}** (changed; the new text):\n\n" + \
            fenced(new, self.language.get(aid, ""))

    def _describe(self, aid: str, inp: dict) -> None:
        title = " ".join((text_of(inp.get("title")) or "").translate(_UNSHOWN).split())
        if title:  # one line, no Markdown emphasis or code of its own (it is shown in bold)
            self.title[aid] = title[:TITLE_MAX]
        language = text_of(inp.get("language")) or \
            _TYPE_LANGUAGE.get(text_of(inp.get("type")) or "")
        m = _LANGUAGE.match((language or "").strip())
        if m and not self.language.get(aid):  # a fence's language: one word, nothing after
            self.language[aid] = m.group(0)

    def name(self, aid: str) -> str:
        return self.title.get(aid) or "Artifact"

    def shown(self, aid: str) -> str:
        """The artifact as Markdown: its title and its content."""
        content = self.content.get(aid, "")
        self.shown_chars += len(content)
        return f"**{self.name(aid)}**\n\n" + fenced(content, self.language.get(aid, ""))


def _inserted(text: str | None, line: Any, new: str) -> str | None:
    """`text` with `new` inserted after its line `line` (0: at the start), as the text
    editor's ``insert`` does; None when the text is unknown or has no such line."""
    if text is None or type(line) is not int or line < 0:
        return None
    lines = text.splitlines(keepends=True)
    if line > len(lines):
        return None
    head, tail = "".join(lines[:line]), "".join(lines[line:])
    if head and not head.endswith("\n"):
        head += "\n"
    return head + (new if new.endswith("\n") or not tail else new + "\n") + tail


def file_call(name: Any, inp: Any) -> Any:
    """A ``tool_use`` block's input as the ``artifacts`` tool's, for `Artifacts.apply`: a call
    of claude.ai's file tools is one on an artifact whose id is the file's path, whose title
    is the file's name and whose language comes from its extension (``create_file`` creates
    it with ``file_text``, ``str_replace`` updates it); so is one of the text editor tool
    (``str_replace_based_edit_tool``: its ``command`` ``create`` with ``file_text``,
    ``str_replace`` with ``old_str`` / ``new_str``, ``insert`` with ``insert_line`` and
    ``insert_text`` (``new_str`` in its first version), ``undo_edit``, ``view``); an
    ``artifacts`` call is as it is."""
    if type(name) is not str or type(inp) is not dict:
        return inp
    if name in _EDITOR_TOOLS:
        command = _EDITOR_COMMANDS.get(text_of(inp.get("command")) or "")
        if command is None:
            return None  # (a command it does not have: left out, counted)
    else:
        command = _FILE_COMMANDS.get(name)
        if command is None:
            return inp
    path = text_of(inp.get("path"))
    if not path:
        return None  # (a call without a file: left out, counted)
    title = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    ext = title.rsplit(".", 1)[-1].lower() if "." in title else ""
    new = inp.get("insert_text", inp.get("new_str")) if command == "insert" else inp.get("new_str")
    return {"command": command, "id": "file:" + path, "title": title,
            "language": _EXTENSION_LANGUAGE.get(ext, ext), "content": inp.get("file_text"),
            "old_str": inp.get("old_str"), "new_str": new, "insert_line": inp.get("insert_line")}


class ClaudeSource(ConversationList):
    kind = "claude"

    def chat(self, item: dict, where: str) -> Chat | None:
        raw = need(item, "chat_messages", list, where)
        cid = ident(item.get("uuid"), "")
        if not cid:
            raise _Bad("no conversation id ('uuid')", where)
        raw = self._branch(raw, item.get("current_leaf_message_uuid"), cid, where)
        msgs = []
        artifacts = Artifacts()  # an update in a later message changes an earlier one's
        for i, m in enumerate(raw, 1):
            msg = self._message(m, f"{where}, message {i}", f"{cid}:{i}", artifacts)
            if msg is not None:
                msgs.append(msg)
        return Chat(id=cid, title=text_of(item.get("name")) or "",
                    created=epoch(item.get("created_at")), updated=epoch(item.get("updated_at")),
                    messages=msgs)

    def _branch(self, raw: list, leaf: Any, cid: str, where: str) -> list:
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
        shown = {id(m) for m in path}
        for m in by_id.values():  # the user's messages on the branches not shown
            if id(m) not in shown and _ROLES.get(text_of(m.get("sender")) or "") == "user" \
                    and ident(m["uuid"], ""):
                self.left_branch(cid, ident(m["uuid"], ""))
        return path

    def _message(self, m: Any, w: str, fallback_id: str, artifacts: Artifacts) -> Message | None:
        if type(m) is not dict:
            raise _Bad(f"expected a message object, got {tn(m)}", w)
        role = _ROLES.get(text_of(m.get("sender")) or "")
        if role is None:
            self.skip("message of another sender")
            return None
        blocks = need(m, "content", list, w, optional=True)
        if blocks:
            texts = self._blocks(blocks, artifacts, w)
        else:
            texts = [m["text"]] if type(m.get("text")) is str else []
        files: list[str] = []
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

    def _blocks(self, blocks: list, artifacts: Artifacts, w: str) -> list[str]:
        """A message's text blocks, and the artifacts it wrote, in order (each artifact once,
        where the message first touched it, as the message left it)."""
        out: list[str | tuple[str]] = []
        for b in blocks:
            if type(b) is not dict:
                raise _Bad(f"field 'content': expected blocks, got {tn(b)}", w)
            kind = text_of(b.get("type")) or "unknown"
            if kind == "text" and type(b.get("text")) is str:
                out.append(b["text"])
            elif kind == "tool_use" and (b.get("name") == "artifacts" or
                                         b.get("name") in FILE_TOOLS):
                aid, note = artifacts.apply(file_call(b.get("name"), b.get("input")), "artifact")
                if note is not None:
                    out.append(note)
                elif aid is not None and (aid,) not in out:
                    out.append((aid,))
                elif aid is None:
                    self.skip("tool use")  # an artifact viewed, or a call without input
            else:
                self.skip({"thinking": "thinking", "tool_use": "tool use",
                           "tool_result": "tool result"}.get(kind, "non-text block"))
        return [p if isinstance(p, str) else artifacts.shown(p[0]) for p in out]
