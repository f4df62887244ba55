"""`Settings.with_overrides`: the one way the CLI, the app and the benchmarks change settings."""

from __future__ import annotations

import pytest

from hela_desktop.config import Settings, SettingsError


def test_overrides_give_a_validated_copy_and_leave_the_original():
    base = Settings()
    s = base.with_overrides(temperature=0, max_answer_tokens=96, model_path="/m/x.gguf",
                            n_gpu_layers=-1, profile="streaming", backend="server",
                            server_url="http://127.0.0.1:8080")
    assert s is not base and s.hela is not base.hela  # a deep copy
    assert s.temperature == 0.0 and type(s.temperature) is float  # an integer is a fine float
    assert s.max_answer_tokens == 96 and s.model_path == "/m/x.gguf"
    assert (s.profile, s.backend, s.server_url) == ("streaming", "server", "http://127.0.0.1:8080")
    assert (base.temperature, base.max_answer_tokens, base.backend) == (0.7, 256, "local")


def test_none_keeps_the_current_value():
    s = Settings(temperature=0.3, model_path="/a.gguf")
    t = s.with_overrides(temperature=None, model_path=None, max_answer_tokens=None)
    assert (t.temperature, t.model_path, t.max_answer_tokens) == (0.3, "/a.gguf", 256)


def test_values_at_the_edges_of_their_range_are_kept():
    # n_ctx 4096: the longest answer is half of it; temperature runs 0..5; top_p 0.01..1
    s = Settings().with_overrides(max_answer_tokens=2048, temperature=5.0, top_p=0.01,
                                  n_gpu_layers=-1, swap_margin=0.0, swap_cost_weight=0.0,
                                  swap_time_budget=0.0, swap_mode="exact")
    assert (s.max_answer_tokens, s.temperature, s.top_p, s.n_gpu_layers) == (2048, 5.0, 0.01, -1)
    assert (s.swap_margin, s.swap_cost_weight, s.swap_time_budget, s.swap_mode) == (
        0.0, 0.0, 0.0, "exact")


@pytest.mark.parametrize("kw, key, nearest", [
    ({"max_answer_tokens": 2049}, "max_answer_tokens", "2048"),  # n_ctx 4096 // 2
    ({"temperature": 5.5}, "temperature", "5.0"),
    ({"top_p": 0.0}, "top_p", "0.01"),
    ({"n_gpu_layers": -2}, "n_gpu_layers", "-1"),
    ({"max_memories": 16}, "max_memories", "15"),
    ({"reretrieve_every": 0}, "reretrieve_every", "1"),
    ({"backend": "cloud"}, "backend", "'local'"),
])
def test_out_of_range_values_are_refused_not_clamped(kw, key, nearest):
    with pytest.raises(SettingsError, match=f"^{key}: .* out of range .* {nearest}\\)$"):
        Settings().with_overrides(**kw)


def test_the_range_follows_the_other_settings():
    # a smaller context halves the longest answer: 1024 tokens allow 512
    s = Settings(n_ctx=1024)
    assert s.with_overrides(max_answer_tokens=512).max_answer_tokens == 512
    with pytest.raises(SettingsError, match="max_answer_tokens"):
        s.with_overrides(max_answer_tokens=513)


def test_unknown_keys_wrong_types_and_bad_choices_are_refused():
    with pytest.raises(SettingsError, match="unknown setting.*no_such_key"):
        Settings().with_overrides(no_such_key=1)
    with pytest.raises(SettingsError, match="unknown setting.*hela"):
        Settings().with_overrides(hela={})
    with pytest.raises(SettingsError, match="model_path: expected str"):
        Settings().with_overrides(model_path=5)
    with pytest.raises(SettingsError, match="n_gpu_layers: expected int"):
        Settings().with_overrides(n_gpu_layers=1.5)
    with pytest.raises(SettingsError, match="temperature: expected float"):
        Settings().with_overrides(temperature=float("nan"))
    with pytest.raises(SettingsError, match="swap_mode"):
        Settings().with_overrides(swap_mode="sideways")


def test_an_unknown_profile_in_settings_json_is_a_settings_problem(tmp_path):
    """doc15 (pass 15): `"profile": "bogus"` passed `doctor` (exit 0) and every window turn
    would fail on it in retrieval; `chat` alone said so, with exit 2 instead of the 3 of a
    malformed settings file.  It is refused when read, naming the file and the profiles."""
    (tmp_path / "settings.json").write_text('{"profile": "bogus"}', encoding="utf-8")
    with pytest.raises(SettingsError, match=r"settings.json.*profile: must be one of hela, "
                                            r"hela-nospread, hela-paper, streaming, dense"):
        Settings.load(tmp_path)
    with pytest.raises(SettingsError, match="profile"):
        Settings().with_overrides(profile="hela-cold")  # a benchmark's method, not a profile
