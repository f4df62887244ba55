"""The bundled model run at 16-bit precision (Qt-free).

llama.cpp multiplies a 4-bit model's weights by activations rounded to 8 bits.  For a
model of 135 million parameters that rounding decides answers: with the bundled
SmolLM2-135M (Q4_1), "What is the capital of France?" was answered "L'Étoile, la
Marseillaise, la femme, …", while the same weights multiplied at full precision (the
Hugging Face reference, and llama.cpp on an F16 copy) answer "The capital of France is
Paris."  On `bench personal` the F16 copy answered 15 of 61 memory questions right against
12, and 18 with the apology ban (docs/benchmarks.md, sixteenth session), in about the same
time on 2 cores.

`f16_copy` writes the bundled file's weights, widened to F16 (the same numbers, 271 MB),
once, beside the bundled file (the app's own files: the set-up makes it, `python -m
hela_desktop.model_f16`; nothing is written into the user's home) and hands back its
path; `LocalLLM` loads it instead of the 4-bit file.  Anything in the way (no room, an
install folder that cannot be written, a build of llama.cpp without the converter) leaves
the 4-bit file in use, and the reason is kept for `hela-desktop doctor`.  Only the bundled
model is widened: a model the user chose is run as its file says (a 7B model at F16 would
take 14 GB).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .kvcache import ModelError, quiet_stderr

F16_FTYPE = 1  # llama.cpp's LLAMA_FTYPE_MOSTLY_F16
GROWTH = 3.0  # an F16 copy of a Q4_1 file is about 2.8 times its size
STAMP_SUFFIX = ".source.json"


def copy_dir(src: Path) -> Path:
    """Where the F16 copy of `src` is kept: beside it, or in ``$HELA_F16_DIR``."""
    override = os.environ.get("HELA_F16_DIR")
    return Path(override).expanduser() if override else src.parent


def _source_stamp(src: Path) -> dict:
    """What identifies the file a copy was made from, wherever it lies (a bundle moves it):
    its size and a digest of its first and last MiB (its header and its last tensors)."""
    import hashlib

    size, h = src.stat().st_size, hashlib.sha256()
    with open(src, "rb") as fh:
        h.update(fh.read(2**20))
        fh.seek(max(size - 2**20, 0))
        h.update(fh.read(2**20))
    return {"size": size, "sha256_first_last_mib": h.hexdigest()}


def copy_path(src: Path, folder: Path | None = None) -> Path:
    """Where the F16 copy of `src` goes."""
    return (folder or copy_dir(src)) / f"{src.stem}.F16.gguf"


def current_copy(src: Path, folder: Path | None = None) -> Path | None:
    """The F16 copy of `src` if one was made from the file as it is now, else None."""
    out = copy_path(src, folder)
    stamp = out.with_name(out.name + STAMP_SUFFIX)
    try:
        recorded = json.loads(stamp.read_text(encoding="utf-8"))
        with open(out, "rb") as fh:
            magic = fh.read(4)
    except (OSError, ValueError):
        return None
    return out if magic == b"GGUF" and recorded == _source_stamp(src) else None


def state(src: Path | None) -> str:
    """What `doctor` says of the bundled model's F16 copy (nothing is made here)."""
    if src is None:
        return "no bundled model"
    if not wanted():
        return "off (HELA_BUNDLED_F16=0): the 4-bit file answers"
    found = current_copy(src)
    return str(found) if found else f"{copy_path(src)} (made when the model is first loaded)"


def wanted() -> bool:
    """Whether the bundled model is to run from its F16 copy (``HELA_BUNDLED_F16=0``: no)."""
    return os.environ.get("HELA_BUNDLED_F16", "1") != "0"


def run_file(path: Path) -> tuple[Path, str | None]:
    """The file llama.cpp is to run for the model file `path`, and why it is not the F16
    copy where that applies: the bundled model's copy (made now if need be), else `path`."""
    from .paths import bundled_model_path

    bundled = bundled_model_path()
    if bundled is None or not wanted() or Path(path).resolve() != bundled.resolve():
        return Path(path), None
    try:
        return f16_copy(path), None
    except ModelError as exc:  # the 4-bit file answers, as before
        return Path(path), str(exc)


def f16_copy(src: Path, folder: Path | None = None) -> Path:
    """The F16 copy of the GGUF file `src`, made now unless a current one exists.  Written
    under a temporary name and renamed, so an interrupted copy is never loaded.  Raises
    ModelError when it cannot be made (the 4-bit file stays usable)."""
    src = Path(src)
    found = current_copy(src, folder)
    if found is not None:
        return found
    out = copy_path(src, folder)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        free = _free_bytes(out.parent)
    except OSError as exc:
        raise ModelError(f"{out.parent}: cannot make the folder for the F16 copy "
                         f"({exc.strerror or exc})") from exc
    need = int(src.stat().st_size * GROWTH)
    if free < need:
        raise ModelError(f"{out.parent}: {free // 2**20} MB free, the F16 copy needs about "
                         f"{need // 2**20} MB")
    part = out.with_name(f"{out.name}.{os.getpid()}.part")
    try:
        _convert(src, part)
        os.replace(part, out)
        out.with_name(out.name + STAMP_SUFFIX).write_text(json.dumps(_source_stamp(src)),
                                                           encoding="utf-8")
    except OSError as exc:
        raise ModelError(f"{out}: cannot write the F16 copy ({exc.strerror or exc})") from exc
    finally:
        part.unlink(missing_ok=True)
    return out


def _free_bytes(folder: Path) -> int:
    st = os.statvfs(folder)
    return st.f_bavail * st.f_frsize


def _convert(src: Path, dst: Path) -> None:
    """llama.cpp's own converter (`llama_model_quantize`), asked for F16."""
    import ctypes

    try:
        import llama_cpp

        params = llama_cpp.llama_model_quantize_default_params()
    except (ImportError, AttributeError) as exc:
        raise ModelError(f"this llama.cpp cannot convert model files ({exc})") from exc
    params.ftype = F16_FTYPE
    params.allow_requantize = True  # 4-bit in, 16-bit out: widening, nothing is lost
    params.nthread = 0
    with quiet_stderr():
        rc = llama_cpp.llama_model_quantize(str(src).encode(), str(dst).encode(),
                                            ctypes.byref(params))
    if rc != 0:
        raise ModelError(f"{src}: llama.cpp could not make an F16 copy (code {rc})")


def main() -> int:
    """``python -m hela_desktop.model_f16``: make the bundled model's F16 copy now (the
    set-up runs it, so the first start does not wait for it)."""
    from .paths import bundled_model_path

    src = bundled_model_path()
    if src is None or not wanted():
        print("no F16 copy made: " + state(src))
        return 0
    try:
        print(f"bundled model at F16: {f16_copy(src)}")
    except ModelError as exc:
        print(f"no F16 copy made, the 4-bit file will answer: {exc}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
