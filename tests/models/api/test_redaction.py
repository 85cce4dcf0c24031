"""Secrets never reach a record, the store, a report, the console or a log (issue #26, major 4).

A local endpoint answers every request with 401 and echoes the credentials it was sent, as gateways
reached through ``base_url`` often do; a whole run against it must leave the key nowhere.
"""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest

from pytest_alias.models.base import Generation
from pytest_alias.models.redact import REDACTED, RedactingFilter, redact, redact_json, register_secret

pytest_plugins = ["pytester"]

KEY = "sk-proj-ECHOEDsecret0123456789abcdef"
ANTHROPIC_KEY = "sk-ant-api03-ECHOEDsecret9876543210"


class EchoingHandler(BaseHTTPRequestHandler):
    """401 for everything, echoing the key in the message and in the body."""

    def _answer(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        if length:
            self.rfile.read(length)
        sent = self.headers.get("authorization") or self.headers.get("x-api-key") or ""
        body = json.dumps({"type": "error", "error": {
            "type": "authentication_error", "code": "invalid_api_key",
            "message": f"Incorrect API key provided: {sent}. Your header was x-api-key: {sent}"}}).encode()
        self.send_response(401)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def echoing() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), EchoingHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_redact_hides_registered_values_and_key_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    register_secret("plain-value-without-shape")
    monkeypatch.setenv("SOME_GATEWAY_TOKEN", "tok_zzzzzzzzzzzz")
    text = ("AuthenticationError: Incorrect API key provided: Bearer sk-abc123456789; plain-value-without-shape; "
            "tok_zzzzzzzzzzzz; {'x-api-key': 'whatever123'}; api_key=hunter22hunter")
    cleaned = redact(text)
    for secret in ("sk-abc123456789", "plain-value-without-shape", "tok_zzzzzzzzzzzz", "whatever123", "hunter22hunter"):
        assert secret not in cleaned
    assert cleaned.startswith("AuthenticationError: Incorrect API key provided: Bearer [redacted]")
    assert redact("MODULE Spec has no key") == "MODULE Spec has no key"
    assert redact_json({"a": [f"Bearer {KEY}"], "n": 1}) == {"a": [f"Bearer {REDACTED}"], "n": 1}


def test_a_generation_never_carries_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    failed = Generation.failed("openai:gpt-5", RuntimeError(f"401: Incorrect API key provided: {KEY}"))
    assert KEY not in json.dumps(failed.to_dict()) and REDACTED in (failed.error or "")
    stored = Generation.from_dict({"text": "ok", "model": "m", "error": f"Bearer {KEY}", "raw": {"echo": KEY}})
    assert KEY not in json.dumps(stored.to_dict())


def test_logs_are_redacted(caplog: pytest.LogCaptureFixture) -> None:
    import pytest_alias.models.api_retry  # noqa: F401 - its logger gets the filter

    logger = logging.getLogger("pytest_alias.models.api")
    assert any(isinstance(f, RedactingFilter) for f in logger.filters)
    with caplog.at_level(logging.WARNING, "pytest_alias.models.api"):
        logger.warning("call failed (%s); retrying", f"Bearer {KEY}")
    assert KEY not in caplog.text and REDACTED in caplog.text


def _leaks(root: Path, secrets: tuple[str, ...]) -> list[str]:
    found = []
    for path in root.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            found += [f"{path}: {secret}" for secret in secrets if secret.encode() in data]
    return found


@pytest.mark.parametrize("spec, env, key", [
    ("openai:gpt-5-mini?batch={batch}&base_url={url}/v1&max_retries=0", "OPENAI_API_KEY", KEY),
    ("claude:claude-opus-4-1?batch={batch}&base_url={url}&max_retries=0", "ANTHROPIC_API_KEY", ANTHROPIC_KEY),
])
@pytest.mark.parametrize("batch", ["0", "1"])
def test_a_run_against_an_endpoint_that_echoes_the_key_leaks_it_nowhere(
        spec: str, env: str, key: str, batch: str, echoing: str, pytester: pytest.Pytester, small_suite: Path,
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("openai" if env == "OPENAI_API_KEY" else "anthropic")
    monkeypatch.setenv(env, key)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    out = tmp_path / "out"
    out.mkdir()
    result = pytester.runpytest_subprocess(
        f"--alias-suite={small_suite}", f"--alias-cache-dir={tmp_path / 'cache'}", "-p", "no:cacheprovider", "-v",
        f"--alias-model={spec.format(url=echoing, batch=batch)}", "--alias-samples=1", "--alias-grade=parse",
        "--alias-conditions=original", f"--alias-report={out / 'run.json'}", f"--alias-report={out / 'run.md'}",
        f"--alias-save-outputs={out / 'saved.jsonl'}", "-rA", timeout=300)
    printed = result.stdout.str() + result.stderr.str()
    assert "Incorrect API key provided" in printed or (out / "run.json").is_file(), printed[-3000:]
    secrets = (key, key[len("sk-"):], key[-16:])
    assert not [s for s in secrets if s in printed], printed[-3000:]
    assert not _leaks(tmp_path, secrets)
    assert not _leaks(pytester.path, secrets)
    records = json.loads((out / "run.json").read_text())["records"]
    assert records and all(r["outcome"] == "model error" for r in records)
    assert all(REDACTED in r["generation"]["error"] for r in records), records[0]["generation"]
