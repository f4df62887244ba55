"""The main window's menus and their actions (File, Edit, Chat, View, Help)."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from .getting_started import getting_started
from .window_base import WindowBase
from .window_files import FileJobs
from .window_look import about, keyboard_help


def add_action(w: QtWidgets.QWidget, menu: QtWidgets.QMenu, text: str, slot, shortcut=None,
               tip: str = "") -> QtGui.QAction:
    act = QtGui.QAction(text, w)
    if shortcut is not None:
        act.setShortcut(QtGui.QKeySequence(shortcut))
    if tip:
        act.setStatusTip(tip)
    act.triggered.connect(slot)
    menu.addAction(act)
    return act


def build_menus(w: WindowBase, jobs: FileJobs) -> None:
    """Create the menu bar; the actions the window enables or triggers are kept on it."""
    mb = w.menuBar()
    _file_menu(w, jobs, mb.addMenu("&File"))
    e = mb.addMenu("&Edit")
    w.act_find = add_action(w, e, "&Search memories", w.search_memories, "Ctrl+F")
    add_action(w, e, "Find in &graph", w.find_in_graph, "Ctrl+G")
    # its key (Ctrl+Z) belongs to the Memories tab (a text box elsewhere keeps its own
    # undo): the menu shows it after a tab, without taking it window-wide
    undo_key = QtGui.QKeySequence(QtGui.QKeySequence.StandardKey.Undo).toString(
        QtGui.QKeySequence.SequenceFormat.NativeText)
    w.act_undo_delete = add_action(w, e, f"&Undo\t{undo_key}", w.browser.undo_delete, None,
                                   "Take back the latest deletion: in the Memories or "
                                   "Knowledge tab, or by “Forget …” in the chat")
    w.act_undo_delete.setEnabled(False)  # until something is deleted

    def name_the_undo(can: bool) -> None:  # the menu says what Undo will take back
        w.act_undo_delete.setText(f"&{w.browser.undo_text() or 'Undo'}\t{undo_key}")
        w.act_undo_delete.setEnabled(can)
    w.browser.undoChanged.connect(name_the_undo)
    e.addSeparator()
    w.act_reflect = add_action(w, e, "&Reflect now (consolidate and forget)", w.consolidate_now, None,
                               "Distil knowledge from busy memory hubs and archive stale, isolated memories")
    c = mb.addMenu("&Chat")
    c.addAction(w.act_new)  # (also in File: where a chat begins is looked for in both)
    c.addSeparator()
    w.act_send = add_action(w, c, "&Send", lambda: w.chat._submit(w.chat.input.toPlainText().strip()))
    w.act_stop = add_action(w, c, "S&top answer", w.stop, "Esc")
    w.act_stop.setEnabled(False)
    c.addSeparator()
    w.act_regenerate = add_action(w, c, "&Regenerate answer", w.regenerate, "Ctrl+R",
                                  "Answer the last message again (the old answer goes)")
    w.act_copy_answer = add_action(w, c, "&Copy last answer", w.copy_last_answer, "Ctrl+Shift+C")
    _view_menu(w, mb.addMenu("&View"))
    # F10 opens the menu bar, as in GNOME and Windows applications (QA pass 34: it did
    # nothing; Alt+F and the others did)
    f10 = QtGui.QShortcut(QtGui.QKeySequence("F10"), w)
    f10.setContext(QtCore.Qt.ShortcutContext.WindowShortcut)
    f10.activated.connect(lambda: open_menu_bar(mb))
    h = mb.addMenu("&Help")
    w.act_guide = add_action(w, h, "&Getting started", lambda: getting_started(w), None,
                             "What the lines under an answer mean; correcting and forgetting")
    w.act_keys = add_action(w, h, "&Keyboard shortcuts", lambda: keyboard_help(w), "F1",
                            "Every keyboard shortcut in one list")
    add_action(w, h, "&About HeLa Desktop", lambda: about(w))


def _file_menu(w: WindowBase, jobs: FileJobs, f: QtWidgets.QMenu) -> None:
    w.act_new = add_action(w, f, "&New chat", w.new_chat, "Ctrl+N")
    f.addSeparator()
    # (QA pass 35: none of these had a key)
    w.act_export = add_action(w, f, "&Export memories…", jobs.export_memories, "Ctrl+Shift+E",
                              "Write memories to a .hela file (or Markdown)")
    w.act_import = add_action(w, f, "&Import memories…", jobs.import_memories, "Ctrl+Shift+I",
                              "Read memories from a .hela, JSON or text file, or a "
                              "ChatGPT, Claude, Open WebUI or Jan export")
    w.act_import_folder = add_action(
        w, f, "Import &folder…", jobs.import_folder, None,
        "Read a folder of Markdown notes (an Obsidian vault) or Jan threads")
    w.act_export_chat = add_action(w, f, "Export &chat as Markdown…", jobs.export_chat, "Ctrl+Shift+S",
                                   "Write the open chat to a Markdown file")
    w.act_backups = add_action(w, f, "&Backups…", w.open_backups, "Ctrl+Shift+B",
                               "The automatic backups of your memories: back up now, restore one")
    f.addSeparator()
    w.act_settings = add_action(w, f, "&Settings…", w.open_settings, "Ctrl+,")
    w.act_settings.setMenuRole(QtGui.QAction.MenuRole.PreferencesRole)
    f.addSeparator()
    w.act_quit = add_action(w, f, "&Quit", w.close, "Ctrl+Q")
    w.act_quit.setMenuRole(QtGui.QAction.MenuRole.QuitRole)


def _view_menu(w: WindowBase, v: QtWidgets.QMenu) -> None:
    w.act_focus = add_action(w, v, "&Focus on active neighbourhood",
                             lambda on: w.graph.set_focus_mode(on), "Ctrl+Shift+F")
    w.act_focus.setCheckable(True)
    w.graph.focus_box.toggled.connect(w.act_focus.setChecked)
    add_action(w, v, "&Fit graph", lambda: w.graph.fit(), "Ctrl+Shift+H")  # H: the home view
    add_action(w, v, "Memory &graph", lambda: w.show_right(0), "Ctrl+1")
    add_action(w, v, "&Memories", lambda: w.show_right(1), "Ctrl+2")
    add_action(w, v, "&Chat list", w.show_chat_list, "Ctrl+Shift+L")
    v.addSeparator()
    w.act_zoom_in = add_action(w, v, "Zoom &in", lambda: w.zoom_chat(1), QtGui.QKeySequence.StandardKey.ZoomIn)
    w.act_zoom_in.setShortcuts([QtGui.QKeySequence("Ctrl++"), QtGui.QKeySequence("Ctrl+=")])
    w.act_zoom_out = add_action(w, v, "Zoom &out", lambda: w.zoom_chat(-1), "Ctrl+-")
    add_action(w, v, "&Normal size", lambda: w.zoom_chat(0), "Ctrl+0")  # as in browsers
    look = v.addMenu("&Appearance")
    w.theme_actions = {}
    group = QtGui.QActionGroup(w)
    for key, label in (("system", "Follow the &system"), ("light", "&Light"), ("dark", "&Dark")):
        act = add_action(w, look, label, lambda _on=False, k=key: w.set_appearance(k))
        act.setCheckable(True)
        group.addAction(act)
        w.theme_actions[key] = act


def open_menu_bar(mb: QtWidgets.QMenuBar) -> None:
    """Open the menu bar's first menu, with the keyboard on it (F10)."""
    first = next((a for a in mb.actions() if a.isVisible() and a.menu() is not None), None)
    if first is not None:
        mb.setFocus(QtCore.Qt.FocusReason.ShortcutFocusReason)
        mb.setActiveAction(first)
