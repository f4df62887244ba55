"""The main window: chats | conversation | graph, memories and timeline.

A view over the assistant: it sends requests to the assistant thread and redraws on the
events that come back.  Token events are buffered and applied every 30 ms, so a fast
model never floods the GUI thread.
"""

from __future__ import annotations

import html
import time
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from ..config import Settings
from ..events import DoneEvent, MemoriesEvent, MemoryUpdateEvent, TokenEvent
from ..store import Store, StoreError
from .chat import ChatPane, ConversationList
from .explain import reflection_sentence
from .graph_model import snapshot_from_store
from .graph_view import GraphView
from .memory_browser import MemoryBrowser
from .settings_dialog import SettingsDialog, model_changed
from .theme import apply_theme, graph_colors, memory_color, system_is_dark
from .timeline import TimelineView
from .worker import GRAPH_LIMIT, AssistantClient

FLUSH_MS = 30
GLOW_AFTER_ANSWER_S = 2.0  # active memories keep glowing briefly after the answer


def icon_path() -> Path | None:
    """The app icon (resources/hela-desktop.png or .svg), if present."""
    import sys

    bases = [Path(__file__).resolve().parents[2] / "resources"]
    try:  # an installed wheel: resources/ ships as the data package hela_desktop.resources
        import importlib.util

        spec = importlib.util.find_spec("hela_desktop.resources")
        if spec is not None and spec.submodule_search_locations:
            bases += [Path(p) for p in spec.submodule_search_locations]
    except (ImportError, ValueError):
        pass
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:  # PyInstaller bundle
        bases.insert(0, Path(frozen) / "resources")
    for base in bases:
        for name in ("hela-desktop.svg", "hela-desktop.png"):
            if (base / name).exists():
                return base / name
    return None


class MainWindow(QtWidgets.QMainWindow):
    """Chat pane, memory graph, memory browser and timeline around one assistant thread."""

    dataDirChanged = QtCore.Signal(str)

    def __init__(self, data_dir: Path, settings: Settings | None = None, *,
                 load_model: bool = True, autoload: bool = True,
                 assistant_kwargs: dict | None = None, idle_scheduler: bool = True):
        super().__init__()
        self.assistant_kwargs = assistant_kwargs
        self.idle_scheduler = idle_scheduler
        self.data_dir = Path(data_dir)
        self.settings = settings or Settings.load(self.data_dir)
        self.load_model = load_model
        self.setWindowTitle("HeLa Desktop")
        ip = icon_path()
        if ip is not None:
            self.setWindowIcon(QtGui.QIcon(str(ip)))
        self.resize(1480, 900)
        self.read_store: Store | None = None
        self.client: AssistantClient | None = None
        self.current_conv: int | None = None
        self.model_ready = False
        self.model_error: str | None = None
        self.embedder_ready = False
        self.live_key: int | None = None
        self._pending: list = []
        self._recalls: dict[int, dict] = {}
        self._offsets: dict[int, list] = {}
        self._last_done: DoneEvent | None = None
        self._closing = False
        self.turns = 0

        self._build_widgets()
        self._build_menus()
        self._build_status()
        self._flush_timer = QtCore.QTimer(self)
        self._flush_timer.setInterval(FLUSH_MS)
        self._flush_timer.timeout.connect(self._flush)
        self._glow_timer = QtCore.QTimer(self, singleShot=True)
        self._glow_timer.timeout.connect(lambda: None if self.is_streaming() else self.graph.clear_active())
        self._reflect_timer = QtCore.QTimer(self, interval=1000)
        self._reflect_timer.timeout.connect(self._poll_reflecting)
        self._reflect_timer.start()
        self._rerender_timer = QtCore.QTimer(self, singleShot=True, interval=150)
        self._rerender_timer.timeout.connect(self._rerender_conversation)
        hints = QtGui.QGuiApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(self._on_scheme_changed)
        ui = QtCore.QSettings()
        self.appearance = str(ui.value("appearance", "system"))
        self.theme_actions.get(self.appearance, self.theme_actions["system"]).setChecked(True)
        if self.appearance != "system":
            self.set_appearance(self.appearance)
        self._base_pt = self.chat.view.font().pointSizeF()
        self.zoom_chat(0, steps=int(ui.value("chat/zoom", 0) or 0))
        self._open_data_dir(self.data_dir, autoload=autoload)

    # ---- construction ---------------------------------------------------------------
    def _build_widgets(self) -> None:
        colors = graph_colors()
        self.conversations = ConversationList()
        self.conversations.newRequested.connect(self.new_chat)
        self.conversations.selected.connect(self._on_conversation_selected)
        self.conversations.renameRequested.connect(lambda cid, t: self._op("rename_conv", (cid, t)))
        self.conversations.deleteRequested.connect(self._delete_conversation)
        self.chat = ChatPane()
        self.chat.sendRequested.connect(self.send)
        self.chat.stopRequested.connect(self.stop)
        self.chat.view.tokenHovered.connect(self._on_chat_token_hovered)
        self.chat.view.tokenClicked.connect(self._on_chat_token_clicked)
        self.chat.view.tooltip_for = self._token_tooltip
        self.chat.view.regenerateRequested.connect(self.regenerate)
        self.chat.view.editRequested.connect(self._ask_edit_and_resend)
        self.chat.input.textChanged.connect(self._touch)
        self.graph = GraphView(colors=colors)
        self.graph.nodeSelected.connect(self._on_node_selected)
        self.graph.knowledgeAction.connect(self._on_knowledge_action)
        self.browser = MemoryBrowser()
        self.browser.op.connect(self._op)
        self.browser.memorySelected.connect(self._on_browser_selected)
        undo = QtGui.QShortcut(QtGui.QKeySequence.StandardKey.Undo, self.browser)
        undo.setContext(QtCore.Qt.ShortcutContext.WidgetWithChildrenShortcut)
        undo.activated.connect(self.browser.undo_delete)
        delete = QtGui.QShortcut(QtGui.QKeySequence(QtCore.Qt.Key.Key_Delete), self.browser.table)
        delete.setContext(QtCore.Qt.ShortcutContext.WidgetShortcut)
        delete.activated.connect(self.browser.delete_selected)
        self.timeline = TimelineView(colors=colors)
        self.timeline.label_of = self.graph.label_of
        self.timeline.tokenHovered.connect(self._on_timeline_token_hovered)
        self.timeline.tokenClicked.connect(self._on_timeline_token_clicked)
        self.timeline.memoryClicked.connect(lambda i: (self.right_tabs.setCurrentIndex(0),
                                                       self.graph.select(i, center=True)))

        self.right_tabs = QtWidgets.QTabWidget()
        self.right_tabs.addTab(self.graph, "Memory graph")
        self.right_tabs.addTab(self.browser, "Memories")
        self.right_tabs.currentChanged.connect(self._on_right_tab)
        right = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        right.addWidget(self.right_tabs)
        right.addWidget(self.timeline)
        right.setStretchFactor(0, 4)
        right.setStretchFactor(1, 1)
        right.setSizes([640, 200])
        self.main_split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        self.main_split.addWidget(self.conversations)
        self.main_split.addWidget(self.chat)
        self.main_split.addWidget(right)
        self.main_split.setStretchFactor(0, 0)
        self.main_split.setStretchFactor(1, 2)
        self.main_split.setStretchFactor(2, 3)
        self.main_split.setSizes([190, 540, 750])
        self.setCentralWidget(self.main_split)

    def _action(self, menu: QtWidgets.QMenu, text: str, slot, shortcut=None, tip: str = "") -> QtGui.QAction:
        act = QtGui.QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QtGui.QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
        act.triggered.connect(slot)
        menu.addAction(act)
        return act

    def _build_menus(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu("&File")
        self.act_new = self._action(f, "&New chat", self.new_chat, "Ctrl+N")
        f.addSeparator()
        self.act_export = self._action(f, "&Export memories…", self.export_memories, None,
                                       "Write memories to a .hela file (or Markdown)")
        self.act_import = self._action(f, "&Import memories…", self.import_memories, None,
                                       "Read memories from a .hela, JSON or text file, or a "
                                       "ChatGPT, Claude, Open WebUI or Jan export")
        self.act_import_folder = self._action(
            f, "Import &folder…", self.import_folder, None,
            "Read a folder of Markdown notes (an Obsidian vault) or Jan threads")
        self.act_export_chat = self._action(f, "Export &chat as Markdown…", self.export_chat, None,
                                            "Write the open chat to a Markdown file")
        f.addSeparator()
        self.act_settings = self._action(f, "&Settings…", self.open_settings, "Ctrl+,")
        self.act_settings.setMenuRole(QtGui.QAction.MenuRole.PreferencesRole)
        f.addSeparator()
        self.act_quit = self._action(f, "&Quit", self.close, "Ctrl+Q")
        self.act_quit.setMenuRole(QtGui.QAction.MenuRole.QuitRole)
        e = mb.addMenu("&Edit")
        self.act_find = self._action(e, "&Search memories", self.search_memories, "Ctrl+F")
        self._action(e, "Find in &graph", self.find_in_graph, "Ctrl+G")
        self._action(e, "&Undo delete memory", self.browser.undo_delete)
        e.addSeparator()
        self.act_reflect = self._action(e, "&Reflect now (consolidate and forget)", self.consolidate_now, None,
                                        "Distil knowledge from busy memory hubs and archive stale, isolated memories")
        c = mb.addMenu("&Chat")
        self.act_send = self._action(c, "&Send", lambda: self.chat._submit(self.chat.input.toPlainText().strip()))
        self.act_stop = self._action(c, "S&top answer", self.stop, "Esc")
        self.act_stop.setEnabled(False)
        c.addSeparator()
        self.act_regenerate = self._action(c, "&Regenerate answer", self.regenerate, "Ctrl+R",
                                           "Answer the last message again (the old answer goes)")
        self.act_copy_answer = self._action(c, "&Copy last answer", self.copy_last_answer, "Ctrl+Shift+C")
        v = mb.addMenu("&View")
        self.act_focus = self._action(v, "&Focus on active neighbourhood",
                                      lambda on: self.graph.set_focus_mode(on), "Ctrl+Shift+F")
        self.act_focus.setCheckable(True)
        self.graph.focus_box.toggled.connect(self.act_focus.setChecked)
        self._action(v, "&Fit graph", lambda: self.graph.fit(), "Ctrl+0")
        self._action(v, "Memory &graph", lambda: self.right_tabs.setCurrentIndex(0), "Ctrl+1")
        self._action(v, "&Memories", lambda: self.right_tabs.setCurrentIndex(1), "Ctrl+2")
        v.addSeparator()
        self.act_zoom_in = self._action(v, "Zoom &in", lambda: self.zoom_chat(1), QtGui.QKeySequence.StandardKey.ZoomIn)
        self.act_zoom_in.setShortcuts([QtGui.QKeySequence("Ctrl++"), QtGui.QKeySequence("Ctrl+=")])
        self.act_zoom_out = self._action(v, "Zoom &out", lambda: self.zoom_chat(-1), "Ctrl+-")
        self._action(v, "&Normal size", lambda: self.zoom_chat(0))
        look = v.addMenu("&Appearance")
        self.theme_actions = {}
        group = QtGui.QActionGroup(self)
        for key, label in (("system", "Follow the &system"), ("light", "&Light"), ("dark", "&Dark")):
            act = self._action(look, label, lambda _on=False, k=key: self.set_appearance(k))
            act.setCheckable(True)
            group.addAction(act)
            self.theme_actions[key] = act
        h = mb.addMenu("&Help")
        self._action(h, "&About HeLa Desktop", self.about)

    def _build_status(self) -> None:
        sb = self.statusBar()
        self.status_model = QtWidgets.QLabel("Model: —")
        self.status_device = QtWidgets.QLabel("—")
        self.status_memories = QtWidgets.QLabel("0 memories")
        self.status_busy = QtWidgets.QProgressBar()
        self.status_busy.setRange(0, 0)
        self.status_busy.setMaximumWidth(120)
        self.status_busy.setTextVisible(False)
        self.status_busy.hide()
        self.status_busy_label = QtWidgets.QLabel("")
        sb.addPermanentWidget(self.status_busy_label)
        sb.addPermanentWidget(self.status_busy)
        sb.addPermanentWidget(self.status_memories)
        sb.addPermanentWidget(self.status_device)
        sb.addPermanentWidget(self.status_model)

    # ---- data folder and assistant thread ----------------------------------------------
    def _open_data_dir(self, data_dir: Path, *, autoload: bool = True) -> None:
        self.data_dir = Path(data_dir)
        # nothing shown may outlive the folder it came from (ids repeat across folders)
        self.graph.reset()
        self.browser.reset()
        self.timeline.set_highlight_ids([])
        self._recalls.clear()
        self._offsets.clear()
        try:
            self.read_store = Store(self.data_dir)
        except StoreError as exc:
            self.read_store = None
            self._message("warning", "Cannot open the memory file", str(exc))
        self.browser.set_store(self.read_store)
        client = AssistantClient(self.data_dir, self.settings, self,
                                 assistant_kwargs=self.assistant_kwargs,
                                 idle_scheduler=self.idle_scheduler)
        w = client.worker
        w.opened.connect(self._on_model_info)
        w.loadProgress.connect(self._on_load_progress)
        w.loaded.connect(self._on_loaded)
        w.loadFailed.connect(self._on_load_failed)
        w.embedderReady.connect(self._on_embedder_ready)
        w.event.connect(self._on_event)
        w.turnFailed.connect(self._on_turn_failed)
        w.snapshot.connect(self._on_snapshot)
        w.opDone.connect(self._on_op_done)
        w.opFailed.connect(self._on_op_failed)
        w.progress.connect(self._on_progress)
        w.progressNote.connect(self._on_progress_note)
        w.tokenOffsets.connect(self._on_token_offsets)
        w.idleReport.connect(self._on_idle_report)
        w.turnStatus.connect(self._on_turn_status)
        self.client = client
        self.model_ready = False
        self.embedder_ready = False
        self.browser.semantic_search = self.graph.semantic_search = None
        self.browser.set_search_results("", None)
        self.graph.set_search_results("", None)
        self.current_conv = None
        self.refresh_conversations()
        self.chat.view.show_empty()
        self.chat.set_title("New chat")
        self.timeline.clear()
        self._reopen_last_chat()
        if self.read_store is not None:  # the graph right away, before the engine loads
            self.graph.set_snapshot(snapshot_from_store(self.read_store, limit=GRAPH_LIMIT, lam=self.settings.hela.lam),
                                    animate=False)
        self._update_memory_count()
        client.requestOpen.emit()
        if autoload:
            client.requestLoad.emit(self.load_model)

    def _close_assistant(self) -> None:
        if self.client is not None:
            self.client.shutdown()
            self.client.deleteLater()
            self.client = None
        self.browser.set_store(None)
        if self.read_store is not None:
            self.read_store.close()
            self.read_store = None

    def is_streaming(self) -> bool:
        return self.client is not None and self.client.streaming

    # ---- chat -----------------------------------------------------------------------
    def send(self, text: str) -> None:
        """Send a message; the answer streams into the chat, timeline and graph."""
        text = text.strip()
        if not text or self.is_streaming() or self.client is None:
            return
        if self.model_error and not self.model_ready:
            self._message("warning", "No language model",
                          f"HeLa cannot answer yet: {self.model_error}\n\n"
                          "Choose a model in Settings (Ctrl+,). You can still browse your memories.")
            self.chat.input.setPlainText(text)
            return
        self.chat.view.add_user(text)
        self.live_key = self.chat.view.begin_assistant()
        self.timeline.begin_live([], key=self.live_key)
        self._recalls = {}
        self._set_streaming(True)
        self._sent_text = text
        if not self.model_ready:
            self.statusBar().showMessage("Waiting for the model to finish loading…")
            self.chat.view.set_live_status("Loading the language model…")
        else:
            self.chat.view.set_live_status("Starting…")
        self.client.chat(text, self.current_conv)

    def stop(self) -> None:
        """Stop the answer being written (Esc); the partial answer is kept.  An answer that
        has not begun is dropped at once and the message goes back into the input box."""
        if not self.is_streaming():
            return
        if self.client.stop():
            self._pending.clear()
            self.chat.view.discard_live(with_user=True)
            if not self.chat.input.toPlainText().strip():
                self.chat.input.setPlainText(getattr(self, "_sent_text", ""))
            self.timeline.clear()
            self._set_streaming(False)
            self.graph.clear_active()
            self.statusBar().showMessage("Stopped before sending — your message is back in the box.", 6000)
        else:
            self.statusBar().showMessage("Stopping…", 2000)

    def _on_turn_status(self, phase: str, done: int, total: int) -> None:
        """Before the first token: say what is happening, with progress where known."""
        if not self.is_streaming():
            return
        if phase == "recalling":
            text = "Recalling memories…"
        elif phase == "reading" and total and done < total:
            text = f"Reading your message and memories ({total} tokens)… {100 * done // total} %"
        else:
            text = "Starting the answer…"
        self.chat.view.set_live_status(text)

    def _set_streaming(self, on: bool) -> None:
        self.chat.set_streaming(on)
        self.act_stop.setEnabled(on)
        self.conversations.setEnabled(not on)  # switching chats mid-answer would be confusing
        self.act_new.setEnabled(not on)
        if on:
            self._flush_timer.start()
        else:
            self._flush()
            self._flush_timer.stop()

    @QtCore.Slot(object)
    def _on_event(self, ev) -> None:
        self._pending.append(ev)
        if isinstance(ev, DoneEvent | MemoriesEvent):
            self._flush()

    def _flush(self) -> None:
        """Apply buffered events: tokens in one batch per kind of change."""
        if not self._pending:
            return
        events, self._pending = self._pending, []
        pieces: list[tuple[int, str]] = []
        view = self.chat.view

        def push_tokens():
            if pieces:
                view.append_tokens(pieces)
                self.timeline.live_token(pieces[-1][0])
                pieces.clear()

        for ev in events:
            if isinstance(ev, TokenEvent):
                pieces.append((ev.index, ev.text))
            elif isinstance(ev, MemoriesEvent):
                push_tokens()
                ids = [m.episode_id for m in ev.memories]
                self._recalls.update({m.episode_id: m.to_dict() for m in ev.memories})
                self.graph.set_active(ids, {m.episode_id: m.to_dict() for m in ev.memories})
                self.timeline.begin_live(ids, key=self.live_key)
                self.statusBar().showMessage(
                    f"Recalled {len(ids)} memor{'y' if len(ids) == 1 else 'ies'} in {ev.retrieve_ms:.0f} ms")
            elif isinstance(ev, MemoryUpdateEvent):
                push_tokens()
                self._recalls.update({m.episode_id: m.to_dict() for m in ev.added})
                self.graph.set_active(ev.active, {m.episode_id: m.to_dict() for m in ev.added})
                self.timeline.live_swap(ev.token_index, ev.active)
                added = " ".join(f"+#{m.episode_id}" for m in ev.added)
                removed = " ".join(f"−#{i}" for i in ev.removed)
                self.statusBar().showMessage(
                    f"Memory swap at token {ev.token_index}: {added} {removed} "
                    f"(answer paused {ev.swap_ms:.0f} ms)", 5000)
            elif isinstance(ev, DoneEvent):
                push_tokens()
                self._on_done(ev)
        push_tokens()

    def _on_done(self, ev: DoneEvent) -> None:
        self._last_done = ev
        self._touch()
        self.turns += 1
        footer = _footer(ev.tokens, ev.swaps, ev.tokens_per_s, ev.interrupted)
        if ev.message_id is None and not ev.text:  # stopped before the first token
            self.chat.view.discard_live()
            self.chat.view.add_notice("Stopped before the answer began (nothing was kept; "
                                      "Regenerate answers this message again).")
        else:
            self.chat.view.finish_assistant(ev.message_id, ev.timeline, footer)
        title = f"Answer · message #{ev.message_id}" if ev.message_id else "Answer"
        self.timeline.set_answer(ev.timeline, ev.tokens, title, key=self.live_key)
        self._set_streaming(False)
        if self.client is not None:
            self.client.streaming = False
        new_conv = self.current_conv != ev.conversation_id
        self.current_conv = ev.conversation_id
        self._remember_chat(ev.conversation_id)
        self.refresh_conversations()
        if new_conv and self.read_store is not None:
            conv = next((c for c in self.read_store.conversations() if c["id"] == ev.conversation_id), None)
            if conv:
                self.chat.set_title(conv["title"])
        self.browser.refresh()
        self._update_memory_count()
        self._glow_timer.start(int(GLOW_AFTER_ANSWER_S * 1000))
        msg = f"{ev.tokens} tokens at {ev.tokens_per_s:.1f}/s · {ev.swaps} memory swap{'' if ev.swaps == 1 else 's'}"
        if ev.interrupted:
            msg = "Stopped — partial answer kept. " + msg
        self.statusBar().showMessage(msg, 8000)

    def _on_turn_failed(self, msg: str) -> None:
        self._pending.clear()
        if self.live_key is not None:
            self.chat.view.finish_assistant(None, [], "")
        self.chat.view.add_notice(f"Could not answer: {msg}")
        self._set_streaming(False)
        self.graph.clear_active()

    def new_chat(self) -> None:
        """Start a new conversation (Ctrl+N)."""
        if self.is_streaming():
            return
        self.current_conv = None
        self._remember_chat(None)
        self.conversations.list.clearSelection()
        self.conversations.list.setCurrentItem(None)
        self.chat.view.show_empty()
        self.chat.set_title("New chat")
        self.timeline.clear()
        self.chat.input.setFocus()

    def refresh_conversations(self) -> None:
        if self.read_store is None:
            self.conversations.set_conversations([], None)
            return
        self.conversations.set_conversations(self.read_store.conversations(), self.current_conv)

    def _on_conversation_selected(self, cid: int) -> None:
        if cid < 0 or self.is_streaming() or cid == self.current_conv:
            return
        self.current_conv = cid
        self._remember_chat(cid)
        self._render_conversation(cid)

    def _last_chat_key(self) -> str:
        return "last_chat/" + str(self.data_dir.resolve()).replace("/", "|").replace("\\", "|")

    def _remember_chat(self, cid: int | None) -> None:
        QtCore.QSettings().setValue(self._last_chat_key(), -1 if cid is None else int(cid))

    def _reopen_last_chat(self) -> None:
        """The chat open when the app last closed (per data folder), if it still exists."""
        if self.read_store is None:
            return
        cid = int(QtCore.QSettings().value(self._last_chat_key(), -1) or -1)
        if cid >= 0 and self.read_store.conversation_exists(cid):
            self.current_conv = cid
            self.refresh_conversations()
            self._render_conversation(cid)

    # ---- chat basics: regenerate, edit and resend, copy, export, zoom, appearance ------
    def _last_user_message(self) -> dict | None:
        if self.current_conv is None or self.read_store is None:
            return None
        msgs = self.read_store.messages(self.current_conv)
        return next((m for m in reversed(msgs) if m["role"] == "user"), None)

    def regenerate(self) -> None:
        """Answer the chat's last message again; the old answer (and its memory) goes."""
        m = self._last_user_message()
        if m is None or self.is_streaming():
            return
        self.resend_from(m["id"], m["content"])

    def _ask_edit_and_resend(self, n: int, text: str) -> None:
        new, ok = QtWidgets.QInputDialog.getMultiLineText(self, "Edit and resend", "Your message:", text)
        if ok and new.strip():
            self.edit_and_resend(n, new.strip())

    def edit_and_resend(self, n: int, text: str) -> None:
        """Replace the chat's n-th message (0-based) by `text`: it and everything after it
        are taken back, then `text` is sent."""
        if self.current_conv is None or self.read_store is None or self.is_streaming():
            return
        users = [m for m in self.read_store.messages(self.current_conv) if m["role"] == "user"]
        if 0 <= n < len(users):
            self.resend_from(users[n]["id"], text)

    def resend_from(self, message_id: int, text: str) -> None:
        self._resend = (self.current_conv, text)
        self._op("rewind", (self.current_conv, message_id))

    def copy_last_answer(self) -> None:
        answers = [i for i, e in enumerate(self.chat.view.entries) if e["role"] == "assistant"]
        if answers:
            self.chat.view.copy_message(answers[-1])
            self.statusBar().showMessage("Answer copied.", 2000)

    def export_chat(self) -> None:
        if self.current_conv is None:
            self._message("information", "Export chat", "Open a chat first.")
            return
        conv = next((c for c in self.read_store.conversations() if c["id"] == self.current_conv), None)
        name = "".join(ch if ch.isalnum() or ch in " -_" else "_" for ch in (conv or {}).get("title", "chat"))
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, "Export chat as Markdown", str(Path.home() / f"{name.strip() or 'chat'}.md"),
            "Markdown (*.md)")
        if path:
            self.export_chat_to(path)

    def export_chat_to(self, path: str | Path) -> Path:
        from ..chat_export import export_conversation

        out = export_conversation(self.read_store, self.current_conv, path)
        self.statusBar().showMessage(f"Chat exported to {out}", 6000)
        return out

    def zoom_chat(self, direction: int, *, steps: int | None = None) -> None:
        """Ctrl+ / Ctrl− : the chat's text size (remembered); 0 = normal size."""
        cur = int(getattr(self, "zoom_steps", 0))
        self.zoom_steps = max(-4, min(10, (0 if direction == 0 else cur + direction) if steps is None else steps))
        pt = max(6.0, self._base_pt * (1.1 ** self.zoom_steps)) if hasattr(self, "_base_pt") else None
        if pt is None:
            return
        for w in (self.chat.view, self.chat.input):
            f = w.font()
            f.setPointSizeF(pt)
            w.setFont(f)
        self.chat.view.document().setDefaultFont(self.chat.view.font())
        QtCore.QSettings().setValue("chat/zoom", self.zoom_steps)
        if self.current_conv is not None and not self.is_streaming():
            self._rerender_conversation()

    def set_appearance(self, mode: str) -> None:
        """Light, dark, or follow the system (remembered)."""
        self.appearance = mode if mode in ("system", "light", "dark") else "system"
        QtCore.QSettings().setValue("appearance", self.appearance)
        if self.appearance in self.theme_actions:
            self.theme_actions[self.appearance].setChecked(True)
        self._on_scheme_changed()

    def _render_conversation(self, cid: int) -> None:
        if self.read_store is None:
            return
        view = self.chat.view
        conv = next((c for c in self.read_store.conversations() if c["id"] == cid), None)
        self.chat.set_title(conv["title"] if conv else "Chat")
        view.show_empty()
        msgs = self.read_store.messages(cid)
        last_key, last = None, None
        for m in msgs:
            if m["role"] == "user":
                view.add_user(m["content"], m["created_at"])
            else:
                spans = self.read_store.timeline(m["id"])
                st = m.get("stats") or {}
                tps = st.get("tokens", 0) / st["elapsed_s"] if st.get("elapsed_s") else 0.0
                footer = _footer(st.get("tokens", 0), st.get("swaps", 0), tps, m["interrupted"]) \
                    if st.get("tokens") else ("stopped early" if m["interrupted"] else "")
                key = view.add_assistant(m["content"], m["id"], spans, when=m["created_at"],
                                         offsets=self._offsets.get(m["id"]), footer=footer)
                for r in st.get("memories", []):
                    self._recalls.setdefault(int(r["episode_id"]), r)
                last_key, last = key, m
                if m["id"] not in self._offsets and self.model_ready:
                    self._op("offsets", (m["id"], m["content"]))
        if not msgs:
            view.show_empty()
        if last is not None:
            spans = self.read_store.timeline(last["id"])
            self.timeline.set_answer(spans, 0, f"Answer · message #{last['id']}", key=last_key)
        else:
            self.timeline.clear()
        view._scroll_end(force=True)

    def _rerender_conversation(self) -> None:
        if self.current_conv is not None and not self.is_streaming():
            sb = self.chat.view.verticalScrollBar()
            value = sb.value()
            self._render_conversation(self.current_conv)
            sb.setValue(value)

    def _on_token_offsets(self, mid: int, offsets) -> None:
        if offsets:
            self._offsets[mid] = offsets
            self._rerender_timer.start()

    def _delete_conversation(self, cid: int) -> None:
        self._op("delete_conv", cid)
        if cid == self.current_conv:
            self.new_chat()

    # ---- linking chat, timeline and graph ----------------------------------------------
    def _spans_for_key(self, key: int):
        if key == self.timeline.message_key:
            return None  # the timeline has them (live too)
        m = self.chat.view.msgs.get(key)
        return m["spans"] if m else []

    def _active_for(self, key: int, tok: int) -> list[int]:
        if key == self.timeline.message_key:
            return self.timeline.active_at(tok)
        for a, b, ids in self._spans_for_key(key) or []:
            if a <= tok < b:
                return list(ids)
        return []

    def _token_tooltip(self, key: int, tok: int) -> str:
        ids = self._active_for(key, tok)
        if not ids:
            return f"<b>token {tok}</b><br><i>no memories were active</i>"
        rows = "".join(f"<br><span style='color:{memory_color(i).name()}'>●</span> #{i} "
                       f"{html.escape(self.graph.label_of(i))}" for i in ids)
        return f"<b>token {tok}</b> — written with {len(ids)} memor{'y' if len(ids) == 1 else 'ies'}:{rows}"

    def _show_message_timeline(self, key: int) -> None:
        if key == self.timeline.message_key:
            return
        m = self.chat.view.msgs.get(key)
        if m is None:
            return
        title = f"Answer · message #{m['message_id']}" if m.get("message_id") else "Answer"
        self.timeline.set_answer(m["spans"], m.get("n_tokens", 0), title, key=key)

    def _on_chat_token_hovered(self, key: int, tok: int) -> None:
        if key < 0:
            self.timeline.set_external_token(-1)
            self.graph.highlight([])
            self.timeline.set_highlight_ids([])
            return
        if not self.is_streaming():
            self._show_message_timeline(key)
        ids = self._active_for(key, tok)
        if key == self.timeline.message_key:
            self.timeline.set_external_token(tok)
        self.timeline.set_highlight_ids(ids)
        self.graph.highlight(ids)

    def _on_chat_token_clicked(self, key: int, tok: int) -> None:
        ids = self._active_for(key, tok)
        if ids:
            self.right_tabs.setCurrentIndex(0)
            self.graph.select(ids[0], center=True)

    def _on_timeline_token_hovered(self, tok: int) -> None:
        key = self.timeline.message_key
        if tok < 0 or key is None:
            self.chat.view.highlight_token(-1, -1)
            self.graph.highlight([])
            self.timeline.set_highlight_ids([])
            return
        self.chat.view.highlight_token(key, tok)
        ids = self.timeline.active_at(tok)
        self.graph.highlight(ids)
        self.timeline.set_highlight_ids(ids)

    def _on_timeline_token_clicked(self, tok: int) -> None:
        key = self.timeline.message_key
        if key is not None:
            self.chat.view.highlight_token(key, tok, ensure_visible=True)

    def _on_node_selected(self, nid: int) -> None:
        if nid >= 0 and nid in self._recalls and nid not in self.graph.recalls:
            self.graph.recalls[nid] = self._recalls[nid]
            self.graph.select(nid)
            return
        if nid >= 0 and self.right_tabs.currentIndex() == 1:
            self.browser.select_id(nid, emit=False)
        self.timeline.set_highlight_ids([nid] if nid >= 0 else [])

    def _on_right_tab(self, index: int) -> None:
        if index == 1:
            self.browser.refresh()
            if self.graph.selected is not None:
                self.browser.select_id(self.graph.selected, emit=False)

    def _on_knowledge_action(self, action: str, knowledge_id: int) -> None:
        """Edit or delete a knowledge item from the graph's diamond (the Knowledge tab
        opens on it, so the change and its undo are in view)."""
        self.right_tabs.setCurrentWidget(self.browser)
        self.browser.select_knowledge(knowledge_id)
        if action == "edit":
            self.browser.edit_knowledge()
        elif action == "delete":
            self.browser.delete_knowledge()

    def _on_browser_selected(self, eid: int) -> None:
        self.graph.select(eid, center=True)

    # ---- engine results ------------------------------------------------------------------
    def _on_model_info(self, info: dict) -> None:
        if not info.get("name"):  # not loaded yet
            self.status_model.setText("Model: loading…" if self.load_model else "Model: not loaded")
            self.status_model.setToolTip(str(info.get("path") or ""))
            self.status_device.setText("")
            return
        self.status_model.setText(f"Model: {info['name']}")
        self.status_model.setToolTip(str(info.get("path") or ""))
        if info.get("server_url"):  # answers come from a model server: say which, always
            from ..server_llm import privacy_warning, where_answers_come_from

            url = info["server_url"]
            warn = privacy_warning(url)
            self.status_model.setText(where_answers_come_from(url, info["name"])
                                      + (" ⚠ unencrypted" if warn else ""))
            self.status_model.setToolTip(warn or f"Prompts, memories included, go to {url} "
                                         "and nowhere else.")
            self.status_device.setText(f"server · context {info.get('n_ctx', '?')}")
            return
        dev = info.get("device") or "CPU"
        gpu = f" ({info['n_gpu_layers']} layers)" if dev == "GPU" and info.get("n_gpu_layers", -1) > 0 else ""
        self.status_device.setText(f"{dev}{gpu} · context {info.get('n_ctx', '?')}")

    def _on_load_progress(self, text: str) -> None:
        self.status_busy.setVisible(bool(text))
        self.status_busy_label.setText(text)
        if text and self.is_streaming():  # a message waits for the model
            self.chat.view.set_live_status(text)

    def _on_loaded(self, info: dict) -> None:
        self.model_ready = True
        self.model_error = None
        self._on_model_info(info)
        where = ("Ready — answers come from the model server at " + info["server_url"]
                 if info.get("server_url") else "Ready — offline, on this computer.")
        self.statusBar().showMessage(where, 5000)
        if self.current_conv is not None:
            for m in (self.read_store.messages(self.current_conv) if self.read_store else []):
                if m["role"] == "assistant" and m["id"] not in self._offsets:
                    self._op("offsets", (m["id"], m["content"]))

    def _on_embedder_ready(self) -> None:
        self.embedder_ready = True
        # search by meaning plus keywords runs where the embedder lives
        self.browser.semantic_search = lambda text: self._op("search", ("browser", text))
        self.graph.semantic_search = lambda text: self._op("search", ("graph", text))
        self.browser.refresh()
        self.graph.refresh_search()

    def _on_load_failed(self, kind: str, msg: str) -> None:
        if kind == "model":
            self.model_ready = False
            self.model_error = msg
            self.status_model.setText("Model: not loaded")
            self.status_model.setToolTip(msg)
            self.status_device.setText("—")
            self._message("warning", "The language model could not be loaded",
                          f"{msg}\n\nYou can still browse, search and edit your memories. "
                          "To chat, choose a GGUF model in Settings (Ctrl+,).",
                          settings_button=True)
        elif kind == "embedder":
            self._message("warning", "The embedding model could not be loaded",
                          f"{msg}\n\nMemories can be browsed, but not searched by meaning or recalled.")
        else:
            self._message("warning", "Cannot open the memory file", msg)

    def _on_snapshot(self, snap: dict) -> None:
        self.graph.set_snapshot(snap)
        self._update_memory_count()  # from the store: one count for the bar and the graph

    def _op(self, name: str, arg) -> None:
        if self.client is not None:
            self.client.requestOp.emit(name, arg)

    def _on_op_done(self, name: str, arg, result) -> None:
        if name == "search":
            (self.graph if arg[0] == "graph" else self.browser).set_search_results(arg[1], result)
            return
        if name == "rewind":
            conv, text = getattr(self, "_resend", (None, ""))
            self._resend = None
            if conv == arg[0] == self.current_conv and text:
                self._render_conversation(conv)
                self.send(text)
            self._update_memory_count()
            return
        if name in ("edit", "import", "restore", "delete"):
            self.browser.set_search_results("", None)  # rankings of the old texts are stale
            self.graph.set_search_results("", None)
        if name in ("rename_conv", "delete_conv"):
            self.refresh_conversations()
            if name == "rename_conv" and arg[0] == self.current_conv:
                self.chat.set_title(arg[1])
            return
        self.browser.refresh()
        self._update_memory_count()
        if name in ("export", "import"):
            self._finish_progress()
            self._message("information", "Export finished" if name == "export" else "Import finished",
                          str(result).replace(": ", ":\n", 1).replace("; ", "\n"))
            if name == "import":
                self.refresh_conversations()
        elif name == "edit":
            self.statusBar().showMessage(f"Memory #{arg[0]} saved and re-embedded.", 4000)
        elif name == "pin":
            self.statusBar().showMessage(f"Memory #{arg[0]} {'pinned' if arg[1] else 'unpinned'}.", 4000)
        elif name == "restore":
            self.statusBar().showMessage(f"Memory #{arg} restored.", 4000)
        elif name.startswith("knowledge_"):
            kid = arg[0] if isinstance(arg, tuple) else arg
            what = {"knowledge_edit": "saved; it is used as you wrote it",
                    "knowledge_delete": "deleted (Undo in the Knowledge tab)",
                    "knowledge_restore": "restored"}.get(name, "changed")
            self.statusBar().showMessage(f"Knowledge #{kid} {what}.", 5000)

    def _on_op_failed(self, name: str, msg: str) -> None:
        if name in ("export", "import"):
            self._finish_progress()
        if name == "import" and msg == "cancelled":
            self.statusBar().showMessage("Import cancelled; nothing was changed.", 8000)
            self.last_message = ("Import cancelled", msg)
            return
        if name == "offsets":
            return
        self._message("warning", "That did not work", f"{name}: {msg}")

    def _update_memory_count(self, n: int | None = None) -> None:
        if n is None:
            n = self.read_store.count_episodes() if self.read_store is not None else 0
        self.status_memories.setText(f"{n} memor{'y' if n == 1 else 'ies'}")

    # ---- idle reflection (consolidation and forgetting) ---------------------------------
    def _touch(self) -> None:
        if self.client is not None:
            self.client.worker.touch()

    def consolidate_now(self) -> None:
        """Run one consolidation + forgetting pass now (in the background)."""
        if self.client is None or not self.client.worker.consolidate_now():
            self.statusBar().showMessage("Reflection is already running (or not available).", 4000)
        else:
            self.statusBar().showMessage("Reflecting on memories…", 4000)

    def _poll_reflecting(self) -> None:
        busy = self.client is not None and self.client.worker.reflecting
        if busy and not self.status_busy_label.text():
            self.status_busy_label.setText("Reflecting on memories…")
            self.status_busy.show()
            self._reflect_shown = True
        elif not busy and getattr(self, "_reflect_shown", False):
            self._reflect_shown = False
            if self.status_busy_label.text().startswith("Reflecting"):
                self.status_busy_label.setText("")
                self.status_busy.hide()

    def _on_idle_report(self, report: dict) -> None:
        head = "" if report.get("error") else (
            "Reflection: " if report.get("trigger") == "manual" else "While you were away: ")
        self.statusBar().showMessage(head + reflection_sentence(report), 12000)
        self.last_reflection = report
        if self.client is not None and not self.is_streaming():
            self.client.requestSnapshot.emit()
        self.browser.refresh()
        self._update_memory_count()

    # ---- export / import ------------------------------------------------------------
    def _has_memfile(self) -> bool:
        try:
            from .. import memfile  # noqa: F401
        except ImportError:
            return False
        return True

    def export_memories(self) -> None:
        if not self._has_memfile():
            self._message("information", "Export", "Export is not available in this version.")
            return
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, "Export memories", str(Path.home() / "memories.hela"),
            "HeLa memory file (*.hela);;Markdown (*.md)")
        if path:
            self._start_progress("Exporting memories…")
            self._op("export", path)

    def import_memories(self) -> None:
        if not self._has_memfile():
            self._message("information", "Import", "Import is not available in this version.")
            return
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self, "Import memories", str(Path.home()),
            "Memories and conversation exports (*.hela *.json *.jsonl *.zip *.txt *.md);;"
            "All files (*)")
        if path:
            self.start_import(path)

    def import_folder(self) -> None:
        path = QtWidgets.QFileDialog.getExistingDirectory(
            self, "Import a notes folder or Jan threads", str(Path.home()))
        if path:
            self.start_import(path)

    def start_import(self, path: str) -> None:
        """Import a file or folder on the assistant's thread, with progress and Cancel."""
        if self.client is None:
            return
        self.client.worker.import_cancel.clear()
        self._start_progress("Importing memories…", cancel=self.client.worker.import_cancel.set)
        self._op("import", path)

    def _start_progress(self, label: str, cancel=None) -> None:
        self._progress = QtWidgets.QProgressDialog(label, "Cancel" if cancel else None, 0, 0,
                                                   self)
        self._progress.setAutoClose(False)
        self._progress.setAutoReset(False)
        if cancel is not None:
            self._progress.canceled.connect(cancel)
        self._progress.setWindowTitle("HeLa Desktop")
        self._progress.setMinimumDuration(0)
        self._progress.setWindowModality(QtCore.Qt.WindowModality.WindowModal)
        self._progress.show()

    def _on_progress(self, _name: str, done: int, total: int) -> None:
        p = getattr(self, "_progress", None)
        if p is not None:
            p.setMaximum(max(total, 0))
            p.setValue(min(done, total) if total else 0)

    def _on_progress_note(self, _name: str, text: str) -> None:
        p = getattr(self, "_progress", None)
        if p is not None and text:
            p.setLabelText(f"Importing memories…\n{text}")

    def _finish_progress(self) -> None:
        p = getattr(self, "_progress", None)
        if p is not None:
            p.close()
            self._progress = None

    # ---- settings ---------------------------------------------------------------------
    def open_settings(self) -> None:
        dlg = SettingsDialog(self.settings, self.data_dir, self)
        if dlg.exec() != QtWidgets.QDialog.DialogCode.Accepted:
            return
        self.apply_settings(dlg.result_settings(), dlg.data_dir())

    def apply_settings(self, new: Settings, data_dir: Path | None = None) -> None:
        """Save settings; reload the model or switch the data folder when needed."""
        old = self.settings
        self.settings = new
        if data_dir is not None and Path(data_dir).resolve() != self.data_dir.resolve():
            new.save(data_dir)
            self._close_assistant()
            self._open_data_dir(Path(data_dir))
            self.dataDirChanged.emit(str(data_dir))
            return
        new.save(self.data_dir)
        if model_changed(old, new):
            self.model_error = None
            self.client.requestReload.emit(new)
        else:
            self.client.requestSettings.emit(new)
        self.statusBar().showMessage("Settings saved.", 3000)

    # ---- misc -------------------------------------------------------------------------
    def search_memories(self) -> None:
        self.right_tabs.setCurrentIndex(1)
        self.browser.focus_search()

    def find_in_graph(self) -> None:
        self.right_tabs.setCurrentIndex(0)
        self.graph.search.setFocus()
        self.graph.search.selectAll()

    def about(self) -> None:
        from .. import __version__

        QtWidgets.QMessageBox.about(
            self, "About HeLa Desktop",
            f"<h3>HeLa Desktop {__version__}</h3><p>A private, offline assistant whose memory "
            "is a Hebbian associative graph you can watch form.</p>"
            f"<p>Data folder: {html.escape(str(self.data_dir))}</p>")

    def _message(self, kind: str, title: str, text: str, settings_button: bool = False) -> None:
        """A non-blocking message box (the app keeps running behind it)."""
        icon = {"warning": QtWidgets.QMessageBox.Icon.Warning,
                "information": QtWidgets.QMessageBox.Icon.Information}.get(kind, QtWidgets.QMessageBox.Icon.NoIcon)
        box = QtWidgets.QMessageBox(icon, title, text, QtWidgets.QMessageBox.StandardButton.Close, self)
        if settings_button:
            b = box.addButton("Open Settings…", QtWidgets.QMessageBox.ButtonRole.AcceptRole)
            b.clicked.connect(lambda: QtCore.QTimer.singleShot(0, self.open_settings))
        box.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setWindowModality(QtCore.Qt.WindowModality.NonModal)
        box.show()
        self.last_message = (title, text)

    def _on_scheme_changed(self, *_args) -> None:
        app = QtWidgets.QApplication.instance()
        mode = getattr(self, "appearance", "system")
        dark = system_is_dark() if mode == "system" else mode == "dark"
        self.dark = dark
        apply_theme(app, dark)
        c = graph_colors(dark)
        self.graph.apply_colors(c)
        self.timeline.apply_colors(c)
        if self.current_conv is not None and not self.is_streaming():
            self._rerender_conversation()  # message bubbles take the new palette
        elif self.current_conv is None and not self.is_streaming():
            self.chat.view.show_empty()

    def closeEvent(self, e: QtGui.QCloseEvent) -> None:  # noqa: N802
        """Closing mid-answer stops it; the partial answer is stored before we exit."""
        if self._closing:
            e.accept()
            return
        self._closing = True
        if self.is_streaming():
            self.statusBar().showMessage("Saving the partial answer…")
            QtWidgets.QApplication.processEvents()
        self._flush_timer.stop()
        self._reflect_timer.stop()
        self.chat.view.release_clipboard()
        self._close_assistant()
        self.graph.shutdown()
        e.accept()


def _footer(tokens: int, swaps: int, tps: float, interrupted: bool) -> str:
    parts = [f"{tokens} tokens", f"{swaps} memory swap{'s' if swaps != 1 else ''}"]
    if tps:
        parts.append(f"{tps:.1f} tokens/s")
    text = " · ".join(parts)
    return ("stopped — " + text) if interrupted else text


__all__ = ["MainWindow", "icon_path", "time"]
