"""Every model of the tlaplus/Examples corpus (the large ones with ``ALIAS_SLOW_TESTS=1``): TLC's
distinct-state count must match models.json."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import corpus_models, corpus_params
from pytest_alias.tla.specfiles import SpecFiles

MODELS = corpus_models()


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.parametrize("model", corpus_params(MODELS))  # the large models with ALIAS_SLOW_TESTS=1
def test_corpus_model_distinct_states(model: dict, corpus_dir: Path, tools) -> None:
    spec = SpecFiles.from_path(corpus_dir / model["tla_path"], corpus_dir / model["cfg_path"])
    result = tools.tlc(spec, timeout=600)
    assert result.status == "ok", result.explain()
    assert (result.distinct_states or 0) == model["measured_distinct"]
    assert (result.states_generated or 0) == model["measured_total"]


def test_corpus_listing_is_present_or_skipped(corpus_dir: Path) -> None:
    assert len(MODELS) >= 30
    for model in MODELS:
        assert (corpus_dir / model["tla_path"]).is_file()
