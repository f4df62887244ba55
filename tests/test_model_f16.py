"""The bundled model is run from an F16 copy of its weights (`hela_desktop.model_f16`):
real conversions by llama.cpp, real loads, real answers."""

from __future__ import annotations

import os
import shutil

import pytest

from hela_desktop import model_f16
from hela_desktop.kvcache import ModelError
from hela_desktop.paths import bundled_model_path

FRANCE = ("<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging "
          "Face<|im_end|>\n<|im_start|>user\nWhat is the capital of France?<|im_end|>\n"
          "<|im_start|>assistant\n")  # the model's own default system prompt


def _answer(llm, prompt: str, n: int = 12) -> str:
    out = llm._llm(prompt, temperature=0, max_tokens=n)
    return out["choices"][0]["text"]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The copy goes to a folder of the test's own (`HELA_F16_DIR`), not beside the
    bundled file where the other tests' copy lives."""
    monkeypatch.setenv("HELA_F16_DIR", str(tmp_path / "f16"))
    monkeypatch.delenv("HELA_BUNDLED_F16", raising=False)
    return tmp_path / "f16"


def test_the_copy_goes_beside_the_bundled_file(monkeypatch):
    """Nothing is written into the user's home: the copy is one of the app's own files."""
    monkeypatch.delenv("HELA_F16_DIR", raising=False)
    src = bundled_model_path()
    assert model_f16.copy_path(src) == src.parent / "SmolLM2-135M-Instruct.Q4_1.F16.gguf"


def test_the_copy_is_made_once_and_again_when_the_file_changes(tmp_path, cache):
    src = tmp_path / "model.gguf"
    shutil.copyfile(bundled_model_path(), src)
    out = model_f16.f16_copy(src)
    assert out.parent == cache and out.read_bytes()[:4] == b"GGUF"
    assert 2.5 < out.stat().st_size / src.stat().st_size < model_f16.GROWTH
    assert not list(cache.glob("*.part"))  # written under another name, then renamed
    made = out.stat().st_mtime_ns
    assert model_f16.f16_copy(src) == out and out.stat().st_mtime_ns == made  # not made again
    assert model_f16.state(src) == str(out)
    with open(src, "r+b") as fh:  # the file replaced (a package upgrade): its last bytes differ
        fh.seek(-100, os.SEEK_END)
        last = fh.read(1)
        fh.seek(-100, os.SEEK_END)
        fh.write(bytes([last[0] ^ 1]))
    assert model_f16.current_copy(src) is None
    assert "made when the model is first loaded" in model_f16.state(src)
    assert model_f16.f16_copy(src).stat().st_mtime_ns != made


def test_the_bundled_model_answers_from_its_f16_copy(cache):
    """The 4-bit file, multiplied by 8-bit activations, answered "What is the capital of
    France?" with "L'Étoile, la Marseillaise, la femme, …"; its F16 copy, the same weights
    at full precision, names Paris (as the Hugging Face reference does)."""
    from hela_desktop.llm import LocalLLM

    llm = LocalLLM(n_ctx=512)
    assert llm.path == bundled_model_path() and llm.f16_problem is None
    assert llm.run_path.parent == cache and llm.run_path.name.endswith(".F16.gguf")
    assert "Paris" in _answer(llm, FRANCE)


def test_without_the_copy_the_four_bit_file_answers(cache, monkeypatch):
    """Switched off, or when the copy cannot be made (its folder is a file here), the
    4-bit file is loaded and the reason is kept; a model the user chose is never widened."""
    from hela_desktop.llm import LocalLLM

    monkeypatch.setenv("HELA_BUNDLED_F16", "0")
    off = LocalLLM(n_ctx=512)
    assert off.run_path == off.path == bundled_model_path() and off.f16_problem is None
    assert "Paris" not in _answer(off, FRANCE)  # the reason for the copy
    assert model_f16.state(bundled_model_path()).startswith("off")
    monkeypatch.delenv("HELA_BUNDLED_F16")
    cache.write_text("not a folder")  # (an install folder that cannot be written)
    blocked = LocalLLM(n_ctx=512)
    assert blocked.run_path == bundled_model_path()
    assert "cannot make the folder" in blocked.f16_problem


def test_a_spoilt_copy_falls_back_to_the_file_itself(cache):
    """A copy cut short after it was made (a full disk, a crash of another program) still
    has its stamp; loading it fails, and the 4-bit file answers instead."""
    from hela_desktop.llm import LocalLLM

    src = bundled_model_path()
    out = model_f16.f16_copy(src)
    with open(out, "r+b") as fh:
        fh.truncate(4096)
    assert model_f16.current_copy(src) == out  # the stamp cannot tell
    llm = LocalLLM(n_ctx=512)
    assert llm.run_path == src and str(out) in (llm.f16_problem or "")
    assert _answer(llm, FRANCE, 4).strip()


def test_another_model_is_not_widened(tmp_path, cache):
    from hela_desktop.llm import LocalLLM

    other = tmp_path / "my-model.gguf"
    shutil.copyfile(bundled_model_path(), other)
    llm = LocalLLM(other, n_ctx=512)
    assert llm.run_path == other and not cache.exists()


def test_no_room_is_a_clear_error(tmp_path, cache, monkeypatch):
    """A disk without room for the copy (simulated: the free space reported is what
    cannot be arranged on this machine) is named, with the room needed."""
    monkeypatch.setattr(model_f16, "_free_bytes", lambda folder: 10 * 2**20)
    with pytest.raises(ModelError, match=r"10 MB free, the F16 copy needs about \d+ MB"):
        model_f16.f16_copy(bundled_model_path())
    assert not list(cache.glob("*"))
