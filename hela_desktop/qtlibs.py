"""Are the system libraries Qt's X11 (xcb) platform plugin needs installed?

On a minimal Debian/Ubuntu desktop or server, PySide6's wheel brings Qt but not the X11
client libraries its ``xcb`` plugin links to (``libxcb-icccm4``, ``libxcb-keysyms1``, …);
without them no window opens, and Qt's own message often names the wrong package. This
module asks the dynamic linker (``ldd``) which libraries of ``libqxcb.so`` are really
missing and maps them to the Debian/Ubuntu packages that provide them.

Used by ``scripts/bootstrap.sh`` (``python -m hela_desktop.qtlibs --packages``) and by
``hela-desktop doctor``. Qt itself is never imported here.

    python -m hela_desktop.qtlibs            # a line per missing library, and the command
    python -m hela_desktop.qtlibs --packages # just the package names (empty: nothing missing)
    python -m hela_desktop.qtlibs --json
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from .paths import _package_dir

# library (soname) -> Debian/Ubuntu package; the libraries Qt 6's xcb plugin links to
SONAME_PACKAGES = {
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xinput.so.0": "libxcb-xinput0",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libSM.so.6": "libsm6",
    "libICE.so.6": "libice6",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libOpenGL.so.0": "libopengl0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)


def xcb_plugin() -> Path | None:
    """PySide6's ``libqxcb.so`` (found without importing Qt), or None."""
    d = _package_dir("PySide6")
    if d is None:
        return None
    p = d / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return p if p.exists() else None


def missing_libraries(plugin: Path | None = None, ldd_output: str | None = None) -> list[str]:
    """Libraries the xcb plugin needs that the dynamic linker cannot find (``ldd``).

    `ldd_output` lets a test give the linker's answer directly."""
    if ldd_output is None:
        plugin = plugin or xcb_plugin()
        ldd = shutil.which("ldd")
        if plugin is None or ldd is None:
            return []
        try:
            ldd_output = subprocess.run([ldd, str(plugin)], capture_output=True, text=True,
                                        timeout=20).stdout
        except (OSError, subprocess.SubprocessError):
            return []
    qt_own = ("libQt6", "libpyside6", "libshiboken6", "libicu")
    return sorted({lib for lib in _NOT_FOUND.findall(ldd_output) if not lib.startswith(qt_own)})


def packages_for(libs: list[str]) -> list[str]:
    """Debian/Ubuntu packages providing `libs` (unknown libraries are named as they are)."""
    return sorted({SONAME_PACKAGES.get(lib, lib) for lib in libs})


def install_command(packages: list[str]) -> str:
    return "sudo apt-get install -y " + " ".join(packages) if packages else ""


def report() -> dict:
    """What ``doctor`` shows: the plugin, what it lacks, and the command that installs it."""
    plugin = xcb_plugin()
    libs = missing_libraries(plugin) if sys.platform.startswith("linux") else []
    pkgs = packages_for(libs)
    return {"plugin": str(plugin) if plugin else None, "missing_libraries": libs,
            "packages": pkgs, "install": install_command(pkgs), "ok": not libs}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    rep = report()
    if "--json" in argv:
        print(json.dumps(rep, indent=2))
    elif "--packages" in argv:
        print(" ".join(rep["packages"]))
    elif rep["plugin"] is None:
        print("Qt's xcb plugin was not found (PySide6 not installed, or not Linux).")
    elif rep["ok"]:
        print(f"Qt xcb plugin: every library found ({rep['plugin']}).")
    else:
        print("Qt's X11 plugin cannot load; missing: " + ", ".join(rep["missing_libraries"]))
        print("install them with:  " + rep["install"])
    return 0 if rep["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
