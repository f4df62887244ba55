#!/usr/bin/env bash
# `make screenshots`: the README's screenshots, taken from the real window (Qt's xcb
# platform) on a virtual X server (Xvfb), into docs/screenshots/.
#
#   HELA_VENV=.venv          the virtual environment
#   SCREENSHOT_DIR=dir       where the pictures go (default docs/screenshots)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${HELA_VENV:-.venv}
OUT=${SCREENSHOT_DIR:-docs/screenshots}
need=""
command -v Xvfb >/dev/null 2>&1 || need="$need xvfb"
command -v xdotool >/dev/null 2>&1 || need="$need xdotool"
if [ -n "$need" ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
  else
    echo "error: screenshots need a virtual X server; install it with:  sudo apt-get install -y$need" >&2
    exit 3
  fi
fi
HELA_NEED_WINDOW=1 HELA_VENV="$VENV" scripts/check-qt-libs.sh
# a free display number
n=91
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
Xvfb ":$n" -screen 0 1600x1200x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
mkdir -p "$OUT"
DISPLAY=":$n" QT_QPA_PLATFORM=xcb HF_HUB_OFFLINE=1 "$VENV/bin/python" scripts/screenshots.py "$OUT"
