"""The user at the window: a key, a click or a scroll anywhere in the app counts as being
there (`ActivityWatch`), so idle reflection waits while the window is in use."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6 import QtCore

_KINDS = frozenset({QtCore.QEvent.Type.KeyPress, QtCore.QEvent.Type.MouseButtonPress,
                    QtCore.QEvent.Type.Wheel})


class ActivityWatch(QtCore.QObject):
    """An application-wide event filter (installed at once, `stop` removes it): when the
    user presses a key, clicks or scrolls in any window of the app it tells the worker of
    `client()` (`AssistantWorker.present`), at most once every `every_s` seconds (one
    press reaches several widgets)."""

    def __init__(self, client: Callable[[], Any], parent: QtCore.QObject | None = None,
                 every_s: float = 2.0):
        super().__init__(parent)
        self.client = client
        self.every_s = every_s
        self._last = float("-inf")
        app = QtCore.QCoreApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def stop(self) -> None:
        app = QtCore.QCoreApplication.instance()
        if app is not None:
            app.removeEventFilter(self)

    def eventFilter(self, _obj, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() in _KINDS:
            now = time.monotonic()
            client = self.client()
            if client is not None and now - self._last >= self.every_s:
                self._last = now
                client.worker.present()
        return False
