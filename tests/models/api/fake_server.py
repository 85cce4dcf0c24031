"""A local stand-in for the Anthropic and OpenAI HTTP APIs, for tests of the real SDKs offline.

It serves the endpoints the API backends use, with responses shaped like the providers' own:
Anthropic ``/v1/messages`` and Message Batches, OpenAI files, batches and chat completions. Knobs:
``pending_polls`` (how many polls see a batch still running), ``fail_prompts`` (prompt → how many
times its batch item fails) and ``inject`` (the next matching requests get an HTTP error).
"""

from __future__ import annotations

import email.parser
import email.policy
import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator


def reply_text(prompt: str) -> str:
    """The deterministic answer to ``prompt``."""
    return f"---- MODULE Answer ----\n\\* {prompt[-24:]}\n====\n"


def input_tokens(prompt: str) -> int:
    """The input token count the fake reports for ``prompt``."""
    return len(prompt)


OUTPUT_TOKENS = 100


@dataclass
class Injected:
    method: str
    path_prefix: str
    status: int
    times: int


@dataclass
class FakeAPIState:
    """Everything the server has seen and will do."""

    pending_polls: int = 1
    fail_prompts: dict[str, int] = field(default_factory=dict)
    fail_kind: str = "errored"
    requests: list[tuple[str, str]] = field(default_factory=list)
    bodies: list[tuple[str, Any]] = field(default_factory=list)
    batches: dict[str, dict[str, Any]] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    injected: list[Injected] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    ids: itertools.count = field(default_factory=itertools.count)

    def count(self, method: str, path: str) -> int:
        """How many requests matched ``method`` and exactly ``path``."""
        return sum(1 for m, p in self.requests if m == method and p == path)

    def batch_sizes(self) -> list[int]:
        """The number of items in each batch created, in order."""
        return [len(b["items"]) for b in self.batches.values()]

    def should_fail(self, prompt: str) -> bool:
        left = self.fail_prompts.get(prompt, 0)
        if left > 0:
            self.fail_prompts[prompt] = left - 1
            return True
        return False


class FakeAPIServer:
    """A threaded HTTP server on 127.0.0.1 at a free port; use as a context manager."""

    def __init__(self) -> None:
        self.state = FakeAPIState()
        handler = type("Handler", (_Handler,), {"state": self.state})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        handler.base_url = self.url
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)

    def __enter__(self) -> FakeAPIServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def inject(self, method: str, path_prefix: str, status: int, times: int = 1) -> None:
        """Answer the next ``times`` requests matching ``method`` and ``path_prefix`` with ``status``."""
        self.state.injected.append(Injected(method, path_prefix, status, times))


def _iso(moment: float) -> str:
    return datetime.fromtimestamp(moment, timezone.utc).isoformat().replace("+00:00", "Z")


def anthropic_message(body: dict[str, Any], number: int) -> dict[str, Any]:
    """A Message answering a Messages API body (with a thinking block, as current Opus models send)."""
    prompt = body["messages"][0]["content"]
    return {"id": f"msg_{number:04d}", "type": "message", "role": "assistant", "model": body["model"],
            "content": [{"type": "thinking", "thinking": "Plan the module.", "signature": "sig"},
                        {"type": "text", "text": reply_text(prompt)}],
            "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": input_tokens(prompt), "output_tokens": OUTPUT_TOKENS,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "service_tier": "batch"}}


def openai_completion(body: dict[str, Any], number: int) -> dict[str, Any]:
    """A chat completion answering a Chat Completions body."""
    prompt = body["messages"][0]["content"]
    return {"id": f"chatcmpl-{number:04d}", "object": "chat.completion", "created": int(time.time()),
            "model": body["model"] + "-2025-08-07",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": reply_text(prompt), "refusal": None},
                         "finish_reason": "stop", "logprobs": None}],
            "usage": {"prompt_tokens": input_tokens(prompt), "completion_tokens": OUTPUT_TOKENS,
                      "total_tokens": input_tokens(prompt) + OUTPUT_TOKENS,
                      "completion_tokens_details": {"reasoning_tokens": 40}}}


class _Handler(BaseHTTPRequestHandler):
    state: FakeAPIState
    base_url: str
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    # ------------------------------------------------------------------ plumbing

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        path = self.path.split("?", 1)[0]
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        with self.state.lock:
            self.state.requests.append((method, path))
            if raw and "json" in (self.headers.get("Content-Type") or ""):
                self.state.bodies.append((path, json.loads(raw)))
            for rule in self.state.injected:
                if rule.times > 0 and rule.method == method and path.startswith(rule.path_prefix):
                    rule.times -= 1
                    return self._json({"type": "error", "error": {"type": "rate_limit_error" if rule.status == 429
                                                                  else "api_error", "message": "injected"}},
                                      rule.status)
            route = self._route(method, path)
            if route is None:
                return self._json({"error": {"message": f"no route {method} {path}"}}, 404)
            handler, argument = route
            return handler(argument, raw)

    def _route(self, method: str, path: str) -> tuple[Any, str] | None:
        parts = path.strip("/").split("/")
        table = {
            ("POST", "v1/messages"): self.anthropic_message,
            ("POST", "v1/messages/batches"): self.anthropic_create,
            ("POST", "v1/chat/completions"): self.openai_chat,
            ("POST", "v1/files"): self.openai_upload,
            ("POST", "v1/batches"): self.openai_create,
        }
        joined = "/".join(parts)
        if (method, joined) in table:
            return table[(method, joined)], ""
        if method == "GET" and parts[:3] == ["v1", "messages", "batches"] and len(parts) == 4:
            return self.anthropic_retrieve, parts[3]
        if method == "GET" and parts[:3] == ["v1", "messages", "batches"] and len(parts) == 5 and parts[4] == "results":
            return self.anthropic_results, parts[3]
        if method == "GET" and parts[:2] == ["v1", "batches"] and len(parts) == 3:
            return self.openai_retrieve, parts[2]
        if method == "GET" and parts[:2] == ["v1", "files"] and len(parts) == 4 and parts[3] == "content":
            return self.openai_content, parts[2]
        return None

    def _json(self, document: Any, status: int = 200) -> None:
        self._send(json.dumps(document).encode(), "application/json", status)

    def _send(self, data: bytes, content_type: str, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        if status == 429 or status >= 500:
            self.send_header("retry-after-ms", "1")
        self.end_headers()
        self.wfile.write(data)

    def _next(self) -> int:
        return next(self.state.ids)

    def _poll(self, batch: dict[str, Any]) -> bool:
        batch["polls"] += 1
        return batch["polls"] > self.state.pending_polls

    # ------------------------------------------------------------------ Anthropic

    def anthropic_message(self, _: str, raw: bytes) -> None:
        self._json(anthropic_message(json.loads(raw), self._next()))

    def anthropic_create(self, _: str, raw: bytes) -> None:
        requests = json.loads(raw)["requests"]
        batch_id = f"msgbatch_{self._next():04d}"
        self.state.batches[batch_id] = {"provider": "anthropic", "items": requests, "polls": 0,
                                        "created": time.time(), "outcomes": None}
        self._json(self._anthropic_batch(batch_id, ended=False))

    def _anthropic_batch(self, batch_id: str, ended: bool) -> dict[str, Any]:
        batch = self.state.batches[batch_id]
        counts = {"processing": len(batch["items"]), "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
        if ended:
            counts["processing"] = 0
            for line in batch["outcomes"]:
                counts[line["result"]["type"]] += 1
        return {"id": batch_id, "type": "message_batch", "processing_status": "ended" if ended else "in_progress",
                "request_counts": counts, "created_at": _iso(batch["created"]),
                "expires_at": _iso(batch["created"] + 86400), "ended_at": _iso(time.time()) if ended else None,
                "archived_at": None, "cancel_initiated_at": None,
                "results_url": f"{self.base_url}/v1/messages/batches/{batch_id}/results" if ended else None}

    def anthropic_retrieve(self, batch_id: str, _: bytes) -> None:
        batch = self.state.batches.get(batch_id)
        if batch is None:
            return self._json({"type": "error", "error": {"type": "not_found_error", "message": "no batch"}}, 404)
        ended = self._poll(batch)
        if ended and batch["outcomes"] is None:
            batch["outcomes"] = [self._anthropic_outcome(item) for item in batch["items"]]
        self._json(self._anthropic_batch(batch_id, ended))

    def _anthropic_outcome(self, item: dict[str, Any]) -> dict[str, Any]:
        prompt = item["params"]["messages"][0]["content"]
        if self.state.should_fail(prompt):
            if self.state.fail_kind == "errored":
                result = {"type": "errored", "error": {"type": "error", "error": {"type": "api_error",
                                                                                  "message": "Internal server error"}}}
            else:
                result = {"type": self.state.fail_kind}
        else:
            result = {"type": "succeeded", "message": anthropic_message(item["params"], self._next())}
        return {"custom_id": item["custom_id"], "result": result}

    def anthropic_results(self, batch_id: str, _: bytes) -> None:
        lines = self.state.batches[batch_id]["outcomes"]
        data = "".join(json.dumps(line) + "\n" for line in reversed(lines))  # order is not guaranteed
        self._send(data.encode(), "application/binary")

    # ------------------------------------------------------------------ OpenAI

    def openai_chat(self, _: str, raw: bytes) -> None:
        self._json(openai_completion(json.loads(raw), self._next()))

    def openai_upload(self, _: str, raw: bytes) -> None:
        header = f"Content-Type: {self.headers['Content-Type']}\r\n\r\n".encode()
        message = email.parser.BytesParser(policy=email.policy.default).parsebytes(header + raw)
        content = b""
        purpose = ""
        filename = ""
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            if name == "file":
                content = part.get_payload(decode=True) or b""
                filename = part.get_filename() or ""
            elif name == "purpose":
                purpose = (part.get_payload(decode=True) or b"").decode().strip()
        file_id = f"file-{self._next():04d}"
        self.state.files[file_id] = content
        self._json({"id": file_id, "object": "file", "bytes": len(content), "created_at": int(time.time()),
                    "filename": filename, "purpose": purpose, "status": "processed"})

    def openai_create(self, _: str, raw: bytes) -> None:
        request = json.loads(raw)
        lines = [json.loads(line) for line in self.state.files[request["input_file_id"]].decode().splitlines() if line]
        batch_id = f"batch_{self._next():04d}"
        self.state.batches[batch_id] = {"provider": "openai", "items": lines, "polls": 0, "created": time.time(),
                                        "request": request, "output": None, "errors": None}
        self._json(self._openai_batch(batch_id, ended=False))

    def _openai_batch(self, batch_id: str, ended: bool) -> dict[str, Any]:
        batch = self.state.batches[batch_id]
        total = len(batch["items"])
        failed = len(batch["error_lines"]) if ended else 0
        document = {"id": batch_id, "object": "batch", "endpoint": batch["request"]["endpoint"],
                    "input_file_id": batch["request"]["input_file_id"], "completion_window": "24h",
                    "status": "completed" if ended else "in_progress", "created_at": int(batch["created"]),
                    "metadata": batch["request"].get("metadata"),
                    "request_counts": {"total": total, "completed": total - failed if ended else 0, "failed": failed}}
        if ended:
            document.update(output_file_id=batch["output"], error_file_id=batch["errors"],
                            completed_at=int(time.time()))
        return document

    def openai_retrieve(self, batch_id: str, _: bytes) -> None:
        batch = self.state.batches.get(batch_id)
        if batch is None:
            return self._json({"error": {"message": "No batch found", "type": "invalid_request_error",
                                         "code": None}}, 404)
        ended = self._poll(batch)
        if ended and batch["output"] is None:
            good, bad = [], []
            for item in batch["items"]:
                prompt = item["body"]["messages"][0]["content"]
                if self.state.should_fail(prompt):
                    bad.append({"id": f"batch_req_{self._next():04d}", "custom_id": item["custom_id"],
                                "response": {"status_code": 500, "request_id": "req_x",
                                             "body": {"error": {"message": "The server had an error",
                                                                "type": "server_error", "code": "server_error"}}},
                                "error": None})
                else:
                    good.append({"id": f"batch_req_{self._next():04d}", "custom_id": item["custom_id"],
                                 "response": {"status_code": 200, "request_id": f"req_{self._next():04d}",
                                              "body": openai_completion(item["body"], self._next())},
                                 "error": None})
            batch["error_lines"] = bad
            batch["output"] = self._store_lines(good)
            batch["errors"] = self._store_lines(bad) if bad else None
        self._json(self._openai_batch(batch_id, ended))

    def _store_lines(self, lines: list[dict[str, Any]]) -> str:
        file_id = f"file-{self._next():04d}"
        self.state.files[file_id] = "".join(json.dumps(line) + "\n" for line in lines).encode()
        return file_id

    def openai_content(self, file_id: str, _: bytes) -> None:
        self._send(self.state.files[file_id], "application/octet-stream")




@contextmanager
def serving(monkeypatch: Any, key_env: str, key: str) -> Iterator[FakeAPIServer]:
    """A running fake server with the provider's key set, no proxy, and batch mode left to the model."""
    monkeypatch.setenv(key_env, key)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.delenv("ALIAS_API_BATCH", raising=False)
    with FakeAPIServer() as running:
        yield running


@contextmanager
def model_factory(create: Callable[..., Any], base_url: str, tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """``build(**options)`` making models pointed at ``base_url`` with tiny intervals; closed on exit."""
    built: list[Any] = []

    def build(**options: Any) -> Any:
        settings: dict[str, Any] = {"base_url": base_url, "journal_dir": tmp_path / "journal",
                                    "poll_interval": 0.001, "backoff": 0.001, "max_retries": 1}
        model = create(**{**settings, **options})
        built.append(model)
        return model

    try:
        yield build
    finally:
        for model in built:
            model.close()


def provider_fixtures(key_env: str, key: str, create: Callable[..., Any], path: str = "") -> tuple[Any, Any]:
    """The ``server`` and ``make`` fixtures of one provider's tests: a fake server with the key set,
    and a factory of models pointed at ``server.url + path``."""
    import pytest

    @pytest.fixture
    def server(monkeypatch: Any) -> Iterator[FakeAPIServer]:
        with serving(monkeypatch, key_env, key) as running:
            yield running

    @pytest.fixture
    def make(server: FakeAPIServer, tmp_path: Path) -> Iterator[Callable[..., Any]]:
        """Build models pointed at the fake server with tiny intervals; closed at teardown."""
        with model_factory(create, server.url + path, tmp_path) as build:
            yield build

    return server, make
