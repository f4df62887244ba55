"""The offline guarantee: a full chat turn never opens a network connection.

Each check runs in a fresh Python process (this file, run as a script) so that the network
guard is installed *before* torch, transformers, sentence-transformers, huggingface_hub or
llama_cpp are imported: nothing imported earlier by pytest or other tests can hold an
unguarded socket function.  The guard has two layers:

* monkeypatches on ``socket.socket.connect`` / ``connect_ex`` / ``sendto`` / ``sendmsg``,
  ``socket.create_connection``, ``socket.getaddrinfo`` and ``socket.gethostbyname(_ex)``;
* a ``sys.addaudithook`` hook on the interpreter's ``socket.connect``, ``socket.sendto``,
  ``socket.sendmsg``, ``socket.getaddrinfo`` and ``socket.gethostbyname`` events, which also
  catches code that kept a reference to the original functions or calls ``_socket``
  directly.

Every attempt (AF_UNIX sockets excepted) is recorded and refused with ``OSError``.  The child
starts with the HF offline variables *removed* from its environment and with an empty HOME,
so the test also proves that the app switches the libraries offline by itself and needs no
user cache.  Where the kernel allows it (``unshare --net``), the turn additionally runs in a
network namespace that has no network at all.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("torch", "transformers", "sentence_transformers", "huggingface_hub", "tokenizers",
         "llama_cpp", "safetensors", "hela_desktop.assistant", "hela_desktop.embedder")
OFFLINE_VARS = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE",
                "HF_HUB_DISABLE_TELEMETRY", "HF_HUB_DISABLE_IMPLICIT_TOKEN", "DO_NOT_TRACK",
                "HF_HOME", "HF_HUB_CACHE", "XDG_CACHE_HOME", "SENTENCE_TRANSFORMERS_HOME")
RESULT_TAG = "OFFLINE-RESULT "


# ------------------------------------------------------------------ the guard (child) ----
class NetworkGuard:
    """Refuses and records every non-AF_UNIX connection, send or name lookup."""

    def __init__(self) -> None:
        self.attempts: list[str] = []

    def _refuse(self, what: str, detail: object) -> OSError:
        self.attempts.append(f"{what} {detail!r}")
        return ConnectionRefusedError(f"network access refused by the offline test: {what}")

    def install(self) -> None:
        """Patch the socket module and add the audit hook (cannot be undone: child only)."""
        import socket

        guard = self
        orig_connect = socket.socket.connect
        orig_connect_ex = socket.socket.connect_ex
        orig_sendto = socket.socket.sendto
        orig_sendmsg = socket.socket.sendmsg
        unix = getattr(socket, "AF_UNIX", None)

        def connect(sock, address):
            if sock.family == unix:
                return orig_connect(sock, address)
            raise guard._refuse("socket.connect", address)

        def connect_ex(sock, address):
            if sock.family == unix:
                return orig_connect_ex(sock, address)
            raise guard._refuse("socket.connect_ex", address)

        def sendto(sock, *args):
            if sock.family == unix:
                return orig_sendto(sock, *args)
            raise guard._refuse("socket.sendto", args[-1])

        def sendmsg(sock, *args):
            if sock.family == unix:
                return orig_sendmsg(sock, *args)
            raise guard._refuse("socket.sendmsg", args[3:4])

        def create_connection(address, *args, **kwargs):
            raise guard._refuse("socket.create_connection", address)

        def getaddrinfo(host, *args, **kwargs):
            raise guard._refuse("socket.getaddrinfo", host)

        def gethostbyname(host, *args):
            raise guard._refuse("socket.gethostbyname", host)

        socket.socket.connect = connect
        socket.socket.connect_ex = connect_ex
        socket.socket.sendto = sendto
        socket.socket.sendmsg = sendmsg
        socket.create_connection = create_connection
        socket.getaddrinfo = getaddrinfo
        socket.gethostbyname = gethostbyname
        socket.gethostbyname_ex = gethostbyname

        def audit(event: str, args: tuple) -> None:
            if event in ("socket.connect", "socket.sendto", "socket.sendmsg"):
                sock = args[0]
                if getattr(sock, "family", None) == unix:
                    return
                raise guard._refuse(f"audit:{event}", args[1] if len(args) > 1 else None)
            if event in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr"):
                raise guard._refuse(f"audit:{event}", args[0] if args else None)

        sys.addaudithook(audit)


def _child_selftest(guard: NetworkGuard) -> dict:
    """Prove the guard is not vacuous: each kind of attempt is refused and recorded.

    Only loopback and ``localhost`` are used, so nothing could leave the machine even if
    the guard failed.
    """
    import _socket
    import socket

    refused = {}
    probes = {
        "create_connection": lambda: socket.create_connection(("127.0.0.1", 9), timeout=1),
        "connect": lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).connect(
            ("127.0.0.1", 9)),
        "connect_ex": lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).connect_ex(
            ("127.0.0.1", 9)),
        "getaddrinfo": lambda: socket.getaddrinfo("localhost", 80),
        "udp_sendto": lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(
            b"x", ("127.0.0.1", 9)),
        # bypasses the monkeypatches: only the audit hook can stop these
        "raw_connect": lambda: _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM).connect(
            ("127.0.0.1", 9)),
        "raw_getaddrinfo": lambda: _socket.getaddrinfo("localhost", 80),
    }
    for name, probe in probes.items():
        before = len(guard.attempts)
        try:
            probe()
            refused[name] = False
        except OSError:
            refused[name] = len(guard.attempts) > before
    a, b = socket.socketpair(socket.AF_UNIX)  # local IPC stays allowed
    a.sendall(b"ok")
    unix_ok = b.recv(2) == b"ok"
    a.close()
    b.close()
    return {"refused": refused, "unix_ok": unix_ok}


def _child_turn(guard: NetworkGuard, data_dir: Path) -> dict:
    """Load model and embedder, run two real turns (retrieve, generate, re-retrieve, store)."""
    from hela_desktop.config import Settings
    from hela_desktop.loader import open_assistant

    settings = Settings.load(data_dir)
    settings.max_answer_tokens = 40
    settings.reretrieve_every = 4  # re-retrieve often, so short answers still exercise it
    if hasattr(settings, "async_retrieval"):
        settings.async_retrieval = False  # wait for each re-retrieval: deterministic
    assistant = open_assistant(data_dir, settings)
    # Count retrievals through the engine's public entry point: the first of each turn is
    # queried with the user message, re-retrievals with the message plus recent output.
    queries: list[str] = []
    real_retrieve = assistant.engine.retrieve

    def recording_retrieve(query, *args, **kwargs):
        queries.append(query)
        return real_retrieve(query, *args, **kwargs)

    assistant.engine.retrieve = recording_retrieve
    # the first message states a fact; the second asks about it, so it is recalled
    messages = ("My sister Ana lives in Lisbon.", "Where does my sister live? Tell me about it.")
    turns = []
    for message in messages:
        events = list(assistant.chat(message, seed=7))
        turns.append({
            "types": sorted({e.type for e in events}),
            "memories": [[m.episode_id for m in e.memories] for e in events
                         if e.type == "memories"],
            "done": {"text": events[-1].text, "episode_id": events[-1].episode_id,
                     "tokens": events[-1].tokens, "interrupted": events[-1].interrupted},
        })
    episodes = assistant.store.conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0]
    db_files = sorted(p.name for p in data_dir.iterdir())
    assistant.close()
    import huggingface_hub.constants as hub

    return {
        "turns": turns, "reretrievals": sum(q not in messages for q in queries),
        "episodes": episodes, "db_files": db_files,
        "env": {k: os.environ.get(k) for k in OFFLINE_VARS[:6]},
        "hub_offline": bool(hub.HF_HUB_OFFLINE),
        "hub_telemetry_disabled": bool(getattr(hub, "HF_HUB_DISABLE_TELEMETRY", True)),
    }


def _child(mode: str, data_dir: str) -> int:
    preloaded = sorted(m for m in HEAVY if m in sys.modules)
    guard = NetworkGuard()
    guard.install()
    result: dict = {"preloaded": preloaded}
    try:
        if mode == "selftest":
            result.update(_child_selftest(guard))
        else:
            result.update(_child_turn(guard, Path(data_dir)))
    finally:
        result["attempts"] = guard.attempts
        print(RESULT_TAG + json.dumps(result, default=str), flush=True)
    return 0


# ------------------------------------------------------------------- the tests (parent) --
def _run_child(mode: str, tmp_path: Path, *, netns: bool) -> dict:
    home = tmp_path / "home"
    home.mkdir()
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if k not in OFFLINE_VARS}
    env.update(HOME=str(home), PYTHONDONTWRITEBYTECODE="1")
    cmd = [sys.executable, str(Path(__file__).resolve()), mode, str(data)]
    if netns:
        cmd = ["unshare", "--net", *cmd]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600,
                          cwd=Path(__file__).resolve().parent.parent)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(RESULT_TAG)]
    home_files = sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file())
    assert proc.returncode == 0 and lines, (
        f"child failed (rc {proc.returncode})\nstdout:\n{proc.stdout[-3000:]}\n"
        f"stderr:\n{proc.stderr[-6000:]}")
    result = json.loads(lines[-1][len(RESULT_TAG):])
    result["home_files"] = home_files
    return result


def _netns_available() -> bool:
    if not shutil.which("unshare"):
        return False
    try:
        return subprocess.run(["unshare", "--net", "true"], capture_output=True,
                              timeout=20).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def test_guard_refuses_and_records_every_kind_of_attempt(tmp_path):
    """The guard itself works: patched and raw (audit-hook) paths are refused and recorded."""
    res = _run_child("selftest", tmp_path, netns=False)
    assert res["preloaded"] == []
    assert res["refused"] and all(res["refused"].values()), res["refused"]
    assert len(res["attempts"]) >= len(res["refused"])
    assert res["unix_ok"]


@pytest.mark.slow
def test_full_turn_makes_no_network_attempt(tmp_path):
    """Load model + embedder, retrieve, generate with re-retrieval, store: zero attempts."""
    netns = _netns_available()
    res = _run_child("turn", tmp_path, netns=netns)
    print(json.dumps({"netns": netns, "attempts": res["attempts"],
                      "reretrievals": res["reretrievals"], "episodes": res["episodes"],
                      "answers": [t["done"]["text"][:60] for t in res["turns"]]}))
    assert res["preloaded"] == [], "heavy libraries were imported before the guard"
    assert res["attempts"] == [], f"network attempts: {res['attempts']}"
    # the app switched the libraries offline by itself (the child started without these)
    assert res["env"]["HF_HUB_OFFLINE"] == "1"
    assert res["env"]["HF_HUB_DISABLE_TELEMETRY"] == "1"
    assert res["hub_offline"] is True
    first, second = res["turns"]
    for turn in res["turns"]:
        assert "memories" in turn["types"] and "done" in turn["types"]
        assert turn["done"]["text"].strip()
        assert not turn["done"]["interrupted"]
    assert first["memories"][0] == []  # nothing stored yet
    assert first["done"]["episode_id"] in second["memories"][0]  # retrieved from the store
    assert res["reretrievals"] >= 1
    assert res["episodes"] == 2
    assert "memory.sqlite3" in res["db_files"]
    # nothing written outside the data folder (no caches, no telemetry ids in HOME)
    assert res["home_files"] == [], res["home_files"]


if __name__ == "__main__":
    raise SystemExit(_child(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""))
