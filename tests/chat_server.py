"""A loopback OpenAI-compatible chat-completions server for the judge tests.

A real HTTP server (``http.server`` in a thread, one thread per connection) rather than a
mocked ``requests``: the client's timeouts, retries, headers and connection handling are
exercised on the wire. Replies are scripted per model (each judge in a test has its own
model name) or by a responder function; every request is recorded, so tests can count
hits and read what was sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Step:
    """One scripted answer: a chat reply with ``content``, or a raw ``body``/``status``."""

    content: str | None = None
    status: int = 200
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def reply(content: str | dict[str, Any], **kwargs: Any) -> Step:
    text = content if isinstance(content, str) else json.dumps(content)
    return Step(content=text, **kwargs)


@dataclass
class Hit:
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None

    @property
    def model(self) -> str:
        return str((self.body or {}).get("model", ""))

    @property
    def prompt(self) -> str:
        return "\n".join(m.get("content", "") for m in (self.body or {}).get("messages", []))


class ChatServer:
    def __init__(self) -> None:
        self.queues: dict[str, deque[Step]] = {}
        self.default: Step | None = None
        self.responder: Callable[[Hit], Step] | None = None
        self.hits: list[Hit] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                hit = Hit(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                server._enter(hit)
                left = False
                try:
                    step = server._step(hit)
                    if step.delay:
                        time.sleep(step.delay)
                    if step.body is not None:
                        payload = step.body
                    elif step.status == 200:
                        payload = json.dumps(
                            {
                                "id": "chatcmpl-test",
                                "object": "chat.completion",
                                "model": hit.model,
                                "choices": [
                                    {
                                        "index": 0,
                                        "message": {"role": "assistant", "content": step.content},
                                        "finish_reason": "stop",
                                    }
                                ],
                            }
                        ).encode()
                    else:
                        payload = json.dumps({"error": {"message": "scripted"}}).encode()
                    # Leave before replying: a client that has read the reply may send
                    # its next request before this thread runs again, and counting both
                    # in flight made max_in_flight exceed the client's limit under load.
                    server._leave()
                    left = True
                    try:
                        self.send_response(step.status)
                        self.send_header("Content-Type", "application/json")
                        self.send_header("Content-Length", str(len(payload)))
                        for name, value in step.headers.items():
                            self.send_header(name, value)
                        self.end_headers()
                        self.wfile.write(payload)
                    except (BrokenPipeError, ConnectionResetError):
                        pass  # the client gave up (a timeout test)
                finally:
                    if not left:
                        server._leave()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    # ------------------------------------------------------------------ control
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def start(self) -> ChatServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def script(self, model: str, *steps: Step) -> None:
        self.queues.setdefault(model, deque()).extend(steps)

    def hits_for(self, model: str) -> list[Hit]:
        return [hit for hit in self.hits if hit.model == model]

    # ------------------------------------------------------------------ internals
    def _enter(self, hit: Hit) -> None:
        with self._lock:
            self.hits.append(hit)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _step(self, hit: Hit) -> Step:
        with self._lock:
            queue = self.queues.get(hit.model)
            if queue:
                return queue.popleft()
        if self.responder is not None:
            return self.responder(hit)
        if self.default is not None:
            return self.default
        return Step(status=500, body=b'{"error": "no scripted reply left"}')
