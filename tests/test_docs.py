"""The documentation (issue 52): the README's shape, the Sphinx site built with warnings as errors, the
generated reference pages against the code, and every command the pages show — run here when it is
offline and quick, otherwise listed below with the reason it is not.

The build and the commands are one test each (not one per check), so that under ``pytest -n 2`` the
site is built once and the commands share one prepared condition cache.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"

# --------------------------------------------------------------------------- the commands the pages show

#: Commands the pages show that this module runs (offline, seconds each), exactly as written. They run
#: in a temporary folder with a temporary ``ALIAS_CACHE_DIR``; ``tla-alias`` and ``pytest`` are run as
#: ``python -m pytest_alias`` and ``python -m pytest`` of this interpreter.
RUN = (
    "tla-alias --help",
    "tla-alias tasks builtin",
    "tla-alias doctor",
    "pytest -p no:cacheprovider --alias-model=reference --alias-grade=parse -k hour_clock",
    "pytest -p no:cacheprovider --alias-model=reference --alias-grade=all --alias-samples=2 -k barrier "
    "--alias-report=run.json",
    "tla-alias report run.json --out report",
    "tla-alias rename HourClock.tla --out renamed --verify",
    'pytest -p no:cacheprovider --alias-model=reference --alias-grade=name --alias-samples=1 --alias-no-fail '
    '--alias-gate "name.original>=90" --alias-gate "name.decrease.ci_high<=5" -k hour_clock',
)

#: Why a command the pages show is not run here: the first pattern (a regular expression searched in the
#: command) that matches gives the reason. A command that matches none and is not in ``RUN`` fails
#: ``test_every_command_the_docs_show_is_run_or_says_why_not``.
NOT_RUN = (
    (r"pip install|python3 -m venv", "installs packages; the README's set-up commands are what CI runs"),
    (r"sphinx", "the docs build itself: test_the_site_builds_and_matches_the_code runs it into a temporary folder"),
    (r"tlabench:|maps\.json|test_ids\.json|TLA-Bench", "needs a clone of the TLA⁺-Bench release (and the paper's released files)"),
    (r"--tx ssh=", "needs a remote host"),
    (r"examples:", "needs the tlaplus/Examples corpus beside the repository (../shared/corpus)"),
    (r"replay:", "grades saved outputs of a model run (a replay file this repository does not ship)"),
    (r"claude:|gpt-5|openai:", "needs the api extra and an API key, and spends money"),
    (r"smollm2", "generates or fine-tunes with SmolLM2-135M on the CPU: minutes to an hour"),
    (r"hf:/models|BASE=", "needs local model weights (the paper's run: a GPU)"),
    (r"adapter-[AB]|likelihood-[AB]|records\.json|split\.json", "needs fine-tuned adapters (see the exposure how-to)"),
    (r"--alias-grade=all -n 2$|--alias-grade=all -n auto$", "the whole positive control: about a minute on 2 cores; "
                                                         "the -k variants in RUN exercise the same path"),
    (r"paper_tables", "a benchmark script: minutes (7 min 37 s on the built-in suite with one sample)"),
)


def _code_blocks(text: str) -> list[tuple[str, str]]:
    """``(language, body)`` of every fenced code block of a Markdown text."""
    return re.findall(r"^```([\w-]*)[^\n]*\n(.*?)^```", text, re.M | re.S)


def documented_commands() -> dict[str, list[str]]:
    """Every shell command in a ``bash`` block of README.md and the docs → the files showing it."""
    found: dict[str, list[str]] = {}
    for path in [README, *sorted(DOCS.rglob("*.md"))]:
        for language, body in _code_blocks(path.read_text(encoding="utf-8")):
            if language not in ("bash", "sh", "console", "shell"):
                continue
            for command in re.sub(r"\\\n\s*", " ", body).splitlines():
                command = command.strip()
                if command and not command.startswith("#"):
                    found.setdefault(command, []).append(str(path.relative_to(ROOT)))
    return found


def test_every_command_the_docs_show_is_run_or_says_why_not() -> None:
    commands = documented_commands()
    unclassified = [f"{command}  ({', '.join(files)})" for command, files in commands.items()
                    if command not in RUN and not any(re.search(pattern, command) for pattern, _ in NOT_RUN)]
    assert not unclassified, "commands the docs show that test_docs neither runs nor says why not:\n" + \
        "\n".join(unclassified)
    missing = [command for command in RUN if command not in commands]
    assert not missing, "RUN lists commands no page shows any more:\n" + "\n".join(missing)
    unused = [pattern for pattern, _ in NOT_RUN if not any(re.search(pattern, command) for command in commands)]
    assert not unused, f"NOT_RUN reasons that no command needs any more: {unused}"


def _command_env(cache: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS", "PYTEST_CURRENT_TEST", "ALIAS_SHORTCUTS")}
    env["ALIAS_CACHE_DIR"] = str(cache)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def _argv(command: str) -> list[str]:
    words = shlex.split(command)
    head = {"tla-alias": [sys.executable, "-m", "pytest_alias"], "pytest": [sys.executable, "-m", "pytest"]}
    return [*head[words[0]], *words[1:]]


def test_the_offline_commands_the_docs_show_run(tmp_path: Path) -> None:
    """Each command of ``RUN`` exits 0 in a fresh folder (the rename runs on a copy of HourClock), and the
    run JSON it writes has exactly the metadata keys the records page documents."""
    work = tmp_path / "work"
    work.mkdir()
    hour_clock = ROOT / "pytest_alias" / "data" / "tasks" / "hour-clock"
    for name in ("HourClock.tla", "HourClock.cfg"):
        (work / name).write_bytes((hour_clock / name).read_bytes())
    env = _command_env(tmp_path / "cache")
    outputs: dict[str, str] = {}
    for command in RUN:
        proc = subprocess.run(_argv(command), cwd=work, env=env, capture_output=True, text=True, timeout=300)
        outputs[command] = proc.stdout + proc.stderr
        assert proc.returncode == 0, f"{command}\nexit {proc.returncode}\n{outputs[command][-3000:]}"
    assert "hour-clock" in outputs["tla-alias tasks builtin"]
    assert "alias summary" in outputs[RUN[3]] and "10 passed" in outputs[RUN[3]]
    assert (work / "report" / "report.html").is_file()
    assert any((work / "renamed").iterdir())

    run = json.loads((work / "run.json").read_text(encoding="utf-8"))
    assert set(run) == {"metadata", "aggregate", "records"}
    documented = set(re.findall(r"`(\w+)`", _table_first_column(DOCS / "reference" / "records.md", "`metadata` key")))
    assert set(run["metadata"]) == documented, (
        f"run metadata keys not on the records page: {sorted(set(run['metadata']) - documented)}; "
        f"documented but not written: {sorted(documented - set(run['metadata']))}")
    from pytest_alias.records import Record

    record_keys = set(Record.__annotations__)
    for record in run["records"]:
        assert set(record) <= record_keys, f"record keys outside records.Record: {sorted(set(record) - record_keys)}"


def _table_first_column(path: Path, header: str) -> str:
    """The first cells of the Markdown table whose header row starts with ``| header |``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {header} |"))
    cells = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells.append(line.split("|")[1])
    return " ".join(cells)


# --------------------------------------------------------------------------- the site

def _text(page: Path) -> str:
    """A built page's text, tags removed and white space collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))).split())


def test_the_site_builds_and_matches_the_code(tmp_path: Path) -> None:
    """The Sphinx build with ``-W`` (broken links, a field or outcome the generated pages cannot describe,
    a page outside the toctree fail it), then: the options page has exactly the option table's options,
    the command page a section for every ``tla-alias`` command with each of its options, and the records
    and outcomes pages every field and outcome."""
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    pytest.importorskip("sphinxarg")
    out = tmp_path / "html"
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
                          cwd=ROOT, env=_command_env(tmp_path / "cache"), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-8000:]

    from pytest_alias.run.options import OPTIONS

    page = (out / "reference" / "options.html").read_text(encoding="utf-8")
    on_page = set(re.findall(r'<section id="alias-([a-z-]+)"', page))  # the option's label
    in_table = {option.name for option in OPTIONS}
    assert on_page == in_table, (f"options in the table but not on the page: {sorted(in_table - on_page)}; "
                                 f"on the page but not in the table: {sorted(on_page - in_table)}")
    for option in OPTIONS:
        assert f"alias_{option.name.replace('-', '_')}" in page, f"ini key of --alias-{option.name} missing"

    from pytest_alias.cli import build_parser

    parser = build_parser()
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    cli_page = (out / "reference" / "cli.html").read_text(encoding="utf-8")
    cli_text = _text(out / "reference" / "cli.html")
    for name, subparser in commands._name_parser_map.items():
        assert f'<section id="tla-alias-{name}"' in cli_page, f"tla-alias {name} has no section"
        for action in subparser._actions:
            if isinstance(action, argparse._HelpAction):  # sphinx-argparse leaves -h out, as it should
                continue
            for flag in action.option_strings:
                assert flag in cli_text, f"tla-alias {name} {flag} is not on the command page"

    import pytest_alias.records as records

    records_text = _text(out / "reference" / "records.html")
    for name in ("Record", "GradeEntry", "Aggregate", "ModelAggregate", "GradeAggregate", "Rate", "Decrease"):
        for field in getattr(records, name).__annotations__:
            assert re.search(rf"\b{field}\b", records_text), f"{name}.{field} is not on the records page"
    outcomes_text = _text(out / "reference" / "outcomes.html")
    for outcome in records.OUTCOMES:
        assert outcome in outcomes_text, f"outcome {outcome!r} is not on the outcomes page"


# --------------------------------------------------------------------------- cheap checks of the sources

def _doc_texts() -> dict[str, str]:
    return {str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
            for path in [README, *sorted(DOCS.rglob("*.md")), *sorted(DOCS.rglob("*.py"))]}


def test_every_alias_option_the_docs_name_exists() -> None:
    """The other way round from the generated page: no page names an ``--alias-*`` option or
    ``alias_*`` ini key that the option table lacks (a renamed or removed option)."""
    from pytest_alias.run.options import OPTIONS

    names = {option.name for option in OPTIONS}
    stale = sorted({f"{path}: --alias-{name}" for path, text in _doc_texts().items()
                    for name in re.findall(r"--alias-([a-z][a-z-]*[a-z])", text) if name not in names})
    assert not stale, "options the docs name that do not exist:\n" + "\n".join(stale)


def test_every_environment_variable_the_package_reads_is_documented() -> None:
    read = set()
    for path in (ROOT / "pytest_alias").rglob("*.py"):
        read |= set(re.findall(r"\bALIAS_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(encoding="utf-8")))
    read |= set(re.findall(r"\bALIAS_[A-Z0-9_]*[A-Z0-9]\b", (ROOT / "conftest.py").read_text(encoding="utf-8")))
    page = (DOCS / "reference" / "environment.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `(ALIAS_[A-Z0-9_]+)`", page, re.M))
    assert read <= documented, f"variables read but not documented: {sorted(read - documented)}"
    assert documented <= read, f"documented but no longer read: {sorted(documented - read)}"


def test_the_readme_is_short_and_keeps_the_set_up_commands() -> None:
    """At most 200 lines; the line after ``# tests`` is the test command ``.ci/run`` runs; every link into
    the docs points at a page that exists."""
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines"
    test_line = lines[lines.index("# tests") + 1]
    assert "pip install -e '.[test" in test_line and "pytest" in test_line
    assert lines.index("# tests") == lines.index("```bash", 0) + 3, "the main job and the test command lead the set-up"
    for target in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / target).is_file(), f"README links to {target}, which does not exist"
