"""Shared fixtures: the real embedder and the real default GGUF model, loaded once."""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from hela_desktop.config import Settings  # noqa: E402


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item):
    """A window test's windows are deleted before the next test starts.  pytest-qt closes
    them and calls `deleteLater`, but `processEvents` does not run deferred deletes: the
    window was destroyed at the next test's first nested event loop, in the middle of that
    test (seen as a rare crash in `QApplication.setPalette` when the next window restyled
    the application)."""
    import sys

    if "PySide6.QtWidgets" not in sys.modules:
        return
    from PySide6 import QtCore, QtWidgets

    if QtWidgets.QApplication.instance() is not None:
        QtWidgets.QApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)


@pytest.fixture(scope="session")
def qapp(qapp):
    """pytest-qt's application, with the app's style set before any window opens, as
    `run_app` sets it: set first at some test's Dark switch, with earlier tests' windows
    still about, setStyle crashed (a segmentation fault in a fresh-clone run)."""
    from hela_desktop.ui.theme import set_style

    set_style(qapp)
    return qapp


@pytest.fixture(scope="session")
def embedder():
    import os

    from hela_desktop.embedder import Embedder

    # (as the app loads it, `loader`: half the cores, so that the window's own thread finds
    # one free while an answer streams; the default took them all)
    return Embedder(threads=max(1, (os.cpu_count() or 2) // 2))


@pytest.fixture(scope="session")
def llm():
    from hela_desktop.llm import LocalLLM

    return LocalLLM(n_ctx=2048)


@pytest.fixture
def settings() -> Settings:
    s = Settings()
    s.temperature = 0.0  # greedy: the same prompt gives the same answer
    s.max_answer_tokens = 48
    return s


@pytest.fixture
def make_assistant(tmp_path, llm, embedder, settings):
    """Build Assistants on a data folder (default: a fresh one) sharing the loaded models;
    `model`: another chat model, or None for the one the settings name (loaded now)."""
    from hela_desktop.loader import open_assistant

    made = []
    shared = object()

    def make(data_dir=None, s: Settings | None = None, model=shared):
        a = open_assistant(data_dir or tmp_path / "data", s or settings,
                           llm=llm if model is shared else model, embedder=embedder)
        made.append(a)
        return a

    yield make
    for a in made:
        a.store.close()


@pytest.fixture
def seed_dir(tmp_path, embedder):
    """Make a data folder holding the given (user, answer) memories, an hour apart."""
    import time

    from hela_desktop.memory import MemoryEngine, NewEpisode
    from hela_desktop.store import Store

    def make(pairs, name: str = "data"):
        d = tmp_path / name
        d.mkdir()
        with Store(d) as store:
            MemoryEngine(store, embedder, Settings()).add_episodes(
                [NewEpisode(u, a, created_at=time.time() - 3600 * (len(pairs) - i))
                 for i, (u, a) in enumerate(pairs)])
        return d

    return make
