"""The main window: chats | conversation | graph, memories and timeline.

A view over the assistant: it sends requests to the assistant thread and redraws on the
events that come back.  What it shows besides the answer stream (model status, chats,
messages, memory count, reflection) lives in a Qt-free `Session` that the assistant
thread's events update; the window never reads the database.  Token events are buffered
and applied every 30 ms, so a fast model never floods the GUI thread.  Menus, the status
bar, file jobs and the chat/timeline/graph links live in the ``window_*`` modules.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import cast

from PySide6 import QtCore, QtGui, QtWidgets

from ..config import Settings
from ..events import (
    SMALL_MODEL_NOTE,
    DoneEvent,
    MemoriesEvent,
    MemoryChangedEvent,
    MemoryUpdateEvent,
    ModelStatusEvent,
    ReflectionEvent,
    TokenEvent,
)
from ..folder_lock import FolderBusy, FolderLock, lock_data_dir
from ..session import unanswered_line
from . import window_look
from . import window_status as ws
from .activity import ActivityWatch
from .backups_dialog import BackupsDialog, in_background
from .chat import BETTER_MODEL
from .chat_list import ConversationList
from .chat_pane import ChatPane
from .chat_width import ChatKeepsItsWidth
from .explain import reflection_found_nothing, reflection_headline, reflection_sentence, when
from .graph_view import GraphView
from .icon import icon_path
from .layout_file import KEEP_EVERY_MS, load_positions, load_topics, save_positions
from .memory_browser import MemoryBrowser
from .plain import RefocusAfterDialogs, reason_first, show_message
from .session_qt import SessionSignals
from .settings_dialog import SettingsDialog, model_advice, model_changed
from .theme import graph_colors
from .timeline import TimelineView
from .type_to_chat import TypeToChat
from .window_files import FileJobs
from .window_linking import TokenLinks
from .window_menus import build_menus
from .window_panes import WindowPanes
from .window_status import StatusBar, WindowStatus
from .worker import AssistantClient

FLUSH_MS = 30
GLOW_AFTER_ANSWER_S = 2.0  # active memories keep glowing briefly after the answer
MODEL_FAILED = "The language model could not be loaded"
SERVER_FAILED = "The model server could not be reached"


def window_title(data_dir: Path) -> str:
    """"HeLa Desktop", and the data folder's name first when it is not the usual one: two
    windows on two folders could not be told apart (QA pass 24).  It ends with the app's
    name, which Qt would otherwise add ("HeLa Desktop — data — HeLa Desktop")."""
    from ..paths import default_data_dir

    try:
        usual = Path(data_dir).resolve() == default_data_dir().resolve()
    except OSError:
        usual = False
    return "HeLa Desktop" if usual else f"{Path(data_dir).name or data_dir} — HeLa Desktop"


GUI_SWITCH_INTERVAL_S = 0.001  # (`sys.setswitchinterval`; Python's default is 0.005)


class MainWindow(WindowPanes):
    """Chat pane, memory graph, memory browser and timeline around one assistant thread."""

    dataDirChanged = QtCore.Signal(str)

    def __init__(self, data_dir: Path, settings: Settings | None = None, *,
                 load_model: bool = True, autoload: bool = True,
                 assistant_kwargs: dict | None = None, idle_scheduler: bool = True):
        super().__init__()
        # the window's thread gets the interpreter back within a millisecond, not five, of
        # the worker's Python work (the answer's checks, live re-retrieval): the 10 ms probe
        # of the window test saw p99 gaps of 90–120 ms while an answer streamed on 2 cores
        sys.setswitchinterval(GUI_SWITCH_INTERVAL_S)
        self.assistant_kwargs = assistant_kwargs
        self.idle_scheduler = idle_scheduler
        self.data_dir = Path(data_dir)
        self.folder_lock: FolderLock | None = None  # run_app's; moves with the data folder
        self._backups_dialog: BackupsDialog | None = None  # File ▸ Backups…, while open
        self.settings = settings or Settings.load(self.data_dir)
        self.load_model = load_model
        self.setWindowTitle("HeLa Desktop")
        ip = icon_path()
        if ip is not None:
            self.setWindowIcon(QtGui.QIcon(str(ip)))
        self.resize(1480, 900)
        self.session_signals = SessionSignals(parent=self)
        self.session = self.session_signals.session
        self.client: AssistantClient | None = None
        self.live_key: int | None = None
        self._pending: list = []
        self._recalls: dict[int, dict] = {}
        self._after_answer = None  # what to do once the answer being written has ended
        self._drafts: dict[int | None, str] = {}
        self._place_for: tuple[int, float | None] | None = None
        self._draft_for: int | None = None
        self._offsets: dict[int, list] = {}
        self._resend: tuple[int | None, str, float] | None = None
        self._sent_text = ""
        self._relocating: set[int] = set()  # memories explained beyond the graph, read again
        self._animate_snapshot = False
        self._closing = False
        self.turns = 0
        self._tip_kept: str | None = None  # the status line a menu's tip stands over
        self._tip_shown = ""
        self._reflection_asked = False  # Reflect now while an idle pass ran: that one answers
        self.last_message: tuple[str, str] | None = None
        self._model_box: QtWidgets.QMessageBox | None = None  # MODEL_FAILED, while shown
        self._said_when_ready = ""  # said again once the model is ready (a restore's result)
        self.files = FileJobs(self)
        self.links = TokenLinks(self)
        self.activity = ActivityWatch(lambda: self.client, self)  # a click: not idle

        self._build_widgets()
        build_menus(self, self.files)
        self.setStatusBar(StatusBar(self))
        self.status = WindowStatus(self.statusBar())
        self._connect_session()
        self._flush_timer = QtCore.QTimer(self)
        self._flush_timer.setInterval(FLUSH_MS)
        self._flush_timer.timeout.connect(self.flush_events)
        self._layout_timer = QtCore.QTimer(self, interval=KEEP_EVERY_MS)  # not only at close
        self._layout_timer.timeout.connect(self.keep_layout)
        self._layout_timer.start()
        self._glow_timer = QtCore.QTimer(self, singleShot=True)
        self._glow_timer.timeout.connect(lambda: None if self.is_streaming() else self.graph.clear_active())
        self._rerender_timer = QtCore.QTimer(self, singleShot=True, interval=150)
        self._rerender_timer.timeout.connect(self.rerender_conversation)
        hints = QtGui.QGuiApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(self._on_scheme_changed)
        ui = QtCore.QSettings()
        self.appearance = str(ui.value("appearance", "system"))
        self.theme_actions.get(self.appearance, self.theme_actions["system"]).setChecked(True)
        if self.appearance != "system":
            self.set_appearance(self.appearance)
        self.base_pt = self.chat.view.font().pointSizeF()
        self.zoom_chat(0, steps=int(str(ui.value("chat/zoom", 0) or 0)))
        self._open_data_dir(self.data_dir, autoload=autoload)

    # ---- the session: what the window shows ---------------------------------------------
    @property
    def model_ready(self) -> bool:
        return self.session.model_ready

    @property
    def model_error(self) -> str | None:
        return self.session.model_error

    @property
    def embedder_ready(self) -> bool:
        return self.session.embedder_ready

    def _connect_session(self) -> None:
        sig = self.session_signals
        sig.modelChanged.connect(self._on_model_status)
        sig.conversationsChanged.connect(lambda _ev: self.refresh_conversations())
        sig.conversationChanged.connect(self._on_conversation)
        # the window is titled by the open chat ("data — HeLa Desktop" named the folder,
        # which said nothing to a user whose folder is called "data": QA pass 28b)
        self.chat.titleChanged.connect(lambda shown: self.setWindowTitle(f"{shown} — HeLa Desktop"))
        sig.memoryChanged.connect(self._on_memory_changed)
        sig.reflectionChanged.connect(self._on_reflection)

    # ---- construction ---------------------------------------------------------------
    def _build_widgets(self) -> None:
        colors = graph_colors()
        self.conversations = ConversationList()
        self.conversations.newRequested.connect(self.new_chat)
        self.conversations.selected.connect(self._on_conversation_selected)
        self.conversations.renameRequested.connect(lambda cid, t: self.run_op("rename_conv", (cid, t)))
        self.conversations.findRequested.connect(lambda text: self.run_op("find_chats", text))
        self.conversations.deleteRequested.connect(self._delete_conversation)
        self.conversations.deleteWithMemoriesRequested.connect(
            lambda cid: self._delete_conversation(cid, memories=True))
        self.chat = ChatPane()
        self.chat.sendRequested.connect(self.send)
        self.chat.stopRequested.connect(self.stop)
        self.chat.view.tokenHovered.connect(self.links.chat_token_hovered)
        self.chat.view.tokenClicked.connect(self.links.chat_token_clicked)
        self.chat.view.tooltip_for = self.links.token_tooltip
        self.chat.view.regenerateRequested.connect(self.regenerate)
        self.chat.view.editRequested.connect(self._ask_edit_and_resend)
        self.chat.view.paletteChanged.connect(lambda: window_look.restyle_chat(self))
        self.chat.input.textChanged.connect(self._touch)
        self.graph = GraphView(colors=colors)
        self.graph.nodeSelected.connect(self.on_node_selected)
        self.graph.knowledgeAction.connect(self._on_knowledge_action)
        self.graph.memoriesRequested.connect(self._show_in_memories)
        self.graph.locateRequested.connect(self._show_in_graph)
        # a question typed after a click on the graph or the chat reaches the message box
        self.type_to_chat = TypeToChat(self.chat.input, self.graph.plot, self.chat.view)
        self.browser = MemoryBrowser()
        self.browser.op.connect(self.run_op)
        self.browser.fetch = lambda q: self.run_op("browse", q)
        self.browser.memorySelected.connect(self._on_browser_selected)
        self.browser.tookBack.connect(self._took_back)
        self._refocus = RefocusAfterDialogs(self)  # (no window manager: keys after a dialog)
        for undo_pane in (self.browser, self.chat.view):  # (the message box: its own undo first)
            undo = QtGui.QShortcut(QtGui.QKeySequence.StandardKey.Undo, undo_pane)
            undo.setContext(QtCore.Qt.ShortcutContext.WidgetWithChildrenShortcut)
            undo.activated.connect(self.browser.undo_delete)
        self.chat.input.nothingToUndo.connect(self.browser.undo_delete)
        delete = QtGui.QShortcut(QtGui.QKeySequence(QtCore.Qt.Key.Key_Delete), self.browser.table)
        delete.setContext(QtCore.Qt.ShortcutContext.WidgetShortcut)
        delete.activated.connect(self.browser.delete_selected)
        self.timeline = TimelineView(colors=colors)
        self.timeline.label_of = self.graph.label_of
        self.timeline.tokenHovered.connect(self.links.timeline_token_hovered)
        self.timeline.tokenClicked.connect(self.links.timeline_token_clicked)
        self.timeline.memoryClicked.connect(self._show_in_graph)
        self.chat.view.answerChosen.connect(self.show_answer_timeline)
        self.chat.view.sourceClicked.connect(self._recall_of_answer)
        self.chat.view.memoryClicked.connect(self._show_in_graph)

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
        right.setCollapsible(0, False)  # a drag shrinks the graph to its least, never to nothing
        self.main_split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        self.main_split.addWidget(self.conversations)
        self.main_split.addWidget(self.chat)
        self.main_split.addWidget(right)
        self.main_split.setStretchFactor(0, 0)
        self.main_split.setStretchFactor(1, 2)
        self.main_split.setStretchFactor(2, 3)
        self.main_split.setSizes([190, 540, 750])
        for pane in (1, 2):  # the chat and the graph stay; the chat list may be dragged shut
            self.main_split.setCollapsible(pane, False)
        # a small window: the graph side gives way, then folds, before the chat does
        self.chat_width = ChatKeepsItsWidth(self.main_split)
        self.chat_width.shutChanged.connect(self.chat.show_shut)
        self.chat.chatsRequested.connect(self.show_chat_list)
        self.chat.graphRequested.connect(lambda: self.show_right(0))
        self.setCentralWidget(self.main_split)

    # ---- data folder and assistant thread ----------------------------------------------
    def keep_layout(self) -> bool:
        """Keep the graph's arrangement for this folder (`layout_file`)."""
        return save_positions(self.data_dir, *self.graph.positions_to_keep())

    def _open_data_dir(self, data_dir: Path, *, autoload: bool = True) -> None:
        self.keep_layout()  # the folder left
        self.data_dir = Path(data_dir)
        self.setWindowTitle(window_title(self.data_dir))
        # nothing shown may outlive the folder it came from (ids repeat across folders)
        self.graph.reset()
        self.graph.keep_positions(load_positions(self.data_dir),  # the graph as it was
                                  load_topics(self.data_dir))
        self.browser.reset()
        self.timeline.set_highlight_ids([])
        self._recalls.clear()
        self._offsets.clear()
        self.session.reset()
        client = AssistantClient(self.data_dir, self.settings, self,
                                 assistant_kwargs=self.assistant_kwargs,
                                 idle_scheduler=self.idle_scheduler)
        w = client.worker
        w.update.connect(self.session_signals.apply)
        w.stream.connect(self._on_event)
        w.turnFailed.connect(self._on_turn_failed)
        w.snapshot.connect(self.show_snapshot)
        w.opDone.connect(self._on_op_done)
        w.opFailed.connect(self._on_op_failed)
        w.progress.connect(self.files.on_progress)
        w.progressNote.connect(self.files.on_progress_note)
        w.tokenOffsets.connect(self._on_token_offsets)
        w.turnStatus.connect(self._on_turn_status)
        self.client = client
        self.browser.semantic_search = self.graph.semantic_search = None
        self.browser.set_search_results("", None)
        self.graph.set_search_results("", None)
        self.refresh_conversations()
        self.chat.view.show_empty()
        self.chat.set_title("New chat")
        self.timeline.clear()
        self.status.show_memories(0)
        self._animate_snapshot = False  # the first graph of a folder appears at once
        client.requestOpen.emit()  # then: the model info, the graph, the count, the chats
        self._reopen_last_chat()
        self.browser.refresh()
        if autoload:
            client.requestLoad.emit(self.load_model)

    def _close_assistant(self) -> None:
        if self.client is not None:
            self.client.shutdown()
            self.client.deleteLater()
            self.client = None
            # what the finished thread sent that is not handled yet belongs to the old folder
            for obj in (self, self.session_signals, self.files):
                QtCore.QCoreApplication.removePostedEvents(obj, QtCore.QEvent.Type.MetaCall)

    def is_streaming(self) -> bool:
        return self.client is not None and self.client.streaming

    def run_op(self, name: str, arg=None) -> None:
        """Ask the assistant thread for an operation (`worker_ops.OPS`); its answer comes
        back through the worker's signals and the session."""
        if self.client is not None:
            self.client.requestOp.emit(name, arg)

    # ---- chat -----------------------------------------------------------------------
    def send(self, text: str, said_at: float = 0.0) -> None:
        """Send a message; the answer streams into the chat, timeline and graph (`said_at`:
        the message's own time, when Regenerate answers it again)."""
        text = text.strip()
        if not text or self.is_streaming() or self.client is None:
            return
        if self.model_error and not self.model_ready and self.settings.backend != "server":
            if self._model_box is not None:  # one box about it, not two stacked (QA 18)
                self._model_box.close()
            self.message("warning", "No language model",  # (a server is tried again)
                         f"HeLa cannot answer yet. {reason_first(self.model_error)}\n\n"
                         "Choose a model in Settings (Ctrl+,). You can still browse your memories.")
            self.chat.input.setPlainText(text)
            return
        self.chat.view.add_user(text, said_at or None)
        self.live_key = self.chat.view.begin_assistant()
        self.timeline.begin_live(None, key=self.live_key)  # nothing recalled yet
        self._recalls = {}
        self.session.start_turn()
        self._set_streaming(True)
        self._sent_text = text
        if not self.model_ready or self.session.loading:  # (a switch keeps the old one ready)
            self.statusBar().showMessage("Waiting for the model to finish loading…")
            self.chat.view.set_live_status(self.session.loading or "Loading the language model…")
        else:
            self.chat.view.set_live_status("Starting…")
        self.client.chat(text, self.current_conv, said_at)

    def stop(self) -> None:
        """Stop the answer being written (Esc); the partial answer is kept.  An answer that
        has not begun is dropped at once and the message goes back into the input box."""
        if not self.is_streaming() or self.client is None:
            return
        if self.client.stop():
            self._unsend()
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
        if not on and self.client is not None:  # the answer's end, handled: the client's too
            self.client.streaming = False
        self.act_stop.setEnabled(on)
        self.conversations.set_busy(on)  # switching chats mid-answer would be confusing
        if on:
            self._flush_timer.start()
        else:
            self.flush_events()
            self._flush_timer.stop()
            if self._after_answer is not None:  # New chat asked for while it was written
                QtCore.QTimer.singleShot(0, self, self._after_answer)
                self._after_answer = None

    @QtCore.Slot(object)
    def _on_event(self, ev) -> None:
        self._pending.append(ev)
        if isinstance(ev, DoneEvent | MemoriesEvent):
            self.flush_events()

    def flush_events(self) -> None:
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
                continue
            push_tokens()
            if isinstance(ev, MemoriesEvent):
                self._on_memories(ev)
            elif isinstance(ev, MemoryUpdateEvent):
                self._on_memory_update(ev)
            elif isinstance(ev, DoneEvent):
                self._on_done(ev)
        push_tokens()

    def _on_memories(self, ev: MemoriesEvent) -> None:
        ids = [m.episode_id for m in ev.memories]
        self._recalls.update({m.episode_id: m.to_dict() for m in ev.memories})
        self.graph.set_active(ids, {m.episode_id: m.to_dict() for m in ev.memories})
        self.timeline.begin_live(ids, key=self.live_key)
        self.statusBar().showMessage(
            f"Recalled {len(ids)} memor{'y' if len(ids) == 1 else 'ies'} in {ev.retrieve_ms:.0f} ms")

    def _on_memory_update(self, ev: MemoryUpdateEvent) -> None:
        self._recalls.update({m.episode_id: m.to_dict() for m in ev.added})
        self.graph.set_active(ev.active, {m.episode_id: m.to_dict() for m in ev.added})
        self.timeline.live_swap(ev.token_index, ev.active)
        added = " ".join(f"+#{m.episode_id}" for m in ev.added)
        removed = " ".join(f"−#{i}" for i in ev.removed)
        self.statusBar().showMessage(
            f"Memory swap at token {ev.token_index}: {added} {removed} "
            f"(answer paused {ev.swap_ms:.0f} ms)", 5000)

    def _on_done(self, ev: DoneEvent) -> None:
        self.session.apply(ev)
        self._touch()
        self.turns += 1
        footer, sources = ws.done_lines(ev, self._recalls)
        if ev.message_id is None and not ev.text:  # stopped (or failed) before the first token
            self.chat.view.discard_live()
            if not ev.interrupted or self.client is None or self.client.worker.stop_event.is_set():
                self.chat.view.add_notice("Stopped before the answer began: your message "
                                          "stays, and no memory was made of it (Regenerate "
                                          "answers it again).", passing=True,
                                          after=unanswered_line({"interrupted": True}))
        else:
            self.chat.view.finish_assistant(ev.message_id, ev.timeline, footer, sources, ev.answered_at)
        title = ws.answer_title(self.chat.view, self.live_key) if ev.message_id else "Answer"
        self.timeline.set_answer(ev.timeline, ev.tokens, title, key=self.live_key)
        self._set_streaming(False)
        self._remember_chat(ev.conversation_id)
        self.chat.set_title(self.session.title)  # the chat as stored came just before
        self.refresh_conversations()
        self._glow_timer.start(int(GLOW_AFTER_ANSWER_S * 1000))
        tps = ev.speed
        kept = ev.message_id is not None or bool(ev.text)
        if isinstance(ev.forget, dict):  # one step of the undo history, after the others
            self.browser.forgotten([i for i in ev.forget.get("deleted") or []
                                    if isinstance(i, int)], self._sent_text, ev.conversation_id,
                                   [i for i in ev.forget.get("kept") or [] if isinstance(i, int)])
        self.statusBar().showMessage(
            ws.forget_line(ev.forget) if isinstance(ev.forget, dict)
            else ws.listed_line(ev.listed) if ev.listed is not None
            else ws.done_line(ev.tokens, tps, ev.swaps_shown, ev.interrupted, kept, ev.failed,
                                                  ev.failed_by), 8000)

    # ---- chat basics: zoom, appearance -------------------------------------------------
    def zoom_chat(self, direction: int, *, steps: int | None = None) -> None:
        """Ctrl+ / Ctrl− : the chat's text size (remembered); 0 = normal size."""
        window_look.zoom_chat(self, direction, steps)

    def set_appearance(self, mode: str) -> None:
        """Light, dark, or follow the system (remembered)."""
        window_look.set_appearance(self, mode)

    # ---- engine results ------------------------------------------------------------------
    def _on_model_status(self, ev: ModelStatusEvent | None) -> None:
        if ev is None:
            return
        if ev.state in ("opened", "ready"):
            self.chat.view.set_model_note(
                *((SMALL_MODEL_NOTE, BETTER_MODEL) if ev.info.get("bundled") else ()))
        if ev.state == "opened":
            self.status.show_model(ev.info, self.load_model)
        elif ev.state == "loading":
            self.status.show_loading(ev.message)
            if ev.message and self.is_streaming():  # a message waits for the model
                self.chat.view.set_live_status(ev.message)
        elif ev.state == "embedder_ready":
            self._on_embedder_ready()
        elif ev.state == "ready":
            self.status.show_model(ev.info, self.load_model)
            where = ("Ready — answers come from the model server at " + ev.info["server_url"]
                     if ev.info.get("server_url") else "Ready — offline, on this computer.")
            said, self._said_when_ready = self._said_when_ready, ""
            self.statusBar().showMessage(f"{said} {where}" if said else where,
                                         15000 if said else 5000)
            self._ask_offsets()
            if self._model_box is not None:
                self._model_box.close()
        elif ev.state == "failed":
            self._on_load_failed(ev.kind, ev.message)

    def _on_embedder_ready(self) -> None:
        # search by meaning plus keywords runs where the embedder lives
        self.browser.semantic_search = lambda text: self.run_op("search", ("browser", text))
        self.graph.semantic_search = lambda text: self.run_op("search", ("graph", text))
        self.browser.refresh()
        self.graph.refresh_search()

    def _on_load_failed(self, kind: str, msg: str) -> None:
        if kind == "model":
            server = self.settings.server_url if self.settings.backend == "server" else ""
            self.status.show_model_failed(msg, server)
            self.message("warning", SERVER_FAILED if server else MODEL_FAILED,  # (a reason is worded to follow a colon)
                         f"{msg[:1].upper() + msg[1:] if server else reason_first(msg)}"
                         "\n\nYou can still browse, search and "
                         "edit your memories. "
                         + model_advice(self.settings), settings_button=True)
        elif kind == "server":  # gone at a message (refused, said in the chat): the bar says so
            self.status.show_model_failed(msg, self.settings.server_url)
        elif kind == "embedder":
            self.message("warning", "The embedding model could not be loaded",
                         f"{msg}\n\nMemories can be browsed, but not searched by meaning or recalled.")
        else:
            self.message("warning", "Cannot open the memory file", msg)

    def show_snapshot(self, snap: dict) -> None:
        """The memory graph as the assistant thread sent it."""
        self.graph.set_snapshot(snap, animate=self._animate_snapshot)
        self._animate_snapshot = True
        nid = self.graph.explained_id()  # explained but not drawn: read again (kept? gone?)
        if nid is not None:
            self._relocating.add(nid)
            self.run_op("locate", nid)

    def _on_memory_changed(self, ev: MemoryChangedEvent) -> None:
        """One count for the status bar and the graph; the browser re-reads its tab."""
        self.status.show_memories(ev.episodes)
        self.browser.refresh()

    def _on_op_done(self, name: str, arg, result) -> None:
        if name == "search":
            (self.graph if arg[0] == "graph" else self.browser).set_search_results(arg[1], result)
            return
        if name == "browse":
            self.browser.show_result(arg, result)
            return
        if name == "locate":
            self._located(result)
            return
        if name == "find_chats":
            self.conversations.set_found(arg, result)
            return
        if name == "backup":
            if self._backups_dialog is not None:
                self._backups_dialog.refresh()
            self.statusBar().showMessage(f"Backed up your memories to backups/{result['file']}.",
                                         6000)
            return
        if name in ("edit", "import", "restore"):  # (a deleted one is left out where shown)
            self.browser.set_search_results("", None)  # rankings of the old texts are stale
            self.graph.set_search_results("", None)
        if name in ("export", "import"):
            self.files.finish_progress()
            self.message("information", "Export finished" if name == "export" else "Import finished",
                         str(result))  # sentences (`ExportReport.sentence`, `ImportReport.sentence`)
            return
        said = ws.op_message(name, arg, result)
        if said:
            self.statusBar().showMessage(*said)

    def _on_op_failed(self, name: str, msg: str) -> None:
        if name in ("export", "import"):
            self.files.failed(name, msg)
            return
        if name == "offsets":
            return
        if name == "rewind" and self._resend is not None:
            self.resend_refused(msg)
            return
        self.message("warning", "That did not work", f"{name}: {msg}")

    # ---- idle reflection (consolidation and forgetting) ---------------------------------
    def _touch(self) -> None:
        if self.client is not None:
            self.client.worker.touch()

    def consolidate_now(self) -> None:
        """Run one consolidation + forgetting pass now (in the background)."""
        if self.client is None or self.client.worker.scheduler is None:
            self.statusBar().showMessage("Reflection is not available yet: the memory is "
                                         "still loading.", 6000)
        elif not self.client.worker.consolidate_now():
            # an idle pass is under way: its summary is the one asked for (QA pass 20 read
            # "already running (or not available)", then "While you were away: …")
            self._reflection_asked = True
            self.statusBar().showMessage("Reflection is already running: its summary will "
                                         "show here when it ends.")
        else:
            self.statusBar().showMessage("Reflecting on memories…", 4000)

    @property
    def last_reflection(self) -> ReflectionEvent | None:
        return self.session.last_reflection

    def _on_reflection(self, ev) -> None:
        self.status.show_reflecting(self.session.reflecting)
        if not isinstance(ev, ReflectionEvent):
            return
        asked, self._reflection_asked = self._reflection_asked, False
        if ev.trigger == "idle" and not asked and reflection_found_nothing(ev):
            return  # (in the Activity tab; the status bar keeps what it said)
        head = "" if ev.error else (
            "Reflection: " if ev.trigger == "manual" or asked else "While you were away: ")
        # kept until something else is shown (README): a pass's summary was gone 12 s after
        # Reflect now, before it could be read
        # a short line the bar shows whole; hovering it (and the Activity tab) tells all
        bar = cast(StatusBar, self.statusBar())
        bar.showMessage(head + reflection_headline(ev), detail=head + reflection_sentence(ev)
                        + "\n(Memories ▸ Activity lists every reflection.)")
        if ev.backup and self._backups_dialog is not None:  # an open list shows the new one
            self._backups_dialog.refresh()

    # ---- settings ---------------------------------------------------------------------
    def open_settings(self) -> None:
        dlg = SettingsDialog(self.settings, self.data_dir, self)
        dlg.finished.connect(dlg.deleteLater)  # (each one was kept as long as the window)
        if dlg.exec() != QtWidgets.QDialog.DialogCode.Accepted:
            return
        self.apply_settings(dlg.result_settings(), dlg.data_dir())

    def apply_settings(self, new: Settings, data_dir: Path | None = None) -> None:
        """Save settings; reload the model or switch the data folder when needed."""
        old = self.settings
        self.settings = new
        if data_dir is not None and Path(data_dir).resolve() != self.data_dir.resolve():
            lock = self._lock_folder(Path(data_dir))
            if lock is False:
                self.settings = old
                return
            new.save(data_dir)
            self._close_assistant()
            if self.folder_lock is not None:
                self.folder_lock.release()
            self.folder_lock = lock if isinstance(lock, FolderLock) else None
            self._open_data_dir(Path(data_dir))
            self.dataDirChanged.emit(str(data_dir))
            return
        new.save(self.data_dir)
        if self.client is None:
            return
        if model_changed(old, new):
            self.session.expect_model()
            self.client.requestReload.emit(new)
        else:
            self.client.requestSettings.emit(new)
        self.statusBar().showMessage("Settings saved.", 3000)

    def _lock_folder(self, data_dir: Path) -> FolderLock | bool | None:
        """The lock of the folder to switch to, when this window holds one for its folder
        (None when it holds none, or no lock file can be made there); False, after a
        message, when another HeLa Desktop has that folder open: the window stays."""
        if self.folder_lock is None:
            return None
        try:
            return lock_data_dir(data_dir, "the desktop app")
        except FolderBusy as exc:
            self.message("warning", "Data folder in use", f"{exc}\n\nStaying on {self.data_dir}.")
            return False
        except OSError:
            return None

    # ---- backups ----------------------------------------------------------------------
    def open_backups(self) -> None:
        """File ▸ Backups…: the list, Back up now, Restore…"""
        from ..store import DB_FILE

        dlg = BackupsDialog(self.data_dir / DB_FILE, self.settings.backup_keep,
                            lambda: self.run_op("backup"), self.restore_backup, self)
        self._backups_dialog = dlg
        try:
            dlg.exec()
        finally:
            self._backups_dialog = None

    def restore_backup(self, path: Path) -> bool:
        """Put backup `path` in place of the memory file: the assistant is closed, the file
        replaced (`backups.restore_backup`), the folder opened again.  A refused backup
        changes nothing (a message says why); True when restored."""
        from ..backups import restore_backup
        from ..store import DB_FILE, StoreError

        if self.is_streaming():
            self.message("information", "Restore a backup",
                         "An answer is being written: stop it or let it finish, then restore.")
            return False
        self._close_assistant()
        try:  # a copy and a check of the whole file (2 s at 100,000 memories): off this thread
            done = in_background(self, "Restoring the backup…",
                                 lambda: restore_backup(self.data_dir / DB_FILE, Path(path)))
        except (StoreError, OSError) as exc:
            self.message("warning", "The backup was not restored", f"{exc}\n\nNothing was changed.")
            done = None
        self._open_data_dir(self.data_dir)
        if done is not None:
            what = (f"the backup of {when(done['made_at'])}" if done["made_at"] else
                    done["restored"])
            said = (f"Restored {what}. The memory file it replaced is kept as "
                    f"backups/{done['kept']} (File ▸ Backups… to undo).")
            self.statusBar().showMessage(said, 15000)
            # said again when the model is ready, whose "Ready — …" would hide it (QA pass
            # 33: after a restore the bar said only "Ready — offline, on this computer.")
            self._said_when_ready = said
        return done is not None

    # ---- misc -------------------------------------------------------------------------
    def message(self, kind: str, title: str, text: str, settings_button: bool = False) -> None:
        """A non-blocking message box (the app keeps running behind it; plain text)."""
        box = show_message(self, kind, title, text, self.open_settings if settings_button else None)
        self.last_message = (title, text)
        if title in (MODEL_FAILED, SERVER_FAILED):  # it goes once the model is ready (a server came back)
            self._model_box = box
            box.destroyed.connect(lambda *_: setattr(self, "_model_box", None))

    def _on_scheme_changed(self, *_args) -> None:
        window_look.follow_scheme(self)

    def event(self, e: QtCore.QEvent) -> bool:  # noqa: D102 - Qt's
        if e.type() == QtCore.QEvent.Type.StatusTip:
            self._status_tip(e.tip())  # type: ignore[attr-defined]
            return True
        return super().event(e)

    def _status_tip(self, tip: str) -> None:
        """A menu item's tip shows in the status bar while it is hovered; what the bar
        said before comes back after (QA pass 26: merely opening a menu blanked "While you
        were away: …", as Qt clears the bar for an item without a tip)."""
        bar = self.statusBar()
        if tip:
            if self._tip_kept is None:
                self._tip_kept = bar.currentMessage()
            bar.showMessage(tip)
            self._tip_shown = tip
        elif self._tip_kept is not None:
            kept, self._tip_kept = self._tip_kept, None
            if bar.currentMessage() == self._tip_shown:  # (not news shown meanwhile)
                bar.showMessage(kept) if kept else bar.clearMessage()

    def closeEvent(self, e: QtGui.QCloseEvent) -> None:  # noqa: N802
        """Closing mid-answer stops it; the partial answer is stored before we exit."""
        if self._closing:
            e.accept()
            return
        self._closing = True
        self._remember_draft()  # a message typed and not sent is back at the next start
        self._remember_place()  # and the open chat where it was read down to
        if self.is_streaming():
            self.statusBar().showMessage("Saving the partial answer…")
            QtWidgets.QApplication.processEvents()
        self._flush_timer.stop()
        self.activity.stop()
        self.chat.view.release_clipboard()
        self._close_assistant()
        self._layout_timer.stop()
        self.keep_layout()  # reopens as it was
        self.graph.shutdown()
        e.accept()


__all__ = ["MainWindow", "icon_path", "time"]
