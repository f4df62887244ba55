"""The Qt side of `hela_desktop.session.Session`: its change callbacks as signals.

The window owns one `SessionSignals`; the assistant thread's `update` signal feeds
`apply` (queued onto the GUI thread), and widgets connect to the per-aspect signals.
"""

from __future__ import annotations

from PySide6 import QtCore

from ..session import Session


class SessionSignals(QtCore.QObject):
    """Holds a `Session`; re-emits each change as the signal of its aspect (GUI thread)."""

    modelChanged = QtCore.Signal(object)  # ModelStatusEvent
    conversationsChanged = QtCore.Signal(object)  # ConversationsEvent
    conversationChanged = QtCore.Signal(object)  # ConversationEvent, or None (a new chat)
    memoryChanged = QtCore.Signal(object)  # MemoryChangedEvent
    reflectionChanged = QtCore.Signal(object)  # ReflectionStartedEvent | ReflectionEvent
    busyChanged = QtCore.Signal(object)  # DoneEvent, or None (an answer began or failed)

    def __init__(self, session: Session | None = None, parent: QtCore.QObject | None = None):
        super().__init__(parent)
        self.session = session or Session()
        self._signals = {"model": self.modelChanged, "conversations": self.conversationsChanged,
                         "conversation": self.conversationChanged, "memory": self.memoryChanged,
                         "reflection": self.reflectionChanged, "busy": self.busyChanged}
        self.session.subscribe(self._relay)

    @QtCore.Slot(object)
    def apply(self, event) -> None:
        self.session.apply(event)

    def _relay(self, aspect: str, event) -> None:
        self._signals[aspect].emit(event)
