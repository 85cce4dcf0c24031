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
    assert records and all(r["outcome"] == "model_error" for r in records)
    assert all(REDACTED in r["generation"]["error"] for r in records), records[0]["generation"]


# --------------------------------------------------------------------------- redaction before any cut (issue #48)

#: A key with no sk-/Bearer shape, 33 characters; each run of 4 of them holds a capital past F, so
#: no hash, hex id or English word in a report holds one by chance.
PLAIN_KEY = "QZ7wXK9rTY3mNP8sLJ2hGW6dCV4bRU5xM"


def _pieces(key: str, size: int = 4) -> set[str]:
    return {key[i:i + size] for i in range(len(key) - size + 1)}


def _key_pieces_in(text: str, key: str = PLAIN_KEY) -> list[str]:
    return sorted(piece for piece in _pieces(key) if piece in text)


def test_the_plain_key_has_no_piece_an_ordinary_text_holds() -> None:
    assert len(PLAIN_KEY) == 33 and redact(f"x {PLAIN_KEY[:-1]} y") == f"x {PLAIN_KEY[:-1]} y"  # no shape of its own
    assert all(any("G" <= c <= "Z" for c in piece) for piece in _pieces(PLAIN_KEY))


@pytest.mark.parametrize("at", [260, 275, 285, 290, 295, 299])
def test_a_key_echoed_across_the_300th_character_is_redacted_before_the_cut(at: int) -> None:
    register_secret(PLAIN_KEY)
    message = "x" * (at - len("RuntimeError: ")) + PLAIN_KEY + " was rejected" * 20
    failed = Generation.failed("openai:gpt-5", RuntimeError(message))
    assert failed.error is not None and len(failed.error) <= 300
    assert not _key_pieces_in(json.dumps(failed.to_dict())), failed.error[-60:]


def test_shorten_redacts_the_whole_text_first_and_keeps_one_line() -> None:
    from pytest_alias.models.redact import shorten

    register_secret(PLAIN_KEY)
    text = "y" * 95 + PLAIN_KEY + "\nsecond line"
    assert shorten(text, 100) == "y" * 95 + REDACTED[:5]
    assert not _key_pieces_in(shorten(text, 100))


def test_what_an_endpoint_left_of_a_registered_key_is_redacted() -> None:
    register_secret(PLAIN_KEY)
    for left in (PLAIN_KEY[:9], PLAIN_KEY[:20] + "…", PLAIN_KEY[-12:], PLAIN_KEY[6:24]):
        cleaned = redact(f"invalid key '{left}' (truncated)")
        assert cleaned == f"invalid key '{REDACTED}{'…' if left.endswith('…') else ''}' (truncated)", cleaned
    assert redact("PLAIN_KEY is ordinary prose") == "PLAIN_KEY is ordinary prose"


@pytest.mark.parametrize("text, hidden", [
    ("POST https://gwuser:gwpass1234@gateway.example/v1/chat failed", ("gwuser", "gwpass1234")),
    ("openai:gpt-x?base_url=https://gwuser:gwpass1234@host/v1&max_tokens=9", ("gwuser", "gwpass1234")),
    ("GET https://token0123456789@host/x", ("token0123456789",)),
    ("https://host/v1?model=m&token=zyx987&sig=s1g&key=k3y&api_key=abc123", ("zyx987", "s1g", "k3y", "abc123")),
])
def test_redact_hides_the_credentials_of_a_url_and_keeps_its_host(text: str, hidden: tuple[str, ...]) -> None:
    cleaned = redact(text)
    assert not [secret for secret in hidden if secret in cleaned], cleaned
    assert REDACTED in cleaned and ("host" in cleaned or "gateway.example" in cleaned)
    assert redact("max_tokens=16000&batch=0 and http://host/path?x=a@b") == "max_tokens=16000&batch=0 and http://host/path?x=a@b"


class LongEchoHandler(BaseHTTPRequestHandler):
    """401 for everything, with the bare key (the header's value without ``Bearer``) echoed again and
    again, so one copy stands across any cut of the message (character 300 included)."""

    def _answer(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        if length:
            self.rfile.read(length)
        sent = (self.headers.get("authorization") or "").removeprefix("Bearer ")
        body = json.dumps({"error": {"type": "invalid_request_error", "code": "invalid_api_key",
                                     "message": "keys tried: " + " ".join([sent] * 14)}}).encode()
        self.send_response(401)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def long_echoing() -> Iterator[tuple[str, int]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), LongEchoHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield "127.0.0.1", server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_a_plain_key_an_endpoint_echoes_past_300_characters_reaches_no_record(
        long_echoing: tuple[str, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In one process: the real SDK, a direct call, the generation's record fields."""
    pytest.importorskip("openai")
    from pytest_alias.run.generation import generation_fields
    from pytest_alias.models import DecodingParams, GenerationRequest, default_registry

    monkeypatch.setenv("OPENAI_API_KEY", PLAIN_KEY)
    host, port = long_echoing
    model = default_registry().create(f"openai:gpt-5-mini?batch=0&max_retries=0&base_url=http://{host}:{port}/v1",
                                      journal_dir=str(tmp_path / "journal"))
    try:
        [generation] = model.generate([GenerationRequest("clock", "original", 0, "Write a clock.")], DecodingParams())
    finally:
        model.close()
    assert generation.error is not None and "keys tried" in generation.error and len(generation.error) <= 300
    assert not _key_pieces_in(json.dumps(generation_fields(generation))), generation.error
    assert not _key_pieces_in(json.dumps(generation.to_dict(), default=str))


def test_a_run_shows_no_piece_of_a_plain_key_and_no_credential_of_its_base_url(
        long_echoing: tuple[str, int], pytester: pytest.Pytester, small_suite: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole run: the key an endpoint echoes past the 300th character, and the user and password in
    ``base_url``, are in no record, report, saved file or printed line; the request still carried them
    (the gateway answered), and the model's name keeps its host."""
    pytest.importorskip("openai")
    monkeypatch.setenv("OPENAI_API_KEY", PLAIN_KEY)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    host, port = long_echoing
    out = tmp_path / "out"
    out.mkdir()
    spec = f"openai:gpt-5-mini?batch=0&max_retries=0&base_url=http://gwuser:gwpass1234@{host}:{port}/v1"
    result = pytester.runpytest_subprocess(
        f"--alias-suite={small_suite}", f"--alias-cache-dir={tmp_path / 'cache'}", "-p", "no:cacheprovider", "-v",
        f"--alias-model={spec}", "--alias-samples=1", "--alias-grade=parse", "--alias-conditions=original",
        *(f"--alias-report={out / name}" for name in ("run.json", "run.md", "run.csv")), "-rA", timeout=300)
    printed = result.stdout.str() + result.stderr.str()
    assert "keys tried" in printed, printed[-3000:]
    shown = [printed, *((out / name).read_text() for name in ("run.json", "run.md", "run.csv"))]
    assert not [_key_pieces_in(text) for text in shown if _key_pieces_in(text)], printed[-3000:]
    assert not [text for text in shown if "gwuser" in text or "gwpass1234" in text], printed[-3000:]
    assert not _leaks(tmp_path, (PLAIN_KEY, "gwpass1234")) and not _leaks(pytester.path, (PLAIN_KEY, "gwpass1234"))
    data = json.loads((out / "run.json").read_text())
    assert data["records"] and all(r["outcome"] == "model_error" for r in data["records"])
    assert {r["model"] for r in data["records"]} == {f"openai:gpt-5-mini?batch=0&max_retries=0&base_url="
                                                     f"http://{REDACTED}@{host}:{port}/v1"}


def test_a_model_name_hides_the_credentials_of_its_base_url_and_the_model_keeps_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("openai")
    from pytest_alias.errors import UsageProblem
    from pytest_alias.run.options import defaults
    from pytest_alias.run import RunConfig, Workspace

    monkeypatch.setenv("OPENAI_API_KEY", PLAIN_KEY)
    spec = "openai:gpt-x?batch=0&base_url=https://gwuser:gwpass1234@gateway.example/v1"
    config = RunConfig.from_options({**defaults(), "model": (spec,), "cache_dir": str(tmp_path)})
    [name] = config.models
    assert name == f"openai:gpt-x?batch=0&base_url=https://{REDACTED}@gateway.example/v1"
    assert "gwpass1234" not in json.dumps(config.settings()) and "gwpass1234" not in repr(config)
    model = Workspace(config).model(name)
    assert model.base_url == "https://gwuser:gwpass1234@gateway.example/v1"  # the request still carries them
    assert "gwpass1234" not in model.identity
    with pytest.raises(UsageProblem, match="only its credentials different"):
        RunConfig.from_options({**defaults(), "model": (spec, spec.replace("gwpass1234", "other5678")),
                                "cache_dir": str(tmp_path)})
    with pytest.raises(UsageProblem) as raised:  # a model that cannot be built: its line shows no password
        Workspace(RunConfig.from_options({**defaults(), "model": (spec + "&bogus=1",), "cache_dir": str(tmp_path)})
                  ).check_models()
    assert "gwpass1234" not in str(raised.value) and "bogus" in str(raised.value)
