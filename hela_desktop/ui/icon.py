"""The app icon: where it is (`icon_path`), and rendering the SVG to PNGs
(``python -m hela_desktop.ui.icon``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

SIZES = (16, 32, 48, 64, 128, 256)
RESOURCES = Path(__file__).resolve().parents[2] / "resources"


def icon_path() -> Path | None:
    """The app icon (resources/hela-desktop.png or .svg), if present."""
    bases = [Path(__file__).resolve().parents[2] / "resources"]
    try:  # an installed wheel: resources/ ships as the data package hela_desktop.resources
        import importlib.util

        spec = importlib.util.find_spec("hela_desktop.resources")
        if spec is not None and spec.submodule_search_locations:
            bases += [Path(p) for p in spec.submodule_search_locations]
    except (ImportError, ValueError):
        pass
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:  # PyInstaller bundle
        bases.insert(0, Path(frozen) / "resources")
    for base in bases:
        for name in ("hela-desktop.svg", "hela-desktop.png"):
            if (base / name).exists():
                return base / name
    return None


def render_icon_pngs(svg: Path = RESOURCES / "hela-desktop.svg", out_dir: Path = RESOURCES,
                     sizes=SIZES) -> list[Path]:
    """Write ``hela-desktop.png`` (256 px) and ``hela-desktop-<n>.png`` for each size."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6 import QtCore, QtGui, QtSvg, QtWidgets

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])  # noqa: F841
    renderer = QtSvg.QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg}: not a valid SVG")
    out = []
    for n in sizes:
        img = QtGui.QImage(n, n, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(QtCore.Qt.GlobalColor.transparent)
        p = QtGui.QPainter(img)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        renderer.render(p)
        p.end()
        path = Path(out_dir) / f"hela-desktop-{n}.png"
        img.save(str(path))
        out.append(path)
        if n == 256:
            img.save(str(Path(out_dir) / "hela-desktop.png"))
            out.append(Path(out_dir) / "hela-desktop.png")
    return out


if __name__ == "__main__":  # pragma: no cover
    for p in render_icon_pngs():
        print(p)
