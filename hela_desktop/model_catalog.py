"""GGUF chat models already on this computer: LM Studio, Jan, GPT4All, Ollama, our folders.

Nothing is copied and nothing is downloaded: the files are found where those apps keep
them and described from their GGUF metadata (name, architecture, quantisation, context
length, chat template), read with the ``gguf`` package without loading the model.

Where each app keeps its models (``~`` is the user's home):

=========  ==================================================================================
LM Studio  ``~/.lmstudio/models/<publisher>/<repo>/*.gguf``, ``~/.cache/lm-studio/models/…``
Jan        ``~/jan/models/<id>/*.gguf``, ``~/.local/share/Jan/data/models/…`` and
           ``…/Jan/data/llamacpp/models/<id>/model.gguf`` (also under ``~/Library/Application
           Support`` and ``%APPDATA%``)
GPT4All    ``~/.local/share/nomic.ai/GPT4All/*.gguf`` (``~/Library/Application Support/
           nomic.ai/GPT4All``, ``%LOCALAPPDATA%/nomic.ai/GPT4All``)
Ollama     ``~/.ollama/models`` (or ``$OLLAMA_MODELS``): ``manifests/<registry>/<namespace>/
           <model>/<tag>`` JSON names the model layer ``sha256:<hex>``, stored as
           ``blobs/sha256-<hex>`` (a GGUF file without extension)
=========  ==================================================================================
"""

from __future__ import annotations

import json
import os
import re
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

GGUF_MAGIC = b"GGUF"
MAX_DEPTH = 5  # folder levels searched below each location


@dataclass
class GGUFInfo:
    """What a GGUF file says about itself."""

    name: str = ""
    architecture: str = ""
    quantization: str = ""
    context_length: int = 0
    chat_template: str = ""
    model_type: str = ""  # general.type ("model", "mmproj", ...)
    bos_text: str = ""
    eos_text: str = ""
    # tensor data the header describes that the file lacks (a download cut short)
    missing_bytes: int = 0


@dataclass
class FoundModel:
    """One GGUF model found on disk."""

    path: Path
    app: str  # "HeLa", "LM Studio", "Jan", "GPT4All", "Ollama"
    name: str
    size: int
    quantization: str
    context_length: int
    chat_template: bool
    architecture: str
    is_chat: bool
    problem: str = ""  # why it cannot be used ("" when it can)

    @property
    def size_text(self) -> str:
        return human_size(self.size)

    @property
    def flag(self) -> str:
        """One word for a model that cannot be used ("" when it can): the list's mark."""
        if not self.problem:
            return ""
        return "damaged" if self.problem.startswith("its header is damaged") else "incomplete"

    def describe(self) -> str:
        """One line for the settings dialog."""
        if self.problem:
            return f"{self.name} — {self.app}, {self.problem}"
        bits = [self.app, self.size_text]
        if self.quantization:
            bits.append(self.quantization)
        if self.context_length:
            bits.append(f"{self.context_length:,} ctx")
        bits.append("chat template" if self.chat_template else
                    f"no chat template ({fallback_format(self.architecture)} used)")
        line = f"{self.name} — " + ", ".join(bits)
        if not self.is_chat:  # (QA pass 23: Gemma 3 270M, a base model, answered "What is
            # my dog called?" with 256 tokens of "What's your dog's name? staan<strong> …")
            line += (". Probably a base model (no chat template, no “instruct” or “chat” "
                     "in its name): it goes on with text rather than answering")
        return line


def fallback_format(architecture: str | None) -> str:
    """The turn format a model file without a chat template is given: its family's where
    known (Gemma's), else ChatML."""
    return "Gemma" if (architecture or "").startswith("gemma") else "ChatML"


def human_size(n: int) -> str:
    """Bytes in B/KB/MB/GB/TB (powers of 1024, one decimal from MB up)."""
    units = ["B", "KB", "MB", "GB", "TB"]
    x = float(n)
    for u in units:
        if x < 1024 or u == units[-1]:
            return f"{x:.0f} {u}" if u in ("B", "KB") else f"{x:.1f} {u}"
        x /= 1024
    return f"{n} B"  # pragma: no cover


def is_gguf(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == GGUF_MAGIC
    except OSError:
        return False


def _quant_name(file_type: int | None) -> str:
    if file_type is None:
        return ""
    try:
        from gguf import LlamaFileType

        name = LlamaFileType(int(file_type)).name
    except (ImportError, ValueError):
        return f"type {file_type}"
    return name.removeprefix("MOSTLY_")


# GGUF value types (gguf.GGUFValueType): struct format of the fixed-size ones
_SCALAR = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q",
           12: "d"}
_STRING, _ARRAY = 8, 9
_STRUCTS: dict[str, struct.Struct] = {}


class _HeaderReader:
    """Reads a GGUF header field by field (struct formats from gguf.GGUFValueType)."""

    def __init__(self, fh, path: str | Path, keep_index: dict[str, set[int]]):
        self.fh, self.path, self.keep_index = fh, path, keep_index

    def read(self, fmt: str):
        st = _STRUCTS.get(fmt) or _STRUCTS.setdefault(fmt, struct.Struct("<" + fmt))
        data = self.fh.read(st.size)
        if len(data) != st.size:
            raise ValueError(f"{self.path}: truncated GGUF header")
        return st.unpack(data)[0]

    def string(self) -> str:
        n = self.read("Q")
        if n > 1 << 24:
            raise ValueError(f"{self.path}: implausible string length {n}")
        return self.fh.read(n).decode("utf-8", "replace")

    def value(self, t: int, key: str):
        if t in _SCALAR:
            return self.read(_SCALAR[t])
        if t == _STRING:
            return self.string()
        if t != _ARRAY:
            raise ValueError(f"{self.path}: unknown GGUF value type {t}")
        et, count = self.read("I"), self.read("Q")
        want = self.keep_index.get(key, set())
        kept: dict[int, object] = {}
        if et in _SCALAR and not want:
            self.fh.seek(count * struct.calcsize("<" + _SCALAR[et]), 1)
            return kept
        if et == _STRING:  # (the vocabulary: skipped without decoding, but for `want`)
            for i in range(count):
                n = self.read("Q")
                if i in want:
                    kept[i] = self.fh.read(n).decode("utf-8", "replace")
                else:
                    self.fh.seek(n, 1)
            return kept
        for i in range(count):
            v = self.value(et, "")
            if i in want:
                kept[i] = v
        return kept

    def metadata(self) -> tuple[dict, int]:
        """(the key/value metadata, the tensor count); the file is left after the metadata."""
        if self.fh.read(4) != GGUF_MAGIC:
            raise ValueError(f"{self.path}: not a GGUF file")
        version = self.read("I")
        if version < 2:
            raise ValueError(f"{self.path}: GGUF version {version} is too old")
        n_tensors = self.read("Q")
        n_kv = self.read("Q")
        meta = {}
        for _ in range(n_kv):
            key = self.string()
            meta[key] = self.value(self.read("I"), key)
        return meta, n_tensors

    def data_end(self, meta: dict, n_tensors: int) -> int | None:
        """Where the tensor data ends, from the tensor descriptions that follow the
        metadata (None for a tensor type the ``gguf`` package does not know)."""
        try:
            from gguf import GGML_QUANT_SIZES, GGMLQuantizationType
        except ImportError:  # pragma: no cover - a dependency of llama-cpp-python's tools
            return None
        end = 0
        for _ in range(n_tensors):
            self.string()  # the tensor's name
            dims = [self.read("Q") for _ in range(self.read("I"))]
            kind, offset = self.read("I"), self.read("Q")
            try:
                block, size = GGML_QUANT_SIZES[GGMLQuantizationType(kind)]
            except (ValueError, KeyError):
                return None
            elements = 1
            for d in dims:
                elements *= d
            end = max(end, offset + elements // block * size)
        align = meta.get("general.alignment")
        align = align if isinstance(align, int) and align > 0 else 32
        return -(-self.fh.tell() // align) * align + end


def read_gguf_metadata(path: str | Path, *, keep_index: dict[str, set[int]] | None = None) -> dict:
    """The key/value metadata of a GGUF file, without loading tensors.

    Arrays are skipped (they hold the vocabulary: tens of thousands of entries) except the
    elements named in `keep_index` ({key: {indices}}), returned as ``{key: {index: value}}``.
    The ``gguf`` package parses the same format (and every array); this reads only what
    the model list shows, in milliseconds.
    """
    with open(path, "rb") as fh:
        return _HeaderReader(fh, path, keep_index or {}).metadata()[0]


def read_gguf_info(path: str | Path) -> GGUFInfo:
    """What the model list shows of a GGUF file (raises ValueError/OSError)."""
    first = read_gguf_metadata(path)
    ids = {int(first[k]) for k in ("tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id")
           if isinstance(first.get(k), int)}
    with open(path, "rb") as fh:  # again, keeping those two tokens, on to the tensors
        reader = _HeaderReader(fh, path, {"tokenizer.ggml.tokens": ids} if ids else {})
        meta, n_tensors = reader.metadata()
        end = reader.data_end(meta, n_tensors)
    tokens = meta.get("tokenizer.ggml.tokens") or {}
    arch = str(meta.get("general.architecture") or "")
    info = GGUFInfo(
        name=str(meta.get("general.name") or ""),
        architecture=arch,
        quantization=_quant_name(meta.get("general.file_type")),
        context_length=int(meta.get(f"{arch}.context_length") or 0),
        chat_template=str(meta.get("tokenizer.chat_template") or ""),
        model_type=str(meta.get("general.type") or ""),
        missing_bytes=max(0, end - os.path.getsize(path)) if end is not None else 0,
    )
    bos, eos = meta.get("tokenizer.ggml.bos_token_id"), meta.get("tokenizer.ggml.eos_token_id")
    info.bos_text = str(tokens.get(bos, "")) if isinstance(bos, int) else ""
    info.eos_text = str(tokens.get(eos, "")) if isinstance(eos, int) else ""
    return info


NOT_CHAT_ARCHS = {"bert", "nomic-bert", "jina-bert-v2", "t5encoder", "clip", "wavtokenizer-dec"}


def looks_like_chat(info: GGUFInfo, filename: str) -> bool:
    """A chat model: a chat template, or an instruct/chat name; never a projector or encoder."""
    if info.model_type in ("mmproj", "adapter") or info.architecture in NOT_CHAT_ARCHS:
        return False
    if "mmproj" in filename.lower():
        return False
    if info.chat_template:
        return True
    low = f"{info.name} {filename}".lower()
    return any(w in low for w in ("instruct", "chat", "-it", "_it"))


def locations(home: Path | None = None,
              env: Mapping[str, str] | None = None) -> list[tuple[str, Path]]:
    """(app, folder) pairs where GGUF models are usually kept, existing or not."""
    home = Path(home) if home is not None else Path.home()
    var: Mapping[str, str] = os.environ if env is None else env
    mac = home / "Library" / "Application Support"
    roaming = Path(var["APPDATA"]) if var.get("APPDATA") else home / "AppData" / "Roaming"
    local = Path(var["LOCALAPPDATA"]) if var.get("LOCALAPPDATA") else home / "AppData" / "Local"
    xdg = Path(var["XDG_DATA_HOME"]) if var.get("XDG_DATA_HOME") else home / ".local" / "share"
    out = [("LM Studio", home / ".lmstudio" / "models"),
           ("LM Studio", home / ".cache" / "lm-studio" / "models"),
           ("Jan", home / "jan" / "models")]
    for base in (xdg, mac, roaming):
        out += [("Jan", base / "Jan" / "data" / "models"),
                ("Jan", base / "Jan" / "data" / "llamacpp" / "models")]
    for base in (xdg, mac, local):
        out.append(("GPT4All", base / "nomic.ai" / "GPT4All"))
    if var.get("OLLAMA_MODELS"):
        out.append(("Ollama", Path(var["OLLAMA_MODELS"])))
    out.append(("Ollama", home / ".ollama" / "models"))
    return out


def _walk_gguf(folder: Path, depth: int = MAX_DEPTH):
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for e in sorted(entries, key=lambda e: e.name):
        try:
            if e.is_dir():
                if depth > 0 and not e.name.startswith("."):
                    yield from _walk_gguf(Path(e.path), depth - 1)
            elif e.name.lower().endswith(".gguf") and e.is_file():
                yield Path(e.path)
        except OSError:
            continue


def ollama_models(root: Path) -> list[tuple[str, Path]]:
    """(name:tag, blob path) for every model an Ollama folder's manifests name."""
    manifests = Path(root) / "manifests"
    out: list[tuple[str, Path]] = []
    if not manifests.is_dir():
        return out
    for mf in sorted(p for p in manifests.rglob("*") if p.is_file()):
        try:
            data = json.loads(mf.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            continue
        layers = data.get("layers") if isinstance(data, dict) else None
        for layer in layers if isinstance(layers, list) else []:
            if not isinstance(layer, dict):
                continue
            if layer.get("mediaType") != "application/vnd.ollama.image.model":
                continue
            digest = str(layer.get("digest", ""))
            blob = Path(root) / "blobs" / digest.replace(":", "-")
            if not blob.is_file():
                continue
            rel = mf.relative_to(manifests).parts  # registry, namespace, model, tag
            model, tag = (rel[-2], rel[-1]) if len(rel) >= 2 else (rel[-1], "latest")
            ns = rel[-3] if len(rel) >= 3 else "library"
            out.append((f"{'' if ns == 'library' else ns + '/'}{model}:{tag}", blob))
    return out


# what each file's header said, by (path, mtime, size): a vocabulary of 150,000 tokens
# takes a tenth of a second to pass over, and the list is read each time Settings opens
_INFO_CACHE: dict[tuple[str, int, int], GGUFInfo] = {}


def damaged_text(path: str | Path, exc: BaseException) -> str:
    """Why a GGUF file whose header could not be read cannot be used."""
    return f"its header is damaged ({str(exc).removeprefix(f'{path}: ')})"


def describe(path: Path, app: str, name: str | None = None) -> FoundModel | None:
    """A FoundModel for one file, or None when it is not a GGUF file at all (other first
    bytes) or cannot be opened. A GGUF file whose header cannot be read is one, listed
    with its `problem` (a damaged download is seen, not silently left out)."""
    if not is_gguf(path):
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    key = (str(path), st.st_mtime_ns, st.st_size)
    try:
        info = _INFO_CACHE.get(key) or read_gguf_info(path)
    except Exception as exc:  # noqa: BLE001 - any unreadable header: said, never fatal
        return FoundModel(path=path, app=app, name=name or display_name(path), size=st.st_size,
                          quantization="", context_length=0, chat_template=False,
                          architecture="", is_chat="mmproj" not in path.name.lower(),
                          problem=damaged_text(path, exc))
    size = st.st_size
    _INFO_CACHE[key] = info  # (Settings opened again reads no header again)
    problem = incomplete_text(size, info.missing_bytes) or missing_parts_text(path)
    parts = split_parts(path)
    if parts is not None:  # the whole model's size
        size = sum(p.stat().st_size for p in parts if p.is_file())
    return FoundModel(path=path, app=app, name=name or display_name(path), size=size,
                      quantization=info.quantization, context_length=info.context_length,
                      chat_template=bool(info.chat_template), architecture=info.architecture,
                      is_chat=looks_like_chat(info, path.name), problem=problem)


# a model split into parts, as llama.cpp's gguf-split writes them (LM Studio and Hugging Face
# keep large models so): llama.cpp loads them all from the first
_SPLIT = re.compile(r"^(?P<stem>.+)-(?P<no>\d{5})-of-(?P<count>\d{5})\.gguf$", re.IGNORECASE)


def split_part(path: Path) -> int | None:
    """The part number of a split model's file (1 for the first), None for a whole file."""
    m = _SPLIT.match(Path(path).name)
    return int(m["no"]) if m else None


def split_parts(path: Path) -> list[Path] | None:
    """Every part's path of the split model `path` is a part of (None: not split)."""
    m = _SPLIT.match(Path(path).name)
    if not m:
        return None
    n, width = int(m["count"]), len(m["count"])
    return [Path(path).with_name(f"{m['stem']}-{i:0{width}d}-of-{m['count']}.gguf")
            for i in range(1, n + 1)]


def missing_parts_text(path: Path) -> str:
    """What a model list says of a split model with parts missing ("" when all are there)."""
    parts = split_parts(path) or []
    missing = [str(i) for i, p in enumerate(parts, 1) if not p.is_file()]
    if not missing:
        return ""
    return (f"part{'s' if len(missing) > 1 else ''} {', '.join(missing)} of {len(parts)} "
            "missing (a download not finished?)")


def incomplete_text(size: int, missing: int) -> str:
    """What a model list says of a file that lacks part of its tensor data ("" if whole)."""
    if missing <= 0:
        return ""
    return f"incomplete: {human_size(size)} of {human_size(size + missing)} (a download cut short?)"


def display_name(path: str | Path) -> str:
    """A model file's name as its app shows it: ``name:tag`` for an Ollama blob (from the
    manifest that names it), the model's folder for Jan's ``<id>/model.gguf``, else the file
    name without ``.gguf`` — the file names tell apart what one GGUF name (``general.name``,
    often a training run's) gives to every quantisation and copy of a model."""
    p = Path(path)
    split = _SPLIT.match(p.name)
    if split:
        return split["stem"]
    if p.parent.name == "blobs" and p.name.startswith("sha256-"):
        for name, blob in ollama_models(p.parent.parent):
            if blob.name == p.name:
                return name
    if p.stem.lower() == "model" and p.parent.name:
        return p.parent.name
    return p.stem


def why_unusable(path: str | Path) -> str:
    """Why llama.cpp cannot use a GGUF file as a chat model, as far as its header tells
    ("" when it tells nothing: a whole chat model, or an architecture llama.cpp lacks)."""
    try:
        info = read_gguf_info(path)
        size = os.path.getsize(path)
    except (OSError, ValueError) as exc:
        return damaged_text(path, exc)
    if info.missing_bytes:
        return "it is " + incomplete_text(size, info.missing_bytes)
    parts = split_parts(Path(path)) or []
    if parts and parts[0] != Path(path):
        return f"it is a later part of a split model: choose its first part, {parts[0].name}"
    if missing_parts_text(Path(path)):
        return "it is split into parts: " + missing_parts_text(Path(path))
    if info.model_type == "mmproj" or "mmproj" in Path(path).name.lower():
        return "it is an image projector (mmproj) for a vision model, not a chat model"
    if info.architecture in NOT_CHAT_ARCHS:
        return f"it is an embedding or encoder model ({info.architecture}), not a chat model"
    return ""


def find_models(home: Path | None = None, extra: list[tuple[str, Path]] | None = None,
                env: dict | None = None, *, chat_only: bool = True) -> list[FoundModel]:
    """GGUF models in `extra` folders (ours first) and the usual places of the other apps.

    A file reached twice (a symlink, a shared folder) is listed once, under the first name.
    """
    found: list[FoundModel] = []
    seen: set[Path] = set()

    def add(path: Path, app: str, name: str | None = None) -> None:
        try:
            key = path.resolve()
        except OSError:
            return
        if key in seen:
            return
        m = describe(path, app, name)
        if m is not None and (m.is_chat or not chat_only):
            seen.add(key)
            found.append(m)

    for app, folder in list(extra or []) + locations(home, env):
        if not Path(folder).is_dir():
            continue
        if app == "Ollama":
            for name, blob in ollama_models(Path(folder)):
                add(blob, app, name)
            continue
        for p in _walk_gguf(Path(folder)):
            if split_part(p) in (None, 1):  # a split model: listed once, by its first part
                add(p, app)
    return found


__all__ = ["FoundModel", "GGUFInfo", "find_models", "locations", "ollama_models",
           "read_gguf_info", "describe", "human_size", "looks_like_chat", "display_name",
           "why_unusable", "damaged_text", "incomplete_text", "fallback_format", "split_parts"]
