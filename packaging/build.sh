#!/usr/bin/env bash
# Build the self-contained Linux bundle (PyInstaller one-folder):
#   packaging/dist/hela-desktop/hela-desktop      the app (window, `chat`, `doctor`, ...)
#   packaging/dist/hela-desktop/_internal/        Python, Qt, torch, llama.cpp, model, embedder
# Usage: packaging/build.sh        (PYTHON=/path/to/python to use another environment)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
PY="${PYTHON:-$ROOT/.venv/bin/python}"
DIST="$HERE/dist"
APP="$DIST/hela-desktop"

if ! "$PY" -c "import PyInstaller" 2>/dev/null; then
    "$PY" -m pip install "pyinstaller>=6.10"
fi
# The hooks import transformers & co. at build time: keep them offline too.
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1 DO_NOT_TRACK=1

cd "$ROOT"
start=$(date +%s)
"$PY" -m PyInstaller --noconfirm --log-level "${PYI_LOG_LEVEL:-WARN}" \
    --distpath "$DIST" --workpath "$HERE/build" "$HERE/hela-desktop.spec"

# Strip the symbol tables of libraries known to survive it (libtorch_cpu.so alone: ~90 MB).
# Not everything: libraries that auditwheel rewrote with patchelf (numpy.libs/, scipy.libs/,
# numpy and scipy extensions) break ("ELF load command address/offset not page-aligned").
# PyInstaller's own strip option runs `strip -S` (debug info only), which saves nothing here.
if command -v strip >/dev/null && command -v readelf >/dev/null; then
    for lib in "$APP"/_internal/torch/lib/{libtorch_cpu,libtorch_python,libc10}.so \
               "$APP"/_internal/tokenizers/*.so \
               "$APP"/_internal/safetensors/*.so "$APP"/_internal/regex/*.so; do
        if [ -f "$lib" ] && readelf -S "$lib" 2>/dev/null | grep -q '\.symtab'; then
            strip --strip-unneeded "$lib" || echo "warning: could not strip $lib" >&2
        fi
    done
fi
# llama.cpp: libmtmd.so needs libllama.so.0, ctypes opens libllama.so: one file, two names.
LL="$APP/_internal/llama_cpp/lib"
if [ -f "$LL/libllama.so.0" ] && cmp -s "$LL/libllama.so" "$LL/libllama.so.0"; then
    ln -sf libllama.so "$LL/libllama.so.0"
fi

# Desktop entry and icon beside the executable (packaging/linux/install-desktop-entry.sh
# installs them for the current user).
cp "$HERE/linux/hela-desktop.desktop" "$HERE/linux/install-desktop-entry.sh" "$APP/"
for icon in "$ROOT/resources/hela-desktop.svg" "$ROOT/resources/hela-desktop.png"; do
    if [ -f "$icon" ]; then cp "$icon" "$APP/"; fi
done

echo "built $APP in $(( $(date +%s) - start )) s"
du -sh "$APP"
