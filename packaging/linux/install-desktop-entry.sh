#!/usr/bin/env bash
# Install (or with --uninstall remove) the HeLa Desktop menu entry for the current user.
# Run it from the built bundle folder (packaging/dist/hela-desktop/) or pass that folder:
#   ./install-desktop-entry.sh [BUNDLE_DIR]      ./install-desktop-entry.sh --uninstall
# Writes only ~/.local/share/applications/hela-desktop.desktop and the icon under
# ~/.local/share/icons/hicolor/; nothing is run and nothing needs root.
set -euo pipefail
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
ENTRY="$DATA/applications/hela-desktop.desktop"
if [ "${1:-}" = "--uninstall" ]; then
    rm -f "$ENTRY" "$DATA/icons/hicolor/scalable/apps/hela-desktop.svg" \
          "$DATA/icons/hicolor/256x256/apps/hela-desktop.png"
    echo "removed $ENTRY"
    exit 0
fi
BUNDLE="$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")}" && pwd)"
EXE="$BUNDLE/hela-desktop"
[ -x "$EXE" ] || { echo "error: $EXE not found; pass the bundle folder" >&2; exit 2; }
TEMPLATE="$BUNDLE/hela-desktop.desktop"
[ -f "$TEMPLATE" ] || TEMPLATE="$(dirname "${BASH_SOURCE[0]}")/hela-desktop.desktop"

mkdir -p "$DATA/applications"
ICON=hela-desktop
if [ -f "$BUNDLE/hela-desktop.svg" ]; then
    mkdir -p "$DATA/icons/hicolor/scalable/apps"
    cp "$BUNDLE/hela-desktop.svg" "$DATA/icons/hicolor/scalable/apps/"
elif [ -f "$BUNDLE/hela-desktop.png" ]; then
    mkdir -p "$DATA/icons/hicolor/256x256/apps"
    cp "$BUNDLE/hela-desktop.png" "$DATA/icons/hicolor/256x256/apps/"
else
    echo "note: no icon in $BUNDLE; the menu shows a generic one" >&2
fi
# The menu entry runs this bundle by absolute path (it is not on PATH).
sed -e "s|^Exec=.*|Exec=\"$EXE\"|" -e "s|^TryExec=.*|TryExec=$EXE|" \
    -e "s|^Icon=.*|Icon=$ICON|" "$TEMPLATE" > "$ENTRY"
chmod 644 "$ENTRY"
command -v update-desktop-database >/dev/null && update-desktop-database -q "$DATA/applications" || true
echo "installed $ENTRY -> $EXE"
