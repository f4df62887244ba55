#!/usr/bin/env bash
# GPU check, for a machine with an NVIDIA GPU and the CUDA toolkit (nvcc):
#   1. builds llama.cpp with CUDA into the virtual environment (rebuilds a CPU-only build),
#   2. `hela-desktop doctor` with offload on,
#   3. one chat turn with all layers offloaded (--gpu-layers -1),
#   4. `hela-desktop bench speed --quick`,
# then prints one summary (also written to $OUT/gpu-check.json when OUT is set).
# Put the figures in docs/benchmarks.md.  Exit status: 0 all passed, 1 a step failed.
#
#   HELA_VENV=.venv   the virtual environment (created by scripts/bootstrap.sh if missing)
#   MODEL=path.gguf   a model to test instead of the bundled SmolLM2-135M
set -uo pipefail
cd "$(dirname "$0")/.."
VENV=${HELA_VENV:-.venv}
PY="$VENV/bin/python"
OUT=${OUT:-$(mktemp -d -t hela-gpu-XXXX)}
mkdir -p "$OUT"
DATA="$OUT/data"
MODEL_ARGS=()
[ -n "${MODEL:-}" ] && MODEL_ARGS=(--model "$MODEL")
export HF_HUB_OFFLINE=1 QT_QPA_PLATFORM=offscreen
fail=0
step() { printf '\033[1m[gpu-check]\033[0m %s\n' "$*" >&2; }

if ! command -v nvidia-smi >/dev/null 2>&1; then
  echo "error: nvidia-smi not found: no NVIDIA GPU (or driver) on this machine" >&2
  exit 1
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$OUT/gpu.txt"
step "GPU: $(cat "$OUT/gpu.txt")"

# 1. llama.cpp with CUDA
if [ -x "$PY" ] && "$PY" -c "import llama_cpp, sys; sys.exit(0 if llama_cpp.llama_supports_gpu_offload() else 1)" 2>/dev/null; then
  step "llama.cpp already has GPU offload"
else
  if [ -x "$PY" ] && "$PY" -c "import llama_cpp" 2>/dev/null; then
    step "removing the CPU-only llama-cpp-python build"
    "$PY" -m pip uninstall -y -q llama-cpp-python
  fi
  step "building llama.cpp with CUDA (several minutes)"
  t0=$(date +%s)
  if ! HELA_CUDA=1 HELA_VENV="$VENV" scripts/bootstrap.sh > "$OUT/build.log" 2>&1; then
    echo "error: the CUDA build failed; see $OUT/build.log" >&2
    tail -20 "$OUT/build.log" >&2
    exit 1
  fi
  echo $(( $(date +%s) - t0 )) > "$OUT/build_s.txt"
fi

# 2. doctor, offload on (its exit status is not this check's: a GPU server without a
#    screen lacks the window's X libraries, which the summary reports but does not require)
step "doctor"
"$PY" -m hela_desktop.cli doctor --json --data-dir "$DATA" --gpu-layers -1 "${MODEL_ARGS[@]}" \
  > "$OUT/doctor.json" 2> "$OUT/doctor.err"

# 3. one chat turn, every layer on the GPU
step "one chat turn, all layers offloaded"
"$PY" -m hela_desktop.cli chat --json --new --data-dir "$DATA" --gpu-layers -1 --seed 1 \
  --max-tokens 128 "${MODEL_ARGS[@]}" \
  --message "Tell me a short story about a lighthouse keeper." \
  > "$OUT/chat.jsonl" 2> "$OUT/chat.err" || fail=1

# 4. bench speed --quick
step "bench speed --quick"
"$PY" -m hela_desktop.cli bench speed --quick --json --data-dir "$DATA" --gpu-layers -1 \
  "${MODEL_ARGS[@]}" > "$OUT/bench.json" 2> "$OUT/bench.err" || fail=1

# one summary
"$PY" - "$OUT" "$fail" <<'EOF'
import json, sys
from pathlib import Path
out, fail = Path(sys.argv[1]), int(sys.argv[2])
def load(name):
    try:
        return json.loads((out / name).read_text())
    except Exception as exc:  # noqa: BLE001
        return {"error": f"{name}: {exc}"}
doc = load("doctor.json")
done = {}
try:
    done = [json.loads(l) for l in (out / "chat.jsonl").read_text().splitlines() if l.strip()][-1]
except Exception as exc:  # noqa: BLE001
    done = {"error": str(exc)}
bench = load("bench.json")
s = bench.get("streaming", {}) if isinstance(bench, dict) else {}
summary = {
    "gpu": (out / "gpu.txt").read_text().strip(),
    "build_s": (out / "build_s.txt").read_text().strip() if (out / "build_s.txt").exists() else "reused",
    "gpu_offload_supported": doc.get("gpu_offload_supported"),
    "beside_torch": doc.get("beside_torch"),
    "model": doc.get("model"), "model_ok": doc.get("model_ok"),
    "embedder": doc.get("embedder"), "fts5": doc.get("fts5"),
    "window_libraries": (doc.get("qt_xcb") or {}).get("ok"),
    "chat_tokens": done.get("tokens"), "chat_tokens_per_s": done.get("tokens_per_s"),
    "chat_swaps": done.get("swaps"), "chat_interrupted": done.get("interrupted"),
    "bench_streaming": {k: s.get(k) for k in ("live_tokens_per_s", "plain_tokens_per_s", "ratio",
                                                   "swaps_per_answer", "swap_ms_mean")
                        if k in s} or s,
    "bench_keys": sorted(bench) if isinstance(bench, dict) else None,
}
ok = (not fail and summary["gpu_offload_supported"] is True and summary["model_ok"] is True
      and summary["beside_torch"] == ""
      and summary["embedder"] not in (None, "missing") and bool(done.get("tokens"))
      and not done.get("interrupted"))
summary["ok"] = ok
(out / "gpu-check.json").write_text(json.dumps(summary, indent=2))
print("GPU check:", "PASSED" if ok else "FAILED", f"(details in {out})")
for k, v in summary.items():
    print(f"  {k:24} {v}")
sys.exit(0 if ok else 1)
EOF
