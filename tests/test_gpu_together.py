"""llama.cpp beside torch in one process (`llm.fails_beside_torch`, `doctor`'s "with torch",
`cxx_runtime`).

On an H200 machine (4 December 2026) a CUDA build of llama.cpp crashed every process that
also loaded torch: linked against the system's NCCL (torch's wheels bring their own), and,
built without NCCL, where llama.cpp set up a model's tokenizer (a C++ runtime symbol clash,
gone with libstdc++ loaded globally first). These machines have no GPU, so the crash itself
is stood in for by child processes that really die the same ways (a SIGSEGV, an error
exit); the check, the report and the global C++ runtime are real.
"""

from __future__ import annotations

import signal
import subprocess
import sys

from hela_desktop import llm
from hela_desktop.cli.doctor import format_report, report_ok
from hela_desktop.llm import (
    TOGETHER_STAMP,
    LocalLLM,
    ModelError,
    clash_with_torch,
    cuda_library,
    fails_beside_torch,
    together_check,
)
from hela_desktop.paths import bundled_model_path

SEGFAULT = "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"


def test_the_real_libraries_load_together_here():
    # this machine's CPU build of llama.cpp and CPU torch share a process, the bundled
    # model's tokenizer set up beside torch (where the H200's crash struck)
    code = together_check(bundled_model_path())
    assert "vocab_only=True" in code and code.startswith("import hela_desktop, torch")
    assert fails_beside_torch(code) == ""
    assert fails_beside_torch(together_check("/no/such/model.gguf")).startswith(
        "loading llama.cpp and torch together failed (exit 1)")


def _global(code: str) -> subprocess.CompletedProcess:
    """Whether a child process finds libstdc++'s std::locale::classic() in the global symbol
    scope (where llama.cpp's libraries look first) after `code`."""
    probe = code + "; import ctypes; ctypes.CDLL(None)['_ZNSt6locale7classicEv']"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, check=False)


def test_hela_desktop_puts_the_cxx_runtime_in_the_global_scope_first():
    # Python itself links no C++ runtime, and torch loads its own out of the global scope:
    # the symbol is found only once hela_desktop is imported (cxx_runtime)
    assert _global("import sys").returncode != 0
    assert _global("import torch").returncode != 0
    done = _global("import hela_desktop")
    assert done.returncode == 0, done.stderr.decode()


def test_a_crash_names_its_signal_and_the_rebuild():
    why = fails_beside_torch(SEGFAULT)
    assert "crash when loaded together (SIGSEGV)" in why
    assert "HELA_CUDA=1 make run" in why and "GGML_CUDA_NCCL=OFF" in why


def test_an_error_exit_says_its_last_line():
    why = fails_beside_torch("import sys; print('no libcudart', file=sys.stderr); sys.exit(3)")
    assert why == "loading llama.cpp and torch together failed (exit 3): no libcudart"


def test_a_hang_is_reported_not_waited_on():
    assert "did not finish in 1 s" in fails_beside_torch("import time; time.sleep(30)", timeout=1)


def test_doctor_reports_the_clash_as_a_problem(tmp_path):
    from hela_desktop.cli import build_parser
    from hela_desktop.cli.doctor import doctor_report

    rep = doctor_report(build_parser().parse_args(["doctor", "--data-dir", str(tmp_path)]))
    # this CPU build links no CUDA library: not checked, and no problem
    assert rep["gpu_offload_supported"] is False and rep["beside_torch"] is None
    assert "with torch" not in format_report(rep)
    ok_here = report_ok(rep)
    rep["beside_torch"] = ""  # a GPU build that shares a process with torch
    assert report_ok(rep) == ok_here
    assert "with torch:       loads in one process" in format_report(rep)
    rep["beside_torch"] = fails_beside_torch(SEGFAULT)  # one that crashes beside it
    assert not report_ok(rep)
    text = format_report(rep)
    assert "with torch:       fails  [PROBLEM]" in text and "(SIGSEGV)" in text
    assert signal.SIGSEGV.name in rep["beside_torch"]


def _stand_in_cuda_build(tmp_path):
    """A library folder holding a file named like llama.cpp's CUDA backend: a stand-in for
    a CUDA build, which cannot exist on these machines (no GPU)."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "libggml-cpu.so").write_bytes(b"\x7fELF")
    (lib / "libggml-cuda.so").write_bytes(b"\x7fELF")
    return lib


def test_this_build_has_no_cuda_library_and_needs_no_check():
    assert cuda_library() is None and clash_with_torch() is None


def test_a_cuda_build_is_checked_once_and_a_clash_every_time(tmp_path):
    lib = _stand_in_cuda_build(tmp_path)
    assert cuda_library(lib) == lib / "libggml-cuda.so"
    assert "(SIGSEGV)" in clash_with_torch(lib, SEGFAULT)
    assert not (lib / TOGETHER_STAMP).exists()  # a clash is never remembered as fine
    assert "(SIGSEGV)" in clash_with_torch(lib, SEGFAULT)
    assert clash_with_torch(lib, "pass") == ""  # they share a process: remembered
    assert (lib / TOGETHER_STAMP).read_text().startswith("libggml-cuda.so ")
    assert clash_with_torch(lib, SEGFAULT) == ""  # not checked again for this build
    (lib / "libggml-cuda.so").write_bytes(b"\x7fELF rebuilt")  # a new build: checked again
    assert "(SIGSEGV)" in clash_with_torch(lib, SEGFAULT)
    assert clash_with_torch(lib, "pass") == ""
    stamp = (lib / TOGETHER_STAMP).read_text()
    assert stamp.endswith(" check 2")
    # a build passed by the first check (import only, no tokenizer): checked again
    (lib / TOGETHER_STAMP).write_text(stamp.removesuffix(" check 2"))
    assert "(SIGSEGV)" in clash_with_torch(lib, SEGFAULT)


def test_the_model_is_not_loaded_beside_a_clash(tmp_path, monkeypatch):
    """The app would die at its first answer; instead the model's load fails with the
    reason, which the window and the terminal show as any model error.  (The CUDA build is
    the stand-in above; the crash is a real child process's.)"""
    lib = _stand_in_cuda_build(tmp_path)
    monkeypatch.setattr(llm, "cuda_library", lambda lib_dir=None: lib / "libggml-cuda.so")
    monkeypatch.setattr(llm, "together_check", lambda model=None: SEGFAULT)
    try:
        LocalLLM()
    except ModelError as exc:
        assert "crash when loaded together (SIGSEGV)" in str(exc)
        assert "HELA_CUDA=1 make run" in str(exc)
    else:
        raise AssertionError("the model loaded beside a clash")


def test_a_bundle_is_not_checked(tmp_path, monkeypatch):
    """A PyInstaller bundle's executable is the app, not Python: it cannot run the check
    (it would fail every model load); the bundle's builder checks instead."""
    import sys

    lib = _stand_in_cuda_build(tmp_path)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert clash_with_torch(lib, SEGFAULT) is None
