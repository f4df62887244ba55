"""Qt's X11 libraries: the ldd check, the package names, and the set-up script's two answers
(install as root, or stop with the exact command)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hela_desktop import qtlibs

ROOT = Path(__file__).resolve().parent.parent

# what ldd printed for PySide6 6.x's libqxcb.so on a minimal Debian 12 (trimmed)
LDD_MINIMAL = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x7f)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x7f)
\tlibxkbcommon-x11.so.0 => not found
\tlibQt6Foo.so.6 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x7f)
"""


def test_missing_libraries_map_to_debian_packages():
    libs = qtlibs.missing_libraries(ldd_output=LDD_MINIMAL)
    # Qt's own libraries are PySide6's business, not the system's
    assert libs == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxkbcommon-x11.so.0"]
    pkgs = qtlibs.packages_for(libs)
    assert pkgs == ["libxcb-icccm4", "libxcb-keysyms1", "libxkbcommon-x11-0"]
    assert qtlibs.install_command(pkgs) == \
        "sudo apt-get install -y libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0"
    assert qtlibs.packages_for(["libweird.so.9"]) == ["libweird.so.9"]  # named as it is
    assert qtlibs.missing_libraries(ldd_output="\tlibxcb.so.1 => /lib/libxcb.so.1\n") == []


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("ldd") is None,
                    reason="ldd: Linux only")
def test_report_runs_ldd_on_the_real_plugin():
    pytest.importorskip("PySide6")
    rep = qtlibs.report()
    plugin = Path(rep["plugin"])
    assert plugin.name == "libqxcb.so" and plugin.exists()
    out = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True).stdout
    assert rep["missing_libraries"] == qtlibs.missing_libraries(ldd_output=out)
    assert rep["ok"] == (not rep["missing_libraries"])
    assert rep["install"] == qtlibs.install_command(rep["packages"])


def _fake_env(tmp_path: Path, packages: str, uid: str) -> dict:
    """A venv whose python reports `packages` missing, and an `id` that says `uid`; an
    apt-get that records its calls (nothing is installed)."""
    venv = tmp_path / "venv" / "bin"
    tools = tmp_path / "tools"
    venv.mkdir(parents=True)
    tools.mkdir()
    log = tmp_path / "apt.log"
    scripts = {
        venv / "python": f"#!/bin/sh\n[ -f {tmp_path}/installed ] || echo '{packages}'\n",
        tools / "id": f"#!/bin/sh\necho {uid}\n",
        tools / "sudo": "#!/bin/sh\nexit 1\n",
        tools / "apt-get": f"#!/bin/sh\necho \"$@\" >> {log}\ncase \"$*\" in *install*) "
                           f"touch {tmp_path}/installed;; esac\n",
    }
    for p, text in scripts.items():
        p.write_text(text)
        p.chmod(p.stat().st_mode | stat.S_IEXEC)
    env = dict(os.environ, HELA_VENV=str(tmp_path / "venv"), PATH=f"{tools}:{os.environ['PATH']}")
    env.pop("HELA_NEED_WINDOW", None)
    return env


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux set-up script")
def test_check_script_stops_with_the_exact_command_when_it_cannot_install(tmp_path):
    env = _fake_env(tmp_path, "libxcb-icccm4 libxcb-keysyms1", uid="1000")
    script = str(ROOT / "scripts" / "check-qt-libs.sh")
    r = subprocess.run([script], env=dict(env, HELA_NEED_WINDOW="1"), capture_output=True, text=True)
    assert r.returncode == 3
    assert "sudo apt-get install -y libxcb-icccm4 libxcb-keysyms1" in r.stderr
    assert not (tmp_path / "apt.log").exists()  # not root: nothing was attempted
    r = subprocess.run([script], env=env, capture_output=True, text=True)  # make test: a note
    assert r.returncode == 0 and "sudo apt-get install -y libxcb-icccm4" in r.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux set-up script")
def test_check_script_installs_as_root(tmp_path):
    env = _fake_env(tmp_path, "libxcb-icccm4 libxcb-keysyms1", uid="0")
    r = subprocess.run([str(ROOT / "scripts" / "check-qt-libs.sh")],
                       env=dict(env, HELA_NEED_WINDOW="1"), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    calls = (tmp_path / "apt.log").read_text().splitlines()
    assert calls[0].startswith("update") and "install -y -qq libxcb-icccm4 libxcb-keysyms1" in calls[1]
    # nothing missing: nothing done
    (tmp_path / "apt.log").unlink()
    r = subprocess.run([str(ROOT / "scripts" / "check-qt-libs.sh")], env=env, capture_output=True, text=True)
    assert r.returncode == 0 and not (tmp_path / "apt.log").exists()
