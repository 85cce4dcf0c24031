"""The adversarial suite in benchmarks/ passes: every bad input, fault and interruption gets the
expected verdict and leaves no JVM, no staging folder and no traceback behind."""

from __future__ import annotations

import sys

import pytest

from benchmarks import adversarial


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finding leaked JVMs reads /proc")
def test_the_adversarial_suite_passes_without_leaks(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    status = adversarial.main(["--json", str(tmp_path / "rows.json")])
    printed = capsys.readouterr().out
    assert status == 0, printed
    assert f"{len(adversarial.CASES)} cases, 0 unexpected or leaking" in printed
