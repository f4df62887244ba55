"""A chat model behind an OpenAI-compatible HTTP server (llama.cpp's ``llama-server``, vLLM,
SGLang, Ollama, LM Studio, ``python -m llama_cpp.server``).

`ServerLLM` offers the parts of `LocalLLM` that the assistant's prompt building uses
(``render``, ``tokenize``, ``detokenize``, ``n_ctx``, the swap-cost figures), so the same
prompt layout, memory selection and swap policy serve both backends; it streams answers
over HTTP instead of running a model.  The turn loop that uses it is
:mod:`hela_desktop.server_turn`.

Two ways to ask for text:

- ``completions``: the prompt is rendered here with the model's chat template and sent raw
  to ``/v1/completions``; continuing after a memory swap is sending the new prompt followed
  by the text generated so far.  Used when the template is known: the server reports it
  (llama-server's ``/props``) or the server's model is a GGUF file on this machine
  (``llama_cpp.server`` names its model by path).
- ``chat``: ``/v1/chat/completions`` with the messages, the text generated so far sent as
  a final assistant message (assistant prefill).

Token counts on this side are estimates (`PieceTokenizer`); the prompt tokens the server
really processed come from what it reports (llama-server ``timings.prompt_n``; ``usage``
with ``prompt_tokens_details.cached_tokens``; or, for ``llama_cpp.server``, its verbose log,
`LlamaCppPythonLog`).  Every failure is a `ServerError` with a one-line message.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import json
import re
import socket
import threading
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .llm import make_formatter

# seconds `ServerLLM.connect` waits for the model list (and /props): a server answers them
# in milliseconds; one that takes the connection and says nothing is stalled (or hung)
PROBE_TIMEOUT_S = 5.0


class ServerError(RuntimeError):
    """The model server cannot be used; one line saying what is wrong and where."""

    status: int | None = None  # the HTTP status, when the server answered with an error


def normalize_url(url: str) -> str:
    """``host:8080``, ``http://host:8080/``, ``http://host:8080/v1`` → ``http://host:8080``."""
    url = (url or "").strip()
    if not url:
        raise ServerError("no server address: set server_url (e.g. http://127.0.0.1:8080)")
    if "://" not in url:
        url = "http://" + url
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 - (a port out of range or not a number raises here)
        bad_port = False
    except ValueError:
        bad_port = True
    # (a space or control character in it failed only later, inside the HTTP library:
    # "InvalidURL: URL can't contain control characters", after the message was stored)
    if (parts.scheme not in ("http", "https") or not parts.hostname or bad_port
            or any(c.isspace() or ord(c) < 32 for c in url)):
        raise ServerError(f"{url}: not an http(s) server address (e.g. http://127.0.0.1:8080)")
    path = parts.path.rstrip("/")
    if path.endswith("/v1"):
        path = path[:-3]
    return f"{parts.scheme}://{parts.netloc}{path}"


def is_local_host(url: str) -> bool:
    """Whether `url` points at this machine (loopback name or address)."""
    host = (urlsplit(url if "://" in url else "http://" + url).hostname or "").lower()
    if host in ("localhost", "localhost.localdomain", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def privacy_warning(url: str) -> str | None:
    """A warning for a plain-http address that is not on this machine, else None."""
    if not url:
        return None
    scheme = urlsplit(url if "://" in url else "http://" + url).scheme
    if scheme == "http" and not is_local_host(url):
        return ("plain http to another machine: prompts and memories travel unencrypted; "
                "use https or a server on this computer")
    return None


def where_answers_come_from(url: str, model: str) -> str:
    """The status-bar line naming the source of answers."""
    host = urlsplit(url if "://" in url else "http://" + url).netloc or url
    place = "this computer" if is_local_host(url) else host
    return f"Answers from {model or 'server'} at {place} ({url})"


# ---- token estimates -----------------------------------------------------------------------
class PieceTokenizer:
    """Reversible text pieces standing in for the server's tokens on this side.

    Pieces follow the shape of BPE pre-tokenisation (a leading space with up to 7 letters, up
    to 3 digits, one punctuation mark, newlines), so counts land near the model's own; each
    distinct piece gets an id, and ``detokenize(tokenize(t)) == t`` for every text.
    """

    _RE = re.compile(r" ?[^\W\d_]{1,7}| ?\d{1,3}| ?[^\w\s]| ?_|\n+|\s", re.UNICODE)

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._pieces: list[str] = []
        self._lock = threading.Lock()

    def tokenize(self, text: str) -> list[int]:
        out = []
        with self._lock:
            for p in self._RE.findall(text):
                i = self._ids.get(p)
                if i is None:
                    i = self._ids[p] = len(self._pieces)
                    self._pieces.append(p)
                out.append(i)
        return out

    def detokenize(self, ids: Sequence[int]) -> str:
        return "".join(self._pieces[i] for i in ids)


PIECES = PieceTokenizer()  # every ServerLLM's (ids stay valid across reconnections)


# ---- HTTP ----------------------------------------------------------------------------------
def _error_text(body: bytes, content_type: str) -> str:
    """The gist of an error body: a JSON error message, an HTML title, or the first line."""
    text = body.decode("utf-8", "replace")
    if "json" in content_type or text.lstrip().startswith("{"):
        with contextlib.suppress(ValueError, AttributeError, TypeError):
            d = json.loads(text)
            err = d.get("error", d.get("detail", d))
            if isinstance(err, dict):
                err = err.get("message") or err.get("msg") or json.dumps(err)
            if isinstance(err, list) and err and isinstance(err[0], dict):
                err = err[0].get("msg", err[0])
            return _one_line(str(err))
    m = re.search(r"<title>(.*?)</title>", text, re.I | re.S)
    if m:
        return _one_line(m.group(1))
    text = re.sub(r"<[^>]+>", " ", text)
    return _one_line(text) or "(empty body)"


def _one_line(text: str, n: int = 160) -> str:
    t = " ".join(text.split())
    return t if len(t) <= n else t[: n - 1] + "…"


@dataclass
class StreamReport:
    """What the server said about one streamed request."""

    prompt_processed: int | None = None  # prompt tokens it evaluated (its own count)
    prompt_total: int | None = None  # prompt tokens in the request (its own count)
    completion_tokens: int | None = None
    first_chunk_s: float | None = None  # request sent → first text
    finish_reason: str | None = None
    chunks: int = 0


class ServerClient:
    """Plain HTTP(S) to one server: JSON requests and server-sent-event streams.

    Timeouts: ``connect_timeout`` to open the connection, ``timeout`` for every read (a
    server that sends nothing for that long is stalled).
    """

    def __init__(self, url: str, api_key: str = "", *, timeout: float = 120.0,
                 connect_timeout: float = 5.0):
        self.url = normalize_url(url)
        parts = urlsplit(self.url)
        self._https = parts.scheme == "https"
        self._host = parts.hostname or ""
        self._port = parts.port
        self._base = parts.path
        self._api_key = api_key
        self.timeout = float(timeout)
        self.connect_timeout = float(connect_timeout)
        self._streams: set = set()  # open streaming connections (abort() cuts them)

    def __repr__(self) -> str:  # never shows the API key
        return f"ServerClient({self.url!r})"

    def _connect(self, timeout: float | None = None) -> http.client.HTTPConnection:
        cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        conn = cls(self._host, self._port, timeout=self.connect_timeout)
        try:
            conn.connect()
        except (ConnectionRefusedError, socket.gaierror, TimeoutError, OSError) as exc:
            conn.close()
            raise ServerError(self._conn_message(exc)) from exc
        conn.sock.settimeout(self.timeout if timeout is None else timeout)
        return conn

    def reach(self) -> None:
        """A connection opened and closed at once (ServerError with the reason if none
        opens): whether anything listens at the server's address, in a millisecond on
        this computer."""
        self._connect().close()

    def _conn_message(self, exc: BaseException) -> str:
        if isinstance(exc, ConnectionRefusedError):
            why = "connection refused; is the server running?"
        elif isinstance(exc, socket.gaierror):
            why = "unknown host name"
        elif isinstance(exc, TimeoutError | socket.timeout):
            why = f"no connection within {self.connect_timeout:g} s"
        else:
            why = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        return f"cannot reach the model server at {self.url} ({why})"

    def _headers(self, body: bool) -> dict:
        h = {"Accept": "application/json, text/event-stream", "User-Agent": "hela-desktop"}
        if body:
            h["Content-Type"] = "application/json"
        if self._api_key:
            h["Authorization"] = f"Bearer {self._api_key}"
        return h

    def open(self, method: str, path: str, body: dict | None = None,
             timeout: float | None = None):
        """Send a request; returns (connection, response) for a 2xx answer, else ServerError
        (`timeout`: for each read of this request, instead of the client's)."""
        conn = self._connect(timeout)
        return conn, self._request(conn, method, path, body, timeout)

    def _request(self, conn: http.client.HTTPConnection, method: str, path: str,
                 body: dict | None, timeout: float | None = None) -> http.client.HTTPResponse:
        """Send a request on an open connection; the response for a 2xx answer, else the
        connection is closed and ServerError raised."""
        data = json.dumps(body).encode("utf-8") if body is not None else None
        try:
            conn.request(method, self._base + path, body=data, headers=self._headers(data is not None))
            resp = conn.getresponse()
        except BaseException as exc:
            conn.close()
            raise self._read_error(exc, timeout) from exc
        if resp.status >= 400:
            try:
                body_bytes = resp.read(4096)
            except Exception:  # noqa: BLE001 - the status line says enough
                body_bytes = b""
            conn.close()
            err = ServerError(self._http_message(resp.status, resp.reason, path, body_bytes,
                                                 resp.getheader("Content-Type", "")))
            err.status = resp.status
            raise err
        return resp

    def _http_message(self, status, reason, path, body, ctype) -> str:
        what = _error_text(body, ctype)
        if status in (401, 403):
            return (f"the model server at {self.url} refused the API key (HTTP {status}): {what}")
        return f"the model server at {self.url} answered HTTP {status} {reason} to {path}: {what}"

    def _read_error(self, exc: BaseException, timeout: float | None = None) -> BaseException:
        if isinstance(exc, ServerError | KeyboardInterrupt | GeneratorExit):
            return exc
        if isinstance(exc, TimeoutError | socket.timeout):
            return ServerError(f"the model server at {self.url} stalled: nothing received "
                               f"for {self.timeout if timeout is None else timeout:g} s (timeout)")
        if isinstance(exc, http.client.IncompleteRead | http.client.RemoteDisconnected
                      | ConnectionResetError | BrokenPipeError | ConnectionAbortedError):
            return ServerError(f"the model server at {self.url} closed the connection "
                               "mid-answer (did it stop or crash?)")
        if isinstance(exc, OSError | http.client.HTTPException):
            return ServerError(f"the model server at {self.url} failed: "
                               f"{_one_line(str(exc)) or type(exc).__name__}")
        return exc

    def get_json(self, path: str, timeout: float | None = None) -> dict:
        return self._json("GET", path, None, timeout)

    def post_json(self, path: str, body: dict) -> dict:
        return self._json("POST", path, body)

    def _json(self, method: str, path: str, body: dict | None,
              timeout: float | None = None) -> dict:
        conn, resp = self.open(method, path, body, timeout)
        try:
            raw = resp.read()
        except BaseException as exc:
            raise self._read_error(exc, timeout) from exc
        finally:
            conn.close()
        try:
            return json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise ServerError(f"the model server at {self.url} answered {path} with something "
                              f"that is not JSON: {_error_text(raw, '')}") from exc

    def stream(self, path: str, body: dict, stop: threading.Event | None = None
               ) -> Generator[dict, None, None]:
        """POST `body` and yield each server-sent event's JSON object until ``[DONE]``.

        Closing the generator closes the connection (the server stops generating).  A
        malformed chunk, an error event, or a stream that ends before the answer finished
        raises ServerError; so does `stop`, set before the connection could be cut (Stop
        pressed while the request was being made: `abort` found nothing to cut, and the
        answer waited for the server's timeout).
        """
        conn = self._connect()
        # cut by abort() from now on: a server that has gone quiet before its first byte
        # (no response headers yet) holds the answer as much as one that stalls mid-stream
        sock = conn.sock  # (the response takes it over: conn.sock may be gone later)
        self._streams.add(sock)
        try:
            if stop is not None and stop.is_set():  # (set before abort() is called)
                raise ServerError("stopped before the request was sent")
            resp = self._request(conn, "POST", path, body)
            ctype = resp.getheader("Content-Type", "")
            if "event-stream" not in ctype:
                raw = resp.read(4096)
                raise ServerError(f"the model server at {self.url} did not stream {path} "
                                  f"(it sent {ctype or 'no content type'}): {_error_text(raw, ctype)}")
            finished = started = False
            while True:
                try:
                    line = resp.readline()
                except BaseException as exc:
                    raise self._read_error(exc) from exc
                if not line:
                    if finished:
                        return
                    raise ServerError(self._ended_message(started))
                line = line.strip()
                if not line or line.startswith(b":") or line.startswith((b"event:", b"id:",
                                                                          b"retry:")):
                    continue
                if line.startswith(b"error:"):
                    raise ServerError(f"the model server at {self.url} reported an error: "
                                      f"{_error_text(line[6:], 'json')}")
                if not line.startswith(b"data:"):
                    raise ServerError(f"the model server at {self.url} sent a malformed stream "
                                      f"line: {_one_line(line.decode('utf-8', 'replace'), 60)}")
                data = line[5:].strip()
                if data == b"[DONE]":
                    return
                try:
                    obj = json.loads(data.decode("utf-8"))
                    if not isinstance(obj, dict):
                        raise ValueError("not an object")
                except (ValueError, UnicodeDecodeError) as exc:
                    raise ServerError(f"the model server at {self.url} sent a malformed stream "
                                      f"chunk: {_one_line(data.decode('utf-8', 'replace'), 60)}"
                                      ) from exc
                if "error" in obj and not obj.get("choices"):
                    raise ServerError(f"the model server at {self.url} reported an error: "
                                      f"{_error_text(json.dumps(obj).encode(), 'json')}")
                if any(c.get("finish_reason") for c in obj.get("choices") or []
                       if isinstance(c, dict)):
                    finished = True
                started = True
                yield obj
        finally:
            self._streams.discard(sock)
            conn.close()

    def _ended_message(self, started: bool) -> str:
        """A stream that ended without its last chunk: mid-answer, or before any (as
        `llama_cpp.server` does with a prompt longer than its context, 2048 by default)."""
        if started:
            return (f"the model server at {self.url} ended the stream before the answer "
                    "finished (did it stop or crash?)")
        return (f"the model server at {self.url} ended the stream before the answer began "
                "(did it stop or crash, or is the prompt longer than the context size it was "
                "started with?)")

    def abort(self) -> None:
        """Thread-safe: cut every open stream now (a read waiting on a stalled server ends)."""
        for sock in list(self._streams):
            with contextlib.suppress(OSError, AttributeError):
                sock.shutdown(socket.SHUT_RDWR)


# ---- the server as the assistant's model ----------------------------------------------------
class LlamaCppPythonLog:
    """Prompt tokens processed per request, from ``llama_cpp.server``'s verbose log (stderr).

    That server reports no processed-token count over HTTP; it logs one line per request
    (``Llama.generate: P prefix-match hit, remaining N prompt tokens to eval``).  ``take()``
    returns the counts logged since the last call, in order.
    """

    _HIT = re.compile(rb"Llama\.generate: (\d+) prefix-match hit, remaining (\d+) prompt tokens")
    _CACHED = re.compile(rb"Llama\.generate: full prompt already cached")

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._offset = self.path.stat().st_size if self.path.exists() else 0

    def take(self) -> list[int]:
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self._offset)
                data = fh.read()
        except OSError:
            return []
        end = data.rfind(b"\n") + 1
        self._offset += end
        counts = []
        for line in data[:end].splitlines():
            m = self._HIT.search(line)
            if m:
                counts.append(int(m.group(2)))
            elif self._CACHED.search(line):
                counts.append(0)
        return counts


class ServerLLM:
    """A model on an OpenAI-compatible server, shaped like `LocalLLM` for prompt building.

    ``connect()`` checks the server (reachable, the model listed) and learns what it can:
    the chat template and context size (llama-server ``/props``; a GGUF path as model id),
    which decides between the ``completions`` and ``chat`` ways of asking.
    """

    remote = True
    can_shift = False  # no KV-cache editing over HTTP: a swap re-sends from the first change
    cache_tag = None

    def __init__(self, url: str, model: str = "", api_key: str = "", *, n_ctx: int = 4096,
                 timeout: float = 120.0, connect_timeout: float = 5.0, mode: str = "auto"):
        self.client = ServerClient(url, api_key, timeout=timeout, connect_timeout=connect_timeout)
        self.url = self.client.url
        self.model = model
        self.n_ctx = n_ctx
        self.mode = mode  # "auto" | "completions" | "chat"
        self.kind = "openai"  # "llama-server" | "llama-cpp-python" | "openai"
        self.template: str | None = None
        self._bos = self._eos = ""
        self._formatter: Any = None
        # one vocabulary for the process: a turn's prompt, tokenized before the server was
        # connected anew (it had gone down between turns), is read back by the new
        # connection's model (its own pieces failed: "IndexError: list index out of range")
        self._tok = PIECES
        self.connected = False
        self.prefill_s_per_token = 0.0005  # refined from measured first-chunk latency
        self.log: LlamaCppPythonLog | None = None  # set to read llama_cpp.server's counts
        self.evaluated_tokens = 0  # the server's own counts, where it reports them

    def __repr__(self) -> str:
        return f"ServerLLM({self.url!r}, model={self.model!r})"

    # -- what LocalLLM offers the assistant -------------------------------------------------
    @property
    def name(self) -> str:
        return Path(self.model).stem if self.model.endswith(".gguf") else (self.model or "server")

    @property
    def path(self) -> Path:  # for messages that name the model file
        return Path(self.name)

    device = "server"
    n_gpu_layers = 0

    def tokenize(self, text: str, *, special: bool = True) -> list[int]:
        return self._tok.tokenize(text)

    def count_tokens(self, text: str) -> int:
        return len(self._tok.tokenize(text))

    def detokenize(self, tokens: Sequence[int]) -> bytes:
        return self._tok.detokenize(tokens).encode("utf-8")

    def text(self, tokens: Sequence[int]) -> str:
        return self._tok.detokenize(tokens)

    def render(self, messages: list[dict]) -> str:
        if self._formatter is None:
            self._formatter = make_formatter(self.template, self._eos, self._bos)
        return self._formatter(messages=messages).prompt

    def room(self, a: int, b: int) -> int:
        return b - a

    def swap_seconds(self, tokens: int, shift: bool) -> float:
        return tokens * self.prefill_s_per_token

    def prefill_s_now(self) -> float:
        """Seconds per prompt token the server takes (from its measured first-chunk
        latency); the same question `LocalLLM.prefill_s_now` answers for a local model."""
        return self.prefill_s_per_token

    def close(self) -> None:
        self.client.abort()

    def abort(self) -> None:
        """Thread-safe: end the answer being streamed without waiting for the server."""
        self.client.abort()

    # -- checks ---------------------------------------------------------------------------
    def reach(self) -> None:
        """Is the server still there (`ServerClient.reach`; ServerError if not)?  Asked
        before each message is stored: a server gone since it was connected refuses the
        message, as one that cannot be reached at a switch does, rather than storing it
        and then failing (QA pass 22: the same "connection refused" had two outcomes)."""
        self.client.reach()

    def models(self, timeout: float | None = None) -> list[str]:
        d = self.client.get_json("/v1/models", timeout)
        data = d.get("data") if isinstance(d, dict) else None
        if not isinstance(data, list):
            raise ServerError(f"the model server at {self.url} answered /v1/models without a "
                              "model list; is this an OpenAI-compatible server?")
        return [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id")]

    def connect(self) -> ServerLLM:
        """Check the server and the model; learn template and context size (ServerError).

        The checks wait `PROBE_TIMEOUT_S` at most (or `timeout`, if shorter) for an answer:
        a server that takes the connection but says nothing (stopped with SIGSTOP, hung)
        is reported within seconds of a switch, not after the answers' `timeout`."""
        listed = self.models(self.probe_timeout)
        if not self.model:
            if len(listed) != 1:
                raise ServerError(f"the model server at {self.url} serves "
                                  f"{', '.join(listed) or 'no models'}; set the model name")
            self.model = listed[0]
        elif self.model not in listed:
            raise ServerError(f"the model server at {self.url} has no model {self.model!r} "
                              f"(it lists: {', '.join(listed) or 'none'})")
        self._learn()
        self.connected = True
        return self

    def _learn(self) -> None:
        props = None
        with contextlib.suppress(ServerError):
            props = self.client.get_json("/props", self.probe_timeout)
        if isinstance(props, dict) and ("chat_template" in props
                                        or "default_generation_settings" in props):
            self.kind = "llama-server"
            self.template = props.get("chat_template") or None
            self._bos = props.get("bos_token") or ""
            self._eos = props.get("eos_token") or ""
            gen = props.get("default_generation_settings") or {}
            n = gen.get("n_ctx") or props.get("n_ctx")
            if isinstance(n, int) and n > 0:
                self.n_ctx = n
        p = Path(self.model).expanduser()
        if self.template is None and p.suffix == ".gguf" and p.is_file():
            # llama_cpp.server names its model by path: the same file is here
            from .model_catalog import read_gguf_info

            with contextlib.suppress(Exception):
                info = read_gguf_info(p)
                self.template = info.chat_template or None
                self._bos, self._eos = info.bos_text, info.eos_text
                self.kind = "llama-cpp-python"
                if info.context_length:
                    self.n_ctx = min(self.n_ctx, info.context_length)
        self._formatter = None
        if self.mode == "auto":
            self.mode_in_use = "completions" if self.template else "chat"
        else:
            self.mode_in_use = self.mode

    mode_in_use = "chat"

    @property
    def probe_timeout(self) -> float:
        """How long `connect`'s checks wait for an answer (they are quick to answer)."""
        return min(PROBE_TIMEOUT_S, self.client.timeout)

    # -- streaming ------------------------------------------------------------------------
    def stream(self, *, prompt: str | None = None, messages: list[dict] | None = None,
               max_tokens: int, temperature: float, top_p: float, seed: int | None = None,
               report: StreamReport | None = None, extra: dict | None = None,
               stop: threading.Event | None = None) -> Generator[str, None, None]:
        """Yield text pieces (one per server chunk, about one token each).

        ``prompt``: raw completion of the rendered text; ``messages``: chat completion (a
        final assistant message is continued).  `report` is filled with what the server
        says about the request.  `stop`: the answer's Stop (`ServerClient.stream`).
        """
        report = report if report is not None else StreamReport()
        body: dict = {"model": self.model, "stream": True, "max_tokens": max(1, max_tokens),
                      "temperature": temperature, "top_p": top_p}
        if seed is not None:
            body["seed"] = seed
        body.update(extra or {})
        if self.kind == "llama-server":
            body.update(cache_prompt=True, timings_per_token=True)
        elif self.kind == "openai":
            body["stream_options"] = {"include_usage": True}
        if prompt is not None:
            path = "/v1/completions"
            body["prompt"] = prompt
        else:
            path = "/v1/chat/completions"
            body["messages"] = messages
            if messages and messages[-1]["role"] == "assistant" and self.kind == "openai":
                # vLLM/SGLang: continue the final message instead of opening a new one
                body.update(continue_final_message=True, add_generation_prompt=False)
        t0 = time.perf_counter()
        for obj in self._stream_once(path, body, stop):
            self._read_counts(obj, report)
            for c in obj.get("choices") or []:
                if not isinstance(c, dict):
                    continue
                if c.get("finish_reason"):
                    report.finish_reason = c["finish_reason"]
                piece = c.get("text")
                if piece is None:
                    delta = c.get("delta") or {}
                    piece = delta.get("content") if isinstance(delta, dict) else None
                if piece:
                    if report.first_chunk_s is None:
                        report.first_chunk_s = time.perf_counter() - t0
                        self._log_counts(report)
                    report.chunks += 1
                    yield piece

    # request fields only some servers know; a server that refuses one (HTTP 400/422) is
    # asked again without them, and from then on never sent them
    OPTIONAL_FIELDS = ("stream_options", "continue_final_message", "add_generation_prompt",
                       "timings_per_token", "cache_prompt", "top_k", "repeat_penalty")
    _plain_requests = False

    def _stream_once(self, path: str, body: dict, stop: threading.Event | None = None
                     ) -> Generator[dict, None, None]:
        if self._plain_requests:
            body = {k: v for k, v in body.items() if k not in self.OPTIONAL_FIELDS}
        it = self.client.stream(path, body, stop)
        try:
            first = next(it)
        except StopIteration:
            return
        except ServerError as exc:
            extras = [k for k in body if k in self.OPTIONAL_FIELDS]
            if exc.status not in (400, 422) or not extras:
                raise
            self._plain_requests = True
            it = self.client.stream(path, {k: v for k, v in body.items() if k not in extras},
                                    stop)
            try:
                first = next(it)
            except StopIteration:
                return
        try:
            yield first
            yield from it
        finally:
            it.close()

    def _read_counts(self, obj: dict, report: StreamReport) -> None:
        t = obj.get("timings")
        if isinstance(t, dict) and isinstance(t.get("prompt_n"), int):
            report.prompt_processed = t["prompt_n"]  # llama-server's own count
        u = obj.get("usage")
        if isinstance(u, dict):
            if isinstance(u.get("prompt_tokens"), int):
                report.prompt_total = u["prompt_tokens"]
                cached = (u.get("prompt_tokens_details") or {}).get("cached_tokens")
                if isinstance(cached, int) and report.prompt_processed is None:
                    report.prompt_processed = u["prompt_tokens"] - cached
            if isinstance(u.get("completion_tokens"), int):
                report.completion_tokens = u["completion_tokens"]

    def _log_counts(self, report: StreamReport) -> None:
        if self.log is not None and report.prompt_processed is None:
            counts = self.log.take()
            if counts:
                report.prompt_processed = counts[-1]

    def finish(self, report: StreamReport) -> None:
        """After a request: take a late log count; refine the per-token prefill estimate."""
        self._log_counts(report)
        if report.prompt_processed:
            self.evaluated_tokens += report.prompt_processed
            if report.first_chunk_s is not None and report.prompt_processed >= 16:
                est = report.first_chunk_s / report.prompt_processed
                self.prefill_s_per_token = 0.5 * self.prefill_s_per_token + 0.5 * est

    def complete(self, prompt: str, *, grammar=None, max_tokens: int = 256,
                 temperature: float = 0.7, top_p: float = 0.95, top_k: int = 40,
                 repeat_penalty: float = 1.0, seed: int | None = None,
                 stopping_criteria=None, **_ignored) -> dict:
        """`LocalLLM.complete` over the server (consolidation): a raw completion of the
        rendered `prompt`, GBNF `grammar` passed on (llama-server and llama_cpp.server honour
        it), `stopping_criteria` checked after every chunk."""
        extra: dict[str, Any] = {"top_k": top_k, "repeat_penalty": repeat_penalty}
        if grammar is not None:  # GBNF text (a llama_cpp LlamaGrammar keeps it in _grammar)
            extra["grammar"] = grammar if isinstance(grammar, str) else grammar._grammar
        pieces: list[str] = []
        stream = self.stream(prompt=prompt, max_tokens=max_tokens, temperature=temperature,
                             top_p=top_p, seed=seed, extra=extra)
        try:
            for piece in stream:
                pieces.append(piece)
                if stopping_criteria is not None and stopping_criteria(None, None):
                    break
        finally:
            stream.close()
        return {"choices": [{"text": "".join(pieces), "index": 0}]}

    def check_streaming(self) -> StreamReport:
        """A two-token streamed answer (for doctor); ServerError if streaming fails."""
        if not self.connected:
            self.connect()
        rep = StreamReport()
        msgs = [{"role": "user", "content": "Say OK."}]
        if self.mode_in_use == "completions":
            pieces = list(self.stream(prompt=self.render(msgs), max_tokens=2, temperature=0.0,
                                      top_p=1.0, report=rep))
        else:
            pieces = list(self.stream(messages=msgs, max_tokens=2, temperature=0.0, top_p=1.0,
                                      report=rep))
        if not pieces and rep.finish_reason is None:
            raise ServerError(f"the model server at {self.url} streamed no text")
        return rep


def check_server(url: str, model: str, api_key: str = "", *, timeout: float = 30.0) -> tuple[bool, str]:
    """Doctor's one line: reachable, model listed, streaming works."""
    llm = ServerLLM(url, model, api_key, timeout=timeout)
    try:
        llm.connect()
        rep = llm.check_streaming()
    except ServerError as exc:
        return False, str(exc)
    first = f", first text after {rep.first_chunk_s * 1000:.0f} ms" if rep.first_chunk_s else ""
    return True, (f"{llm.url}: reachable, model {llm.model!r} listed, streaming works "
                  f"({llm.kind}, {llm.mode_in_use} mode{first})")


def api_key(settings) -> str:
    """The server's API key: the setting, else $HELA_SERVER_API_KEY."""
    import os

    return settings.server_api_key or os.environ.get("HELA_SERVER_API_KEY", "")


def server_llm(settings) -> ServerLLM:
    """A ServerLLM from the settings."""
    return ServerLLM(settings.server_url, settings.server_model, api_key(settings),
                     n_ctx=settings.n_ctx, timeout=settings.server_timeout)


__all__ = ["ServerError", "ServerClient", "ServerLLM", "StreamReport", "LlamaCppPythonLog",
           "PieceTokenizer", "check_server", "server_llm", "api_key", "normalize_url", "is_local_host",
           "privacy_warning", "where_answers_come_from"]
