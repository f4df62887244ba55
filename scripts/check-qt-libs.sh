#!/usr/bin/env bash
# Qt's X11 (xcb) platform plugin links to system libraries that a minimal Debian/Ubuntu
# lacks (libxcb-icccm4, libxcb-keysyms1, ...): without them no window opens.  `ldd` on
# PySide6's libqxcb.so names what is really missing (hela_desktop/qtlibs.py).  As root (or
# with password-less sudo) and apt-get they are installed; otherwise the exact command is
# printed: with HELA_NEED_WINDOW=1 (`make run`) as an error, exit status 3; else as a note.
#
#   HELA_VENV=.venv     the virtual environment with PySide6 installed
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${HELA_VENV:-.venv}
log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }
[ "$(uname -s)" = "Linux" ] && [ -x "$VENV/bin/python" ] || exit 0
pkgs=$("$VENV/bin/python" -m hela_desktop.qtlibs --packages 2>/dev/null || true)
[ -n "$pkgs" ] || exit 0
if command -v apt-get >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = "0" ] || { sudo -n true 2>/dev/null && sudo="sudo -n"; }
  if [ "$(id -u)" = "0" ] || [ -n "$sudo" ]; then
    log "installing Qt's X11 libraries: $pkgs"
    # shellcheck disable=SC2086
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $pkgs; } >/dev/null || true
    pkgs=$("$VENV/bin/python" -m hela_desktop.qtlibs --packages 2>/dev/null || true)
    [ -n "$pkgs" ] || exit 0
  fi
  fix="sudo apt-get install -y $pkgs"
else
  fix="install your system's packages that provide: $pkgs"
fi
if [ "${HELA_NEED_WINDOW:-0}" = "1" ]; then
  printf 'error: the desktop window needs system libraries that are missing (%s).\n' "$pkgs" >&2
  printf 'Install them with:\n\n    %s\n\nthen run this again (or use `make chat` for the terminal chat).\n' "$fix" >&2
  exit 3
fi
log "note: the desktop window will need: $fix"
