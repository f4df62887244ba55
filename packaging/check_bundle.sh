#!/usr/bin/env bash
# Build the bundle and prove it works on its own, offline, from a clean environment.
#
#   packaging/check_bundle.sh            build, then check
#   packaging/check_bundle.sh --no-build check the bundle already in packaging/dist/
#
# Checks (each run with `env -i PATH=/usr/bin:/bin HOME=<empty temp dir>`, from a temp
# working directory, so HF_HUB_OFFLINE & co. are unset and no user cache or checkout helps):
#   1. `hela-desktop --version`
#   2. `hela-desktop doctor --json`: exit 0, the model and embedder resolved *inside* the
#      bundle, HF_HUB_OFFLINE=1 set by the app itself, FTS5 present, versions readable.
#   3. `hela-desktop chat --message hi --json --data-dir TMP`: a full turn; the last event is
#      `done` with an answer, and memory.sqlite3 was written.
#   4. a second turn under `strace` (when installed): no connect/sendto/sendmsg to an
#      AF_INET/AF_INET6 address by any thread or child process; and, where `unshare --net`
#      works, a third turn in a network namespace with no network at all.
# Not part of the fast test suite: it takes minutes (the build itself ~10-20 min on 2 cores).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
APP_DIR="$HERE/dist/hela-desktop"
EXE="$APP_DIR/hela-desktop"

if [ "${1:-}" != "--no-build" ]; then
    "$HERE/build.sh"
fi
[ -x "$EXE" ] || { echo "FAIL: $EXE not found (run packaging/build.sh)" >&2; exit 1; }

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/home"
DATA="$TMP/data"
fails=0
ok()   { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
clean() { (cd "$TMP" && env -i PATH=/usr/bin:/bin HOME="$TMP/home" "$@"); }
secs() { local ms=$(( ($(date +%s%N) - $1) / 1000000 )); printf '%d.%02d' $((ms / 1000)) $((ms % 1000 / 10)); }
PY=python3  # only parses the JSON the bundle prints; never imports the app

echo "== bundle: $APP_DIR ($(du -sh "$APP_DIR" | cut -f1))"

# 1. version
if v="$(clean "$EXE" --version 2>&1)"; then ok "--version: $v"; else fail "--version: $v"; fi

# 2. doctor
t0=$(date +%s%N)
if clean "$EXE" doctor --json --data-dir "$DATA" > "$TMP/doctor.json" 2> "$TMP/doctor.err"; then
    ok "doctor exit 0 ($(secs "$t0") s)"
else
    fail "doctor exit $? : $(tail -5 "$TMP/doctor.err")"
fi
if "$PY" - "$TMP/doctor.json" "$APP_DIR" <<'EOF'
import json, sys
rep, app = json.load(open(sys.argv[1])), sys.argv[2]
problems = []
if not rep["model"].startswith(app) or not rep["model_ok"]:
    problems.append(f"model not from the bundle: {rep['model']} {rep['model_error']}")
if not rep["embedder"].startswith(app):
    problems.append(f"embedder not from the bundle: {rep['embedder']}")
if rep["hf_hub_offline"] != "1":
    problems.append(f"HF_HUB_OFFLINE is {rep['hf_hub_offline']!r}, not set by the app")
if not rep["fts5"]:
    problems.append("SQLite without FTS5")
missing = [k for k, v in rep["versions"].items() if v == "not installed"]
if missing:
    problems.append(f"no version metadata for {missing}")
print("\n".join(problems) or f"model {rep['model']}\n     embedder {rep['embedder']}")
sys.exit(1 if problems else 0)
EOF
then ok "doctor report: everything from the bundle, offline mode set by the app"
else fail "doctor report (see above)"; fi

# 3. one terminal turn
check_turn() {  # $1: jsonl file
    "$PY" - "$1" <<'EOF'
import json, sys
events = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
kinds = [e["type"] for e in events]
done = events[-1] if events else {}
ok = bool(events) and kinds[0] == "memories" and done.get("type") == "done" \
    and done.get("text", "").strip() and not done.get("interrupted")
print(f"{kinds.count('token')} tokens, answer: {done.get('text', '')[:70]!r}")
sys.exit(0 if ok else 1)
EOF
}
t0=$(date +%s%N)
if clean "$EXE" chat --message hi --json --data-dir "$DATA" > "$TMP/chat1.jsonl" 2> "$TMP/chat1.err" \
   && msg="$(check_turn "$TMP/chat1.jsonl")"; then
    ok "chat turn ($(secs "$t0") s): $msg"
else
    fail "chat turn: $(tail -5 "$TMP/chat1.err") $(tail -2 "$TMP/chat1.jsonl")"
fi
if [ -f "$DATA/memory.sqlite3" ]; then ok "memory stored in $DATA/memory.sqlite3"
else fail "no memory.sqlite3 in $DATA"; fi

# 4a. system-call trace: no IPv4/IPv6 connection or datagram, from any thread or child
if command -v strace >/dev/null; then
    SECCOMP=""
    if strace --seccomp-bpf -f -e trace=connect true 2>/dev/null; then SECCOMP="--seccomp-bpf"; fi
    if clean strace $SECCOMP -f -qq -e trace=socket,connect,sendto,sendmsg -o "$TMP/strace.log" \
            "$EXE" chat --message "What do you remember about me?" --json --data-dir "$DATA" \
            > "$TMP/chat2.jsonl" 2> "$TMP/chat2.err" && check_turn "$TMP/chat2.jsonl" >/dev/null; then
        inet="$(grep -E '(connect|sendto|sendmsg)\(.*sa_family=AF_INET6?[,}]' "$TMP/strace.log" || true)"
        nsock="$(grep -cE 'socket\(AF_INET6?,' "$TMP/strace.log" || true)"
        nunix="$(grep -cE 'connect\(.*AF_UNIX' "$TMP/strace.log" || true)"
        if [ -z "$inet" ]; then
            ok "strace: 0 network connects/sends ($nsock IP sockets created, $nunix local AF_UNIX connects)"
        else
            fail "strace: network attempts:"; echo "$inet" | head -20
        fi
    else
        fail "chat under strace: $(tail -5 "$TMP/chat2.err")"
    fi
else
    echo "skip strace check (strace not installed)"
fi

# 4b. no network at all (a fresh network namespace has only a down loopback)
if unshare --net true 2>/dev/null; then
    if clean unshare --net "$EXE" chat --message "Thanks!" --json --data-dir "$DATA" \
            > "$TMP/chat3.jsonl" 2> "$TMP/chat3.err" && msg="$(check_turn "$TMP/chat3.jsonl")"; then
        ok "chat turn with no network at all (unshare --net): $msg"
    else
        fail "chat turn in an empty network namespace: $(tail -5 "$TMP/chat3.err")"
    fi
else
    echo "skip network-namespace check (unshare --net not permitted here)"
fi

if [ -n "$(ls -A "$TMP/home")" ]; then
    echo "note: files written under HOME: $(cd "$TMP/home" && find . -type f | head -10 | tr '\n' ' ')"
fi
if [ "$fails" -eq 0 ]; then echo "== bundle check passed"; else echo "== bundle check: $fails failed"; fi
exit $(( fails > 0 ))
