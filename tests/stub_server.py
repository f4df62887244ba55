"""A tiny misbehaving OpenAI-compatible server, run as its own process by tests/test_server.py.

``python tests/stub_server.py PORT``; the first path segment picks the behaviour
(the client is given ``http://127.0.0.1:PORT/<mode>`` as base URL):

- ``ok``: streams "one two three" properly
- ``stall``: streams two chunks, then sends nothing for a minute
- ``mute``: answers nothing at all, not even the model list (a server stopped with SIGSTOP)
- ``silent``: reads the request, then sends nothing at all (not even headers) for a minute
- ``malformed``: two good chunks, then a broken JSON chunk
- ``truncated``: two good chunks, then closes the connection without finishing
- ``late``: like ``ok``, after a second of silence (a server reading a long prompt)
- ``empty``: closes the stream before any chunk (llama_cpp.server, a prompt over its context)
- ``html``: answers the completion with HTTP 502 and an HTML error page
- ``auth``: like ``ok`` but only with ``Authorization: Bearer sekrit`` (else HTTP 401)
- ``strict``: like ``ok`` but answers HTTP 400 to a request with a field it does not know
  (as strict OpenAI-compatible servers do with ``stream_options``)
- ``loop``: says two sentences, then the first again and more (a small model looping)

Every mode lists one model, ``stub``, at ``/v1/models``.
"""

from __future__ import annotations

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def chunk(text: str, finish: str | None = None) -> bytes:
    obj = {"object": "chat.completion.chunk", "model": "stub",
           "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": finish}]}
    return b"data: " + json.dumps(obj).encode() + b"\n\n"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def _mode(self) -> tuple[str, str]:
        parts = self.path.strip("/").split("/", 1)
        return parts[0], "/" + (parts[1] if len(parts) > 1 else "")

    def _send(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _authorized(self, mode: str) -> bool:
        if mode != "auth" or self.headers.get("Authorization") == "Bearer sekrit":
            return True
        self._send(401, json.dumps({"error": {"message": "invalid api key"}}).encode(),
                   "application/json")
        return False

    def do_GET(self):
        mode, path = self._mode()
        if mode == "mute":
            time.sleep(60)
            return
        if not self._authorized(mode):
            return
        if path == "/v1/models":
            self._send(200, json.dumps({"object": "list", "data": [{"id": "stub"}]}).encode(),
                       "application/json")
        else:
            self._send(404, b'{"detail": "Not Found"}', "application/json")

    def do_POST(self):
        mode, path = self._mode()
        n = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(n) or b"{}")
        known = {"model", "messages", "prompt", "stream", "max_tokens", "temperature", "top_p",
                 "seed", "grammar"}
        if mode == "strict" and set(body) - known:
            unknown = ", ".join(sorted(set(body) - known))
            self._send(400, json.dumps({"error": {"message": f"unknown fields: {unknown}"}})
                       .encode(), "application/json")
            return
        if not self._authorized(mode):
            return
        if path not in ("/v1/chat/completions", "/v1/completions"):
            self._send(404, b'{"detail": "Not Found"}', "application/json")
            return
        if mode == "html":
            page = (b"<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad "
                    b"Gateway</h1><hr>nginx</body></html>")
            self._send(502, page, "text/html")
            return
        if mode == "silent":  # a server that has gone quiet before its first byte
            time.sleep(60)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        w = self.wfile
        if mode == "late":
            time.sleep(1.0)
        if mode == "empty":
            self.close_connection = True
            return
        if mode == "loop":
            for piece in ("My dog Pixel", " loves the beach.", " He runs every day.",
                          " My dog Pixel", " loves the beach.", " He runs"):
                w.write(chunk(piece))
            w.write(chunk(" every day.", "stop"))
            w.write(b"data: [DONE]\n\n")
            w.flush()
            self.close_connection = True
            return
        w.write(chunk("one"))
        w.write(chunk(" two"))
        w.flush()
        if mode == "stall":
            time.sleep(60)
        elif mode == "malformed":
            w.write(b'data: {"choices": [{"delta": {"content": " thr\n\n')
        elif mode == "truncated":
            pass  # the connection closes mid-answer
        else:
            w.write(chunk(" three", "stop"))
            w.write(b"data: [DONE]\n\n")
        w.flush()
        self.close_connection = True


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    server.serve_forever()
