"""Time the built bundle's start-up, from a clean environment (stdlib only).

    python3 packaging/measure_start.py [--exe PATH] [--gui] [--runs N]

* ``chat``: ``hela-desktop chat --message hi --json``; reports when the first event arrives
  (model and embedder loaded, memories retrieved), the first token, the answer, the exit.
* ``doctor``: wall time of ``hela-desktop doctor``.
* ``--gui``: starts the window on a private Xvfb display and polls ``xwininfo`` until a
  mapped top-level window named "HeLa Desktop" is viewable (needs ``Xvfb`` and
  ``xwininfo``: ``apt-get install -y xvfb x11-utils``).

Every run uses ``env -i``-style environments (PATH and a fresh HOME only) and a fresh data
folder.  The page cache is not dropped, so runs after the first are "warm disk" starts; the
first run of each kind is reported separately.  Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_EXE = HERE / "dist" / "hela-desktop" / "hela-desktop"


def clean_env(home: Path, **extra: str) -> dict:
    """PATH and HOME only (plus `extra`): no HF_* variables, no user caches."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home)}
    env.update(extra)
    return env


def time_chat(exe: Path, tmp: Path) -> dict:
    """One terminal turn; seconds from exec to each milestone."""
    home = Path(tempfile.mkdtemp(dir=tmp))
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe), "chat", "--message", "hi", "--json", "--data-dir", str(home / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=clean_env(home),
        cwd=home)
    marks: dict = {}
    assert proc.stdout is not None
    for line in proc.stdout:
        t = time.perf_counter() - t0
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        kind = ev.get("type")
        if kind == "memories":
            marks.setdefault("first_event_s", t)
        elif kind == "token":
            marks.setdefault("first_token_s", t)
        elif kind == "done":
            marks["done_s"] = t
            marks["tokens"] = ev.get("tokens")
    rc = proc.wait()
    marks["exit_s"] = time.perf_counter() - t0
    marks["rc"] = rc
    if rc:
        marks["stderr"] = proc.stderr.read()[-2000:] if proc.stderr else ""
    return {k: round(v, 2) if isinstance(v, float) else v for k, v in marks.items()}


def time_doctor(exe: Path, tmp: Path) -> dict:
    """Wall time of `doctor` (imports llama.cpp, checks the model, finds the embedder)."""
    home = Path(tempfile.mkdtemp(dir=tmp))
    t0 = time.perf_counter()
    res = subprocess.run([str(exe), "doctor", "--data-dir", str(home / "data")],
                         capture_output=True, text=True, env=clean_env(home), cwd=home)
    return {"exit_s": round(time.perf_counter() - t0, 2), "rc": res.returncode}


def _viewable_window(display: str, title: str) -> bool:
    tree = subprocess.run(["xwininfo", "-root", "-tree", "-display", display],
                          capture_output=True, text=True).stdout
    for m in re.finditer(r"^\s*(0x[0-9a-f]+) \"([^\"]*)\"", tree, re.M):
        if m.group(2) != title:
            continue
        info = subprocess.run(["xwininfo", "-id", m.group(1), "-display", display],
                              capture_output=True, text=True).stdout
        if "IsViewable" in info:
            return True
    return False


def time_window(exe: Path, tmp: Path, title: str = "HeLa Desktop", timeout: float = 120.0,
                display_num: int = 87) -> dict:
    """Seconds from exec until the main window is mapped and viewable under Xvfb."""
    if not (shutil.which("Xvfb") and shutil.which("xwininfo")):
        return {"skipped": "needs Xvfb and xwininfo (apt-get install -y xvfb x11-utils)"}
    display = f":{display_num}"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        sock = Path(f"/tmp/.X11-unix/X{display_num}")
        for _ in range(100):
            if sock.exists():
                break
            time.sleep(0.05)
        home = Path(tempfile.mkdtemp(dir=tmp))
        t0 = time.perf_counter()
        app = subprocess.Popen(
            [str(exe), "--data-dir", str(home / "data")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env=clean_env(home, DISPLAY=display, QT_QPA_PLATFORM="xcb"), cwd=home)
        shown = None
        while time.perf_counter() - t0 < timeout and app.poll() is None:
            if _viewable_window(display, title):
                shown = time.perf_counter() - t0
                break
            time.sleep(0.05)
        result: dict = {"window_shown_s": round(shown, 2) if shown else None}
        if app.poll() is not None:
            result["rc"] = app.returncode
            result["stderr"] = (app.stderr.read() if app.stderr else "")[-2000:]
        else:
            app.send_signal(signal.SIGTERM)
            try:
                app.wait(20)
            except subprocess.TimeoutExpired:
                app.kill()
                app.wait()
        return result
    finally:
        xvfb.terminate()
        xvfb.wait(10)


def main() -> int:
    """Run the measurements and print them as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exe", type=Path, default=DEFAULT_EXE)
    ap.add_argument("--runs", type=int, default=2, help="runs of each kind (first is reported apart)")
    ap.add_argument("--gui", action="store_true", help="also time the window (Xvfb)")
    ap.add_argument("--no-chat", action="store_true")
    args = ap.parse_args()
    args.exe = args.exe.resolve()
    if not args.exe.exists():
        print(f"error: {args.exe} not found; run packaging/build.sh first")
        return 2
    out: dict = {"exe": str(args.exe)}
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        kinds = [("doctor", time_doctor)]
        if not args.no_chat:
            kinds.append(("chat", time_chat))
        if args.gui:
            kinds.append(("window", time_window))
        for name, fn in kinds:
            runs = [fn(args.exe, tmp) for _ in range(max(1, args.runs))]
            out[name] = {"first": runs[0], "later": runs[1:]}
            key = {"doctor": "exit_s", "chat": "first_token_s", "window": "window_shown_s"}[name]
            vals = [r[key] for r in runs if r.get(key) is not None]
            if vals:
                out[name]["median_" + key] = round(statistics.median(vals), 2)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
