"""How the main window looks: chat text size, light / dark / system appearance, its place
on the screen, About, and the list of keyboard shortcuts."""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6 import QtCore, QtGui, QtWidgets

from .theme import apply_theme, graph_colors, system_is_dark
from .window_base import WindowBase


def zoom_chat(w: WindowBase, direction: int, steps: int | None = None) -> None:
    """Ctrl+ / Ctrl− : the chat's text size (remembered); 0 = normal size."""
    cur = int(getattr(w, "zoom_steps", 0))
    w.zoom_steps = max(-4, min(10, (0 if direction == 0 else cur + direction) if steps is None else steps))
    base = getattr(w, "base_pt", None)
    if base is None:
        return
    pt = max(6.0, base * (1.1 ** w.zoom_steps))

    def restyle() -> None:
        for widget in (w.chat.view, w.chat.input):
            f = widget.font()
            f.setPointSizeF(pt)
            widget.setFont(f)
        w.chat.view.document().setDefaultFont(w.chat.view.font())
        if w.current_conv is not None and not w.is_streaming():
            w.rerender_conversation()

    w.chat.view.keep_place(restyle)  # the message read before is the one in view after
    QtCore.QSettings().setValue("chat/zoom", w.zoom_steps)


def set_appearance(w: WindowBase, mode: str) -> None:
    """Light, dark, or follow the system (remembered)."""
    w.appearance = mode if mode in ("system", "light", "dark") else "system"
    QtCore.QSettings().setValue("appearance", w.appearance)
    if w.appearance in w.theme_actions:
        w.theme_actions[w.appearance].setChecked(True)
    follow_scheme(w)


def follow_scheme(w: WindowBase) -> None:
    """Apply the chosen (or the system's) palette to the app, the graph and the chat."""
    app = QtWidgets.QApplication.instance()
    mode = getattr(w, "appearance", "system")
    dark = system_is_dark() if mode == "system" else mode == "dark"
    w.dark = dark
    if isinstance(app, QtWidgets.QApplication):
        apply_theme(app, dark)
    c = graph_colors(dark)
    w.graph.apply_colors(c)
    w.graph.select(w.graph.selected)  # the details pane's links take the new palette
    w.timeline.apply_colors(c)
    w.chat.show_focus()
    w.conversations.show_focus()
    # the chat restyles when its palette change arrives (restyle_chat), a moment later


def restyle_chat(w: WindowBase) -> None:
    """The chat view's palette changed: its bubbles are recoloured already (the live
    answer's too); re-render the open chat so code blocks take the new colours."""
    if w.is_streaming():
        return
    if w.current_conv is not None:
        w.rerender_conversation()
    else:
        w.chat.view.show_empty()


# room left for a window manager's frame while it is not known yet (before the window is
# shown, or with no window manager): sides, title bar, bottom
FRAME_ALLOWANCE = QtCore.QMargins(8, 36, 8, 8)


def frame_margins(w: QtWidgets.QWidget) -> QtCore.QMargins:
    """The window manager's frame around `w`, or room for one while it is not known (a
    window not shown yet, or just shown: the frame comes a moment later)."""
    g, fg = w.geometry(), w.frameGeometry()
    m = QtCore.QMargins(g.left() - fg.left(), g.top() - fg.top(),
                        fg.right() - g.right(), fg.bottom() - g.bottom())
    return FRAME_ALLOWANCE if m.isNull() else m


def save_layout(w: WindowBase, qs: QtCore.QSettings) -> None:
    """What `restore_layout` brings back, saved at quit."""
    qs.setValue("window/geometry", w.saveGeometry())
    qs.setValue("window/splitter", w.main_split.saveState())
    qs.setValue("window/right_tab", w.right_tabs.currentIndex())
    qs.setValue("window/memories_tab", w.browser.tabs.currentIndex())
    qs.setValue("graph/focus", w.graph.focus_box.isChecked())
    qs.sync()


def _index(qs: QtCore.QSettings, key: str) -> int:
    try:
        return int(str(qs.value(key, 0) or 0))
    except ValueError:
        return 0


def restore_layout(w: WindowBase, qs: QtCore.QSettings) -> None:
    """The window's size, place and splitters as last saved, then kept on the screen; the
    graph or Memories tab in front, the tab within Memories (Knowledge, Archive…) and
    Focus on active as they were (QA pass 22: they came back as on a first start)."""
    geometry, splits = qs.value("window/geometry"), qs.value("window/splitter")
    if geometry is not None:
        w.restoreGeometry(geometry)
    if splits is not None:
        w.main_split.restoreState(splits)
        w.chat_width.wanted = None  # the split restored is the one wanted
    w.browser.tabs.setCurrentIndex(min(max(_index(qs, "window/memories_tab"), 0),
                                       w.browser.tabs.count() - 1))
    w.right_tabs.setCurrentIndex(min(max(_index(qs, "window/right_tab"), 0),
                                     w.right_tabs.count() - 1))
    w.graph.focus_box.setChecked(str(qs.value("graph/focus", "false")).lower() == "true")
    fit_on_screen(w)


def fit_on_screen(w: QtWidgets.QWidget) -> None:
    """Shrink and move `w` so that it, with its frame, lies within its screen's free area
    (the first window is sized for a large screen; a saved one may come from another, or
    be restored flush with the bottom edge, its frame and the panel over it)."""
    if w.windowState() & (QtCore.Qt.WindowState.WindowMaximized | QtCore.Qt.WindowState.WindowFullScreen):
        return
    g = w.geometry()
    screen = QtGui.QGuiApplication.screenAt(g.center()) or w.screen()
    if screen is None:
        return
    avail = screen.availableGeometry()
    m = frame_margins(w)
    width = max(w.minimumWidth(), min(g.width(), avail.width() - m.left() - m.right()))
    height = max(w.minimumHeight(), min(g.height(), avail.height() - m.top() - m.bottom()))
    x = max(avail.left() + m.left(), min(g.x(), avail.right() + 1 - m.right() - width))
    y = max(avail.top() + m.top(), min(g.y(), avail.bottom() + 1 - m.bottom() - height))
    if (x, y, width, height) != (g.x(), g.y(), g.width(), g.height()):
        w.setGeometry(x, y, width, height)


def about(w: WindowBase) -> None:
    from .. import __version__

    QtWidgets.QMessageBox.about(
        w, "About HeLa Desktop",
        f"<h3>HeLa Desktop {__version__}</h3><p>A private, offline assistant whose memory "
        "is a Hebbian associative graph you can watch form.</p>"
        f"<p>Data folder: {html.escape(str(w.data_dir))}</p>")


# keys that belong to a widget rather than to a menu's action (README "Keyboard")
WIDGET_KEYS = (
    ("Enter", "Send the message (message box)"),
    ("Shift+Enter", "A new line in the message"),
    ("Esc", "Stop an answer; clear a search or filter box; close a dialog"),
    ("Down", "From a search or filter box to its first result"),
    ("Tab, Shift+Tab", "Chat list → chat → message box → graph or Memories, and back"),
    ("F10", "Open the menu bar (then the arrow keys)"),
    ("Alt+Down, Alt+Up (chat)", "Next / previous memory named under an answer; Enter opens it"),
    ("F2", "Rename the chosen chat (chat list)"),
    ("Delete", "Delete the chosen chat (chat list) or memory (Memories)"),
    ("Delete (Archive, Backups)", "After a question: delete for good, or delete the backup"),
    ("Enter (Memories)", "Edit the chosen memory"),
    ("Ctrl+Enter (an edit dialog)", "Save the memory, knowledge or message being edited"),
    ("Enter, F3", "Next match of Find in graph, with its details"),
    ("Shift+Enter, Shift+F3", "Previous match of Find in graph"),
)


def shortcut_rows(w: QtWidgets.QMainWindow) -> list[tuple[str, str]]:
    """(keys, what they do) for every menu action with a shortcut, named by its menu
    ("File ▸ New chat"), then the widgets' own keys (`WIDGET_KEYS`); keys in two menus are
    one row ("File ▸ New chat (also Chat ▸ New chat)": two rows of Ctrl+N read as two
    different things)."""
    rows: list[tuple[str, str]] = []

    def walk(menu: QtCore.QObject | None, path: str) -> None:
        if not isinstance(menu, QtWidgets.QMenu):
            return
        for act in menu.actions():
            text, _, hint = act.text().replace("&", "").partition("\t")
            name = f"{path} ▸ {text}"
            if act.menu() is not None:
                walk(act.menu(), name)
            elif act.shortcuts() or hint:  # a hint: a key a widget of the window owns
                keys = ", ".join(k.toString(QtGui.QKeySequence.SequenceFormat.NativeText)
                                 for k in act.shortcuts()) or hint
                rows.append((keys, name))

    for top in w.menuBar().actions():
        walk(top.menu(), top.text().replace("&", ""))
    names: dict[str, list[str]] = {}
    for keys, name in rows:
        names.setdefault(keys, []).append(name)
    merged = [(keys, first + (f" (also {', '.join(more)})" if more else ""))
              for keys, (first, *more) in names.items()]
    return merged + list(WIDGET_KEYS)


def keyboard_help(w: WindowBase) -> QtWidgets.QDialog:
    """Help ▸ Keyboard shortcuts: every shortcut in one table, in a window that may stay
    open beside the app while the keys are tried (made once, raised again)."""

    def table_of(dlg: QtWidgets.QDialog) -> QtWidgets.QWidget:
        rows = shortcut_rows(w)
        table = QtWidgets.QTableWidget(len(rows), 2, dlg)
        table.setHorizontalHeaderLabels(["Keys", "What they do"])
        for i, (keys, what) in enumerate(rows):
            for j, text in enumerate((keys, what)):
                item = QtWidgets.QTableWidgetItem(text)
                item.setFlags(QtCore.Qt.ItemFlag.ItemIsEnabled | QtCore.Qt.ItemFlag.ItemIsSelectable)
                table.setItem(i, j, item)
        table.verticalHeader().hide()
        table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        table.horizontalHeader().setStretchLastSection(True)
        table.resizeColumnToContents(0)
        dlg.table = table  # type: ignore[attr-defined]  # (for tests)
        return table

    return side_window(w, "keys_dialog", "Keyboard shortcuts", table_of, (620, 560))


def side_window(w: QtWidgets.QMainWindow, attr: str, title: str,
                body: Callable[[QtWidgets.QDialog], QtWidgets.QWidget],
                size: tuple[int, int]) -> QtWidgets.QDialog:
    """A Help window that may stay open beside the app: `body` (made for the dialog) over
    a Close button, kept as the window's `attr`, made once and raised again."""
    dlg = getattr(w, attr, None)
    if dlg is None:
        dlg = QtWidgets.QDialog(w)
        dlg.setWindowTitle(title)
        inner = body(dlg)
        buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Close, dlg)
        buttons.rejected.connect(dlg.close)
        lay = QtWidgets.QVBoxLayout(dlg)
        lay.addWidget(inner)
        lay.addWidget(buttons)
        dlg.resize(*size)
        setattr(w, attr, dlg)
    dlg.show()
    dlg.raise_()
    dlg.activateWindow()
    return dlg
