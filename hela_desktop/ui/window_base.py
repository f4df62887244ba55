"""What the main window's helpers may use of it (`window_menus`, `window_files`,
`window_linking`, `window_look`): its widgets, actions, state and a few methods.

`MainWindow` derives from `WindowBase` and fills all of it in; the helpers import this
module, never `main_window`, so the window and its parts do not import each other.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import QtGui, QtWidgets

from ..session import Session
from .chat_list import ConversationList
from .chat_pane import ChatPane
from .graph_view import GraphView
from .memory_browser import MemoryBrowser
from .timeline import TimelineView
from .worker import AssistantClient

if TYPE_CHECKING:
    from .chat_width import ChatKeepsItsWidth


class WindowBase(QtWidgets.QMainWindow):
    """The surface of the main window its helper modules use (declared, not defined)."""

    # widgets and state
    chat: ChatPane
    conversations: ConversationList
    graph: GraphView
    timeline: TimelineView
    browser: MemoryBrowser
    right_tabs: QtWidgets.QTabWidget
    main_split: QtWidgets.QSplitter
    chat_width: ChatKeepsItsWidth
    session: Session
    client: AssistantClient | None
    data_dir: Path
    zoom_steps: int
    base_pt: float
    appearance: str
    dark: bool
    # actions (window_menus.build_menus creates them)
    act_new: QtGui.QAction
    act_export: QtGui.QAction
    act_import: QtGui.QAction
    act_import_folder: QtGui.QAction
    act_export_chat: QtGui.QAction
    act_backups: QtGui.QAction
    act_settings: QtGui.QAction
    act_quit: QtGui.QAction
    act_find: QtGui.QAction
    act_reflect: QtGui.QAction
    act_undo_delete: QtGui.QAction
    act_keys: QtGui.QAction
    act_guide: QtGui.QAction
    act_send: QtGui.QAction
    act_stop: QtGui.QAction
    act_regenerate: QtGui.QAction
    act_copy_answer: QtGui.QAction
    act_focus: QtGui.QAction
    act_zoom_in: QtGui.QAction
    act_zoom_out: QtGui.QAction
    theme_actions: dict[str, QtGui.QAction]
    last_message: tuple[str, str] | None  # (title, text) of the last message shown
    # what the window does (MainWindow's methods)
    message: Callable[..., None]  # (kind, title, text, settings_button=False)
    run_op: Callable[..., None]  # (name, arg): an operation on the assistant thread
    is_streaming: Callable[[], bool]
    rerender_conversation: Callable[[], None]

    @property
    def current_conv(self) -> int | None:
        """The open chat (None: a new chat)."""
        return self.session.current_conv
    send: Callable[..., None]
    stop: Callable[[], None]
    new_chat: Callable[[], None]
    regenerate: Callable[[], None]
    copy_last_answer: Callable[[], None]
    search_memories: Callable[[], None]
    show_right: Callable[[int], None]  # the graph (0) or Memories (1), in view
    show_chat_list: Callable[[], None]  # the chat list in view, the keyboard on it
    find_in_graph: Callable[[], None]
    consolidate_now: Callable[[], None]
    open_settings: Callable[[], None]
    open_backups: Callable[[], None]
    zoom_chat: Callable[..., None]
    set_appearance: Callable[[str], None]
