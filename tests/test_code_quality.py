"""Lint and types as part of the suite, so CI (which runs README's test command) checks them too."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (it comes with the 'test' extra)")
    return found


def test_ruff_finds_nothing() -> None:
    """pyflakes and pycodestyle rules ([tool.ruff] in pyproject.toml) over the package, tests and benchmarks."""
    proc = subprocess.run([_tool("ruff"), "check", "pytest_alias", "tests", "benchmarks"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
def test_mypy_finds_nothing() -> None:
    """The package type-checks ([tool.mypy] in pyproject.toml)."""
    proc = subprocess.run([_tool("mypy"), "pytest_alias"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


def _import_graph(package: Path) -> dict[str, set[str]]:
    """Module → the package's modules it imports (anywhere in the file, functions included)."""
    import ast

    modules: dict[str, Path] = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                prefix = ".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else [])) \
                    if node.level else (node.module or "")
                submodules = [f"{prefix}.{alias.name}" for alias in node.names if f"{prefix}.{alias.name}" in modules]
                targets = submodules if len(submodules) == len(node.names) else [prefix, *submodules]
            else:
                continue
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_cycle_finder_finds_a_planted_cycle(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("def f():\n    from .c import g\n")
    (package / "c.py").write_text("from pkg.a import x\n")
    (package / "d.py").write_text("from .a import y\n")
    assert _cycles(_import_graph(package)) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_the_package_has_no_import_cycles() -> None:
    """No module of pytest_alias imports itself back, even through imports inside functions."""
    assert _cycles(_import_graph(ROOT / "pytest_alias")) == []


#: The shared bottom layer: everything else lives in a package (see ../shared/DESIGN.md's table).
BOTTOM_LAYER = {"__init__", "__main__", "atomic", "errors", "hookspecs", "progress", "records", "stats", "switches",
                "vocabulary"}


def test_the_top_level_holds_only_the_shared_bottom_layer() -> None:
    top = {path.stem for path in (ROOT / "pytest_alias").glob("*.py")}
    assert top == BOTTOM_LAYER
    assert len(top) <= 10


def test_the_doors_are_packages() -> None:
    for door, roles in {"plugin": {"controller", "worker", "session", "transport", "scheduling", "test_tla"},
                        "cli": {"toolchain", "build", "grade", "exposure", "report", "controls"}}.items():
        assert {path.stem for path in (ROOT / "pytest_alias" / door).glob("*.py")} >= roles | {"__init__"}


def test_loading_the_plugin_and_the_run_package_imports_nothing_heavy() -> None:
    """The plugin loads in every pytest run; the run package's ``__init__`` must stay import-light."""
    heavy = ("numpy", "scipy", "pytest_alias.report", "pytest_alias.run.workspace", "pytest_alias.grading",
             "pytest_alias.tla.runner")
    code = ("import sys, pytest_alias.plugin, pytest_alias.run, pytest_alias.run.options\n"
            f"print(','.join(m for m in {heavy!r} if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert result.stdout.strip() == ""


def test_building_the_cli_parser_loads_no_command_module() -> None:
    """``tla-alias --help`` builds the parser only: a command's module (and its heavy imports) loads on dispatch."""
    heavy = ("pytest_alias.cli.build", "pytest_alias.cli.controls", "pytest_alias.cli.grade", "pytest_alias.cli.report",
             "pytest_alias.cli.toolchain", "pytest_alias.cli.workspace", "pytest_alias.grading", "pytest_alias.report",
             "pytest_alias.run.workspace", "pytest_alias.tla.launcher", "numpy")
    code = ("import sys\nfrom pytest_alias.cli import build_parser\nbuild_parser()\n"
            f"print(','.join(m for m in {heavy!r} if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert result.stdout.strip() == ""
