"""The assistant's parts loaded in steps (`hela_desktop.loader`): the store at once, the
embedder, then the model; a model that fails to load leaves the rest working."""

from __future__ import annotations

import pytest

from hela_desktop.config import Settings
from hela_desktop.llm import ModelError
from hela_desktop.loader import AssistantLoader
from hela_desktop.memory import NewEpisode


def _missing_model(tmp_path) -> Settings:
    s = Settings()
    s.model_path = str(tmp_path / "missing.gguf")
    return s


def test_a_model_that_fails_leaves_the_store_and_engine_working(tmp_path, embedder):
    bare = AssistantLoader(tmp_path / "bare", _missing_model(tmp_path))  # nothing loaded yet
    assert bare.engine is None and bare.assistant is None and bare.llm is None
    assert bare.model_info()["path"].endswith("missing.gguf")  # what the settings name
    assert bare.model_info()["device"] == "—"
    bare.close()
    loader = AssistantLoader(tmp_path / "d", _missing_model(tmp_path), embedder=embedder)
    engine = loader.load_embedder()
    assert loader.load_embedder() is engine and engine.settings is loader.settings
    engine.add_episode(NewEpisode("My sister Ana lives in Lisbon."))
    with pytest.raises(ModelError, match="missing.gguf"):
        loader.load_model()
    assert loader.assistant is None and loader.llm is None
    assert loader.store.count_episodes() == 1  # browsing and editing still work
    # a switch while no model is loaded applies the settings, then loads (fails again here)
    other = _missing_model(tmp_path)
    other.model_path = str(tmp_path / "other.gguf")
    with pytest.raises(ModelError, match="other.gguf"):
        loader.switch_model(other)
    assert loader.settings is other and engine.settings is other
    loader.close()


def test_the_assistant_once_both_parts_exist_and_a_lent_model_stays_open(tmp_path, embedder,
                                                                         llm):
    loader = AssistantLoader(tmp_path / "d", Settings(), llm=llm, embedder=embedder)
    assert loader.assistant is None and loader.model_info()["path"] == str(llm.path)
    a = loader.load_model()
    assert loader.assistant is a and loader.load_model() is a
    assert a.llm is llm and a.engine is loader.engine and a.model_lock is loader.model_lock
    assert a.settings is loader.settings
    # a switch that fails releases the old model all the same (nothing switched away from,
    # a server elsewhere say, is used again: not by a chat, not by idle reflection) and keeps
    # the new settings, which the next load tries
    missing = _missing_model(tmp_path)
    with pytest.raises(ModelError, match="missing.gguf"):
        loader.switch_model(missing)
    assert loader.llm is None and loader.settings is missing and a.settings is missing
    assert loader.model_info()["name"] is None
    with pytest.raises(ModelError, match="missing.gguf"):
        loader.load_model()
    back = Settings()
    loader.switch_model(back)  # (no model: the settings apply and it loads)
    assert loader.load_model() is a and a.llm is loader.llm and loader.llm is not llm
    changed = Settings()
    changed.idle_minutes = 7
    loader.apply_settings(changed)
    assert a.settings is changed
    loader.close()
    assert llm.tokenize("still open", special=False)  # the lent model was not closed
