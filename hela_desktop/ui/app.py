"""Entry point of the desktop app: ``run_app(data_dir)`` (what plain ``hela-desktop`` runs)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..config import Settings
from ..folder_lock import FolderBusy, lock_data_dir
from ..paths import default_data_dir, set_offline_env

ORG = "HeLa"
APP = "HeLa Desktop"
EXIT_FOLDER_BUSY = 3  # the CLI's exit status for the environment (cli.common)


def run_app(data_dir: Path | None = None, settings_override: dict | None = None) -> int:
    """Open the main window on `data_dir` (default: the platform data folder, or the one
    the user last chose in Settings); returns the exit code."""
    set_offline_env()
    from PySide6 import QtCore, QtGui, QtWidgets

    from . import window_look
    from .icon import icon_path
    from .main_window import MainWindow
    from .theme import apply_theme

    QtCore.QCoreApplication.setOrganizationName(ORG)
    QtCore.QCoreApplication.setApplicationName(APP)
    existing = QtWidgets.QApplication.instance()
    app = existing if isinstance(existing, QtWidgets.QApplication) else QtWidgets.QApplication(sys.argv[:1])
    app.setApplicationDisplayName(APP)
    if hasattr(QtGui.QGuiApplication, "setDesktopFileName"):
        QtGui.QGuiApplication.setDesktopFileName("hela-desktop")
    ip = icon_path()
    if ip is not None:
        app.setWindowIcon(QtGui.QIcon(str(ip)))
    apply_theme(app)

    qs = QtCore.QSettings()
    # the folder last chosen in Settings wins over the platform default (not over
    # HELA_DATA_DIR or an explicit --data-dir elsewhere)
    if data_dir is None or (Path(data_dir) == default_data_dir() and not os.environ.get("HELA_DATA_DIR")):
        remembered = qs.value("data_dir", "")
        data_dir = Path(str(remembered)) if remembered else default_data_dir()
    data_dir = Path(data_dir).expanduser()
    try:
        lock = lock_data_dir(data_dir, "the desktop app")
    except FolderBusy as exc:  # a second window on the folder: refused, nothing written
        _refuse(exc)
        return EXIT_FOLDER_BUSY
    except OSError:  # no lock file there: the window says what is wrong with the folder
        lock = None
    try:
        settings = Settings.load(data_dir)
    except ValueError as exc:
        from .plain import message_box

        message_box(QtWidgets.QMessageBox.Icon.Warning, APP,
                    f"{exc}\n\nStarting with default settings.").exec()
        settings = Settings()
    settings = settings.with_overrides(**(settings_override or {}))

    win = MainWindow(data_dir, settings)
    win.folder_lock = lock  # the window moves it when the data folder is switched
    win.dataDirChanged.connect(lambda p: qs.setValue("data_dir", p))
    window_look.restore_layout(win, qs)  # as last saved, and on the screen with its frame

    app.aboutToQuit.connect(lambda: window_look.save_layout(win, qs))
    win.show()
    win.chat.input.setFocus()
    try:
        return int(app.exec())
    finally:
        if win.folder_lock is not None:
            win.folder_lock.release()


def _refuse(exc: FolderBusy) -> None:
    """Say that another HeLa Desktop holds the folder: one ``error:`` line on stderr, and a
    dialog where a window can be shown (not on the offscreen platform of tests)."""
    from PySide6 import QtGui, QtWidgets

    print(f"error: {exc}", file=sys.stderr)
    if QtGui.QGuiApplication.platformName() not in ("offscreen", "minimal"):
        QtWidgets.QMessageBox.critical(
            None, APP, f"HeLa Desktop is already open on this data folder.\n\n{exc}")


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(run_app())
