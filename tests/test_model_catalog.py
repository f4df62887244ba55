"""Models already on disk: LM Studio, Jan, GPT4All and Ollama layouts, built in a temporary
home with the bundled GGUF file (symlinks and copies), described from GGUF metadata."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from hela_desktop.model_catalog import (
    find_models,
    human_size,
    locations,
    ollama_models,
    read_gguf_info,
    read_gguf_metadata,
)
from hela_desktop.paths import bundled_model_path

MODEL = bundled_model_path()
pytestmark = pytest.mark.skipif(MODEL is None, reason="the bundled model is not installed")


@pytest.mark.slow
def test_metadata_matches_the_gguf_package():
    """Our fast reader agrees with the gguf package's full parse on every scalar we show."""
    from gguf import GGUFReader, LlamaFileType

    r = GGUFReader(str(MODEL))
    meta = read_gguf_metadata(MODEL)
    for key in ("general.name", "general.architecture", "llama.context_length",
                "general.file_type", "tokenizer.chat_template", "tokenizer.ggml.eos_token_id"):
        assert meta[key] == r.fields[key].contents(), key
    info = read_gguf_info(MODEL)
    assert info.quantization == LlamaFileType(meta["general.file_type"]).name.removeprefix("MOSTLY_")
    assert info.quantization == "Q4_1" and info.context_length == 8192
    eos = r.fields["tokenizer.ggml.eos_token_id"].contents()
    assert info.eos_text == r.fields["tokenizer.ggml.tokens"].contents(eos) == "<|im_end|>"
    assert info.chat_template.startswith("{% for message in messages %}")


def _home(tmp_path: Path) -> Path:
    """A home folder with the bundled model laid out as each app lays out its models."""
    home = tmp_path / "home"
    lms = home / ".lmstudio" / "models" / "HuggingFaceTB" / "SmolLM2-GGUF"
    lms.mkdir(parents=True)
    (lms / "smollm2-lmstudio.Q4_1.gguf").symlink_to(MODEL)
    jan = home / ".local" / "share" / "Jan" / "data" / "llamacpp" / "models" / "smollm2-jan"
    jan.mkdir(parents=True)
    shutil.copyfile(MODEL, jan / "model.gguf")  # a real copy: a second, distinct file
    (jan / "model.yml").write_text("model_path: model.gguf\n")
    g4a = home / ".local" / "share" / "nomic.ai" / "GPT4All"
    g4a.mkdir(parents=True)
    (g4a / "smollm2-gpt4all.gguf").symlink_to(MODEL)
    (g4a / "notes.txt").write_text("not a model")
    (g4a / "broken.gguf").write_bytes(b"GGUF\x03\x00")  # truncated: listed greyed, never fatal
    (g4a / "page.gguf").write_bytes(b"<html>Not found</html>")  # not GGUF at all: left out
    (g4a / "mmproj-vision.gguf").symlink_to(MODEL)  # a projector name: not a chat model
    # Ollama: a manifest names the model layer by digest; the blob has no extension
    olla = home / ".ollama" / "models"
    digest = hashlib.sha256(b"smollm2").hexdigest()
    (olla / "blobs").mkdir(parents=True)
    (olla / "blobs" / f"sha256-{digest}").symlink_to(MODEL)
    man = olla / "manifests" / "registry.ollama.ai" / "library" / "smollm2"
    man.mkdir(parents=True)
    (man / "135m").write_text(json.dumps({"schemaVersion": 2, "layers": [
        {"mediaType": "application/vnd.ollama.image.model", "digest": f"sha256:{digest}",
         "size": MODEL.stat().st_size},
        {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:00"}]}))
    (man / "missing").write_text(json.dumps({"layers": [
        {"mediaType": "application/vnd.ollama.image.model", "digest": "sha256:ff"}]}))
    return home


def test_finds_lm_studio_jan_gpt4all_and_ollama_models(tmp_path):
    home = _home(tmp_path)
    # the symlinks all point at the same file: listed once, under the first app that has it
    found = find_models(home=home, env={})
    by_app = {m.app: m for m in found}
    assert set(by_app) == {"LM Studio", "Jan", "GPT4All"}
    assert by_app["GPT4All"].path.name == "broken.gguf"  # (the other two are the same file)
    assert by_app["GPT4All"].problem == "its header is damaged (truncated GGUF header)"
    assert by_app["LM Studio"].path.name == "smollm2-lmstudio.Q4_1.gguf"
    assert by_app["Jan"].path.name == "model.gguf"
    # each layout on its own
    for app, rel in (("GPT4All", ".local/share/nomic.ai/GPT4All"), ("Ollama", ".ollama/models")):
        only = find_models(home=tmp_path / "none", extra=[(app, home / rel)], env={})
        assert [m.app for m in only if not m.problem] == [app]
    ollama = find_models(home=tmp_path / "none", extra=[("Ollama", home / ".ollama/models")],
                         env={})[0]
    assert ollama.name == "smollm2:135m" and ollama.path.name.startswith("sha256-")
    m = by_app["Jan"]
    assert m.size == MODEL.stat().st_size and m.quantization == "Q4_1"
    assert m.context_length == 8192 and m.chat_template and m.is_chat
    assert m.describe() == (f"{m.name} — Jan, {human_size(m.size)}, Q4_1, 8,192 ctx, "
                            "chat template")


def test_ollama_manifest_to_blob_and_env_override(tmp_path):
    home = _home(tmp_path)
    pairs = ollama_models(home / ".ollama" / "models")
    assert [n for n, _ in pairs] == ["smollm2:135m"]  # the manifest without a blob is skipped
    moved = tmp_path / "elsewhere"
    shutil.move(str(home / ".ollama" / "models"), moved)
    apps = dict((str(p), a) for a, p in locations(home, {"OLLAMA_MODELS": str(moved)}))
    assert apps[str(moved)] == "Ollama"
    found = find_models(home=home, env={"OLLAMA_MODELS": str(moved)})
    assert any(m.app == "Ollama" for m in found) is False  # same file: LM Studio listed it first
    only = find_models(home=tmp_path / "none", env={"OLLAMA_MODELS": str(moved)})
    assert [m.name for m in only] == ["smollm2:135m"]


def test_non_chat_files_are_left_out_and_damaged_ones_listed_as_such(tmp_path):
    """A GGUF file whose header cannot be read (a damaged download) was left out without a
    word; it is listed, with why it cannot be used. A file that is no GGUF at all is not."""
    home = _home(tmp_path)
    g4a = home / ".local/share/nomic.ai/GPT4All"
    chat = find_models(home=tmp_path / "none", extra=[("GPT4All", g4a)], env={})
    assert [(m.path.name, m.problem) for m in chat] == [  # not the projector, not page.gguf
        ("broken.gguf", "its header is damaged (truncated GGUF header)"),
        ("smollm2-gpt4all.gguf", "")]
    assert chat[0].flag == "damaged" and chat[0].describe() == (
        "broken — GPT4All, its header is damaged (truncated GGUF header)")
    every = find_models(home=tmp_path / "none", extra=[("GPT4All", g4a)], env={}, chat_only=False)
    # the projector name comes first and is the same file: listed once, not as a chat model
    assert [(m.path.name, m.is_chat) for m in every] == [("broken.gguf", True),
                                                         ("mmproj-vision.gguf", False)]


def test_human_size():
    assert human_size(512) == "512 B"
    assert human_size(2048) == "2 KB"
    assert human_size(103_000_000) == "98.2 MB"
    assert human_size(5 * 1024**3) == "5.0 GB"


@pytest.mark.gui
def test_settings_dialog_lists_found_models_and_the_server_choice(qtbot, tmp_path, monkeypatch):
    pytest.importorskip("pytestqt")
    from hela_desktop.config import Settings
    from hela_desktop.ui.settings_dialog import SettingsDialog, model_changed

    monkeypatch.setattr(SettingsDialog, "_home", _home(tmp_path))
    s = Settings()
    dlg = SettingsDialog(s, tmp_path / "data")
    qtbot.addWidget(dlg)
    qtbot.waitUntil(lambda: not dlg.scanning)  # (read off the window's thread)
    labels = [dlg.model.itemText(i) for i in range(dlg.model.count())]
    assert any(t.endswith("(LM Studio)") for t in labels) and any(t.endswith("(Jan)") for t in labels)
    dlg.model.setCurrentIndex(next(i for i, t in enumerate(labels) if t.endswith("(Jan)")))
    assert "Jan" in dlg.model_details.text() and "Q4_1" in dlg.model_details.text()
    assert not dlg.server_url.isEnabled()  # local by default
    dlg.server_backend.setChecked(True)
    dlg.server_url.setText("http://192.168.1.20:8080")
    assert dlg.server_url.isEnabled() and "unencrypted" in dlg.server_warning.text()
    dlg.server_url.setText("http://127.0.0.1:8080")
    assert dlg.server_warning.text() == ""
    dlg.server_model.setText("qwen2.5-7b")
    dlg.server_key.setText("sk-1")
    new = dlg.result_settings()
    assert (new.backend, new.server_url, new.server_model, new.server_api_key) == (
        "server", "http://127.0.0.1:8080", "qwen2.5-7b", "sk-1")
    assert new.model_path.endswith("model.gguf") and model_changed(s, new)
    new.save(tmp_path)
    assert Settings.load(tmp_path).server_model == "qwen2.5-7b"


def _tiny_gguf(path: Path, arch: str, **strings: str) -> Path:
    """A small GGUF file of another kind (a projector, an embedding model)."""
    import numpy as np
    from gguf import GGUFWriter

    w = GGUFWriter(str(path), arch)
    w.add_name(path.stem)
    for key, value in strings.items():
        w.add_string(key.replace("__", "."), value)
    w.add_tensor("t", np.zeros(16, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def test_models_are_named_as_their_apps_name_them(tmp_path):
    """Every copy and quantisation of a model carries one GGUF name (SmolLM2's is "Smollm2
    135M 8k Lc100K Mix1 Ep2"): the list showed it for all six of a user's files, and the
    status bar named an Ollama model "sha256-b179c9…" and every Jan model "model"."""
    from hela_desktop.model_catalog import display_name

    home = _home(tmp_path)
    names = {m.app: m.name for m in find_models(home=home, env={}) if not m.problem}
    assert names == {"LM Studio": "smollm2-lmstudio.Q4_1", "Jan": "smollm2-jan"}
    blob = ollama_models(home / ".ollama" / "models")[0][1]
    assert display_name(blob) == "smollm2:135m"  # the window's status bar uses this name
    jan = home / ".local/share/Jan/data/llamacpp/models/smollm2-jan/model.gguf"
    assert display_name(jan) == "smollm2-jan"
    assert display_name(tmp_path / "Smöl LM 135M – instruct.gguf") == "Smöl LM 135M – instruct"


def test_an_incomplete_download_is_listed_as_such_and_cannot_be_chosen(tmp_path, monkeypatch):
    """A GGUF file cut short (its header whole, part of its tensors missing) was listed
    like any other model, with its smaller size; choosing it gave "llama.cpp could not
    load this model (Failed to load model from file: <the path again>); the file may be
    corrupt or use an unsupported architecture"."""
    from hela_desktop.llm import LocalLLM, ModelError
    from hela_desktop.model_catalog import read_gguf_info, why_unusable

    folder = tmp_path / "home" / ".lmstudio" / "models" / "someone" / "Cut-GGUF"
    folder.mkdir(parents=True)
    cut = folder / "cut-instruct.Q4_1.gguf"
    data = MODEL.read_bytes()
    cut.write_bytes(data[: len(data) * 4 // 10])
    assert read_gguf_info(MODEL).missing_bytes == 0
    assert read_gguf_info(cut).missing_bytes == len(data) - len(data) * 4 // 10
    (m,) = find_models(home=tmp_path / "home", env={})
    assert m.problem.startswith("incomplete: 37.5 MB of 93.8 MB") and "incomplete" in m.describe()
    with pytest.raises(ModelError) as err:
        LocalLLM(cut)
    text = str(err.value)
    assert "it is incomplete: 37.5 MB of 93.8 MB" in text and text.count(str(cut)) == 1
    # a projector, an embedding model and a damaged header say what they are
    proj = _tiny_gguf(tmp_path / "mmproj-model-f16.gguf", "clip", general__type="mmproj")
    emb = _tiny_gguf(tmp_path / "nomic-embed-text-v1.5.gguf", "nomic-bert")
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(data[:2000])
    assert "image projector (mmproj)" in why_unusable(proj)
    assert "embedding or encoder model (nomic-bert)" in why_unusable(emb)
    assert why_unusable(bad) == "its header is damaged (truncated GGUF header)"
    assert why_unusable(MODEL) == ""


@pytest.mark.gui
def test_the_settings_list_greys_an_incomplete_model(qtbot, tmp_path, monkeypatch):
    pytest.importorskip("pytestqt")
    from PySide6 import QtGui

    from hela_desktop.config import Settings
    from hela_desktop.ui.settings_dialog import SettingsDialog

    home = tmp_path / "home"
    folder = home / ".lmstudio" / "models" / "someone" / "Cut-GGUF"
    folder.mkdir(parents=True)
    (folder / "cut-instruct.Q4_1.gguf").write_bytes(MODEL.read_bytes()[: 40_000_000])
    (folder / "whole-instruct.Q4_1.gguf").symlink_to(MODEL)
    monkeypatch.setattr(SettingsDialog, "_home", home)
    dlg = SettingsDialog(Settings(), tmp_path / "data")
    qtbot.addWidget(dlg)
    qtbot.waitUntil(lambda: not dlg.scanning)
    items = dlg.model.model()
    assert isinstance(items, QtGui.QStandardItemModel)
    rows = {dlg.model.itemText(i): items.item(i).isEnabled() for i in range(dlg.model.count())}
    assert rows["cut-instruct.Q4_1 (LM Studio) — incomplete"] is False
    assert rows["whole-instruct.Q4_1 (LM Studio)"] is True


def test_headers_are_read_once_until_the_file_changes(tmp_path, monkeypatch):
    """Settings reads the list each time it opens: every header was passed over again (a
    tenth of a second for a large vocabulary, per model, on the window's thread)."""
    import os

    from hela_desktop import model_catalog

    folder = tmp_path / "home" / ".lmstudio" / "models" / "a" / "b"
    folder.mkdir(parents=True)
    copy = folder / "copy-instruct.Q4_1.gguf"
    shutil.copyfile(MODEL, copy)
    reads = []
    real = model_catalog.read_gguf_info
    monkeypatch.setattr(model_catalog, "read_gguf_info", lambda p: reads.append(p) or real(p))
    for _ in range(3):
        assert [m.name for m in find_models(home=tmp_path / "home", env={})] == ["copy-instruct.Q4_1"]
    assert reads == [copy]
    st = copy.stat()
    os.utime(copy, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # changed: read again
    find_models(home=tmp_path / "home", env={})
    assert reads == [copy, copy]


def test_a_model_without_a_template_is_said_to_get_the_format_it_gets():
    """A Gemma file without a chat template is given Gemma's turns (`llm.default_template`),
    but the list said "no chat template (ChatML used)" of every such file."""
    from hela_desktop.model_catalog import FoundModel

    def line(arch: str) -> str:
        return FoundModel(path=Path("m.gguf"), app="Jan", name="m", size=1, quantization="",
                          context_length=0, chat_template=False, architecture=arch,
                          is_chat=True).describe()

    assert line("gemma3").endswith("no chat template (Gemma used)")
    assert line("llama").endswith("no chat template (ChatML used)")
    # a file with no template and no chat tuning in its name: said to be a base model
    # (QA pass 23: Gemma 3 270M's base model was listed as any other, and rambled)
    base = FoundModel(path=Path("gemma-3-270m-q4_k_m.gguf"), app="file", name="gemma-3-270m",
                      size=1, quantization="Q4_K_M", context_length=0, chat_template=False,
                      architecture="gemma3", is_chat=False).describe()
    assert "no chat template (Gemma used). Probably a base model" in base


def test_a_model_split_into_parts_is_listed_once(tmp_path):
    """LM Studio keeps a large model as `…-00001-of-00003.gguf` … `-00003-of-00003`: each
    part was listed as a model of its own (a third of its size; choosing part 2 fails),
    and a part still downloading went unnoticed."""
    import os

    from hela_desktop.model_catalog import why_unusable

    folder = tmp_path / "home" / ".lmstudio" / "models" / "someone" / "Big-GGUF"
    folder.mkdir(parents=True)
    parts = [folder / f"Big-Instruct-Q4_K_M-0000{i}-of-00003.gguf" for i in (1, 2, 3)]
    for p in parts:
        os.link(MODEL, p)  # three distinct names (a symlink would be one file, listed once)
    (m,) = find_models(home=tmp_path / "home", env={})
    assert (m.path, m.name, m.size, m.problem) == (parts[0], "Big-Instruct-Q4_K_M",
                                                  3 * MODEL.stat().st_size, "")
    assert why_unusable(parts[1]) == ("it is a later part of a split model: choose its first "
                                      "part, Big-Instruct-Q4_K_M-00001-of-00003.gguf")
    parts[2].unlink()
    (m,) = find_models(home=tmp_path / "home", env={})
    assert m.problem == "part 3 of 3 missing (a download not finished?)"
    assert why_unusable(parts[0]) == ("it is split into parts: part 3 of 3 missing "
                                      "(a download not finished?)")


def test_doctor_lists_a_damaged_model_as_settings_does(tmp_path, monkeypatch):
    """`doctor` and Settings list the same models: a damaged one too, not usable."""
    from hela_desktop.cli.doctor import _other_apps_models

    folder = tmp_path / "home" / ".lmstudio" / "models" / "someone" / "Bad-GGUF"
    folder.mkdir(parents=True)
    (folder / "bad-instruct.Q4_1.gguf").write_bytes(MODEL.read_bytes()[:2000])
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for var in ("XDG_DATA_HOME", "APPDATA", "LOCALAPPDATA", "OLLAMA_MODELS"):
        monkeypatch.delenv(var, raising=False)
    assert _other_apps_models() == [{
        "name": "bad-instruct.Q4_1", "app": "LM Studio", "path": str(folder / "bad-instruct.Q4_1.gguf"),
        "description": "bad-instruct.Q4_1 — LM Studio, its header is damaged (truncated GGUF header)",
        "usable": False}]


def test_settings_marks_files_in_the_models_folder_that_are_no_model(qtbot, tmp_path, monkeypatch):
    """QA pass 23: Settings listed a text file named .gguf like a model (its details line
    blank), a 1 MB cut copy was said to be damaged but not greyed, and a chosen file since
    deleted showed as chosen with a blank line: a user learned of each only after OK.
    Each is now marked in the list and greyed, and the current choice, still choosable,
    says under it why it cannot be used."""
    pytest.importorskip("pytestqt")
    from PySide6 import QtGui

    from hela_desktop.config import Settings
    from hela_desktop.ui.settings_dialog import MODEL_MISSING, NOT_A_MODEL, SettingsDialog

    models = tmp_path / "data" / "models"
    models.mkdir(parents=True)
    (models / "notes-not-a-model.gguf").write_text("my shopping list\n")
    (models / "cut.gguf").write_bytes(MODEL.read_bytes()[:1_000_000])
    shutil.copy(MODEL, models / "good-copy.gguf")  # (a link to it is the bundled one)
    monkeypatch.setattr(SettingsDialog, "_home", tmp_path / "home")
    gone = models / "deleted-model.gguf"
    dlg = SettingsDialog(Settings(model_path=str(gone)), tmp_path / "data")
    qtbot.addWidget(dlg)
    qtbot.waitUntil(lambda: not dlg.scanning and not dlg._describing, timeout=20_000)
    items = dlg.model.model()
    assert isinstance(items, QtGui.QStandardItemModel)
    rows = {dlg.model.itemText(i): items.item(i).isEnabled() for i in range(dlg.model.count())}
    assert rows["notes-not-a-model.gguf — not a model"] is False
    assert rows["cut.gguf — damaged"] is False
    assert rows["good-copy.gguf"] is True
    assert rows["deleted-model.gguf — missing"] is True  # the current choice: says why
    assert dlg.model_path() == str(gone)
    assert dlg.model_details.text() == (f"deleted-model.gguf — {MODEL_MISSING}: choose another "
                                        "model, or the bundled default")
    dlg.model.setCurrentIndex(dlg.model.findData(str(models / "notes-not-a-model.gguf")))
    assert NOT_A_MODEL in dlg.model_details.text()
