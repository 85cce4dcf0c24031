"""The loader of ``examples:PATH`` suites (a clone of tlaplus/Examples, or one spec folder of it).

One task per (module, model) that a spec's ``manifest.json`` records as an exhaustive TLC run with
result ``success``; models the clone cannot use are skipped with a reason.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Mapping

from ..atomic import parse_json
from ..tla.cfg import CfgError, parse_cfg
from ..tla.specfiles import IDENTIFIER, module_header_name
from .model import Task
from .suite_common import Skipped, SuiteError, read_text, rel_path
from .tla_text import gather_modules, module_header_comment

__all__ = ["EXAMPLES_LICENSE", "load_examples"]

EXAMPLES_LICENSE = "MIT (tlaplus/Examples)"
EXAMPLES_REPOSITORY = "tlaplus/Examples"
_EXHAUSTIVE = "exhaustive search"


def load_examples(path: Path, skipped: list[Skipped]) -> list[Task]:
    """Every usable (module, model) of the clone (or spec folder) at ``path``; the rest go to ``skipped``."""
    root, spec_dirs = _examples_layout(path)
    tasks: list[Task] = []
    for spec_dir in spec_dirs:
        manifest_path = spec_dir / "manifest.json"
        try:
            manifest = parse_json(read_text(manifest_path))
            entries = manifest["modules"]
            if not isinstance(entries, list):
                raise TypeError("'modules' is not a list")
        except (SuiteError, ValueError, KeyError, TypeError) as exc:
            skipped.append(Skipped("", rel_path(manifest_path, root), f"unreadable manifest ({exc})"))
            continue
        for entry in entries:
            for model in entry.get("models") or []:
                task = _examples_task(root, spec_dir, manifest, entry, model, skipped)
                if task is not None:
                    tasks.append(task)
    return tasks


def _examples_layout(path: Path) -> tuple[Path, list[Path]]:
    """The clone's root and the spec folders to read (all, or the one ``path`` names)."""
    if (path / "manifest.json").is_file() and path.parent.name == "specifications":
        return path.parent.parent, [path]
    spec_root = path / "specifications"
    if not spec_root.is_dir():
        raise SuiteError(f"{path}: no specifications/ folder; examples: wants a clone of tlaplus/Examples")
    spec_dirs = sorted(p.parent for p in spec_root.glob("*/manifest.json"))
    if not spec_dirs:
        raise SuiteError(f"{spec_root}: no */manifest.json; examples: wants a clone of tlaplus/Examples")
    return path, spec_dirs


def _examples_task(root: Path, spec_dir: Path, manifest: Mapping[str, Any], entry: Mapping[str, Any],
                   model: Mapping[str, Any], skipped: list[Skipped]) -> Task | None:
    module_rel = str(entry.get("path", ""))
    model_rel = str(model.get("path", ""))
    module_path, model_path = root / module_rel, root / model_rel
    task_id = _examples_id(spec_dir, module_path, model_path)

    def skip(reason: str, where: str = model_rel) -> None:
        skipped.append(Skipped(task_id, where, reason))

    mode = model.get("mode")
    if mode != _EXHAUSTIVE:
        shown = next(iter(mode)) if isinstance(mode, dict) and mode else mode
        skip(f"mode {shown!r} is not exhaustive search")
        return None
    if model.get("result") != "success":
        skip(f"result {model.get('result')!r}, not success")
        return None
    if not module_path.is_file():
        skip("module file missing from the clone", module_rel)
        return None
    if not model_path.is_file():
        skip("model file missing from the clone")
        return None
    main_text = read_text(module_path)
    main = module_header_name(main_text)
    if main != module_path.stem or not IDENTIFIER.fullmatch(main or ""):
        skip(f"header names module {main} but the file is {module_path.name}", module_rel)
        return None
    modules, missing, origin = gather_modules(main, main_text, _examples_lookup(spec_dir, module_path.parent))
    if missing:
        skip(f"imports {', '.join(missing)}, found neither beside it, in the spec folder nor among standard modules",
             module_rel)
        return None
    cfg_text = read_text(model_path)
    try:
        parse_cfg(cfg_text)
    except CfgError as exc:
        skip(f"cfg does not parse ({exc})")
        return None
    description, description_from = _examples_description(spec_dir, main, modules)
    tags = [str(t) for t in (manifest.get("tags") or [])] + [str(f) for f in (entry.get("features") or [])]
    extra = {
        "repository": EXAMPLES_REPOSITORY,  # where the file is published (appendix L names it)
        "path": module_rel,
        "model": model_rel,
        "mode": _EXHAUSTIVE,
        "runtime": model.get("runtime"),
        "state_depth": model.get("stateDepth"),
        "authors": tuple(manifest.get("authors") or ()),
        "sources": tuple(manifest.get("sources") or ()),
        "module_files": tuple(sorted(origin.items())),
        "description_from": description_from,
    }
    return Task(
        id=task_id,
        description=description,
        modules=tuple(modules.items()),
        cfg=cfg_text,
        source=module_rel,
        license=_examples_license(spec_dir, manifest),
        tags=tuple(dict.fromkeys(tags)),
        title=f"{spec_dir.name}: {main}" + (f" ({model_path.stem})" if model_path.stem != main else ""),
        expected_distinct=_count(model.get("distinctStates")),
        expected_generated=_count(model.get("totalStates")),
        extra=tuple(extra.items()),
    )


def _examples_description(spec_dir: Path, main: str, modules: Mapping[str, str]) -> tuple[str, str]:
    """The description and where it came from.

    The main module's header comment; else the spec folder's README; else (for model wrappers
    such as ``MC.tla`` in a folder without a README) the header comment of a module it imports.
    """
    comment = module_header_comment(modules[main])
    if comment:
        return comment, f"header comment of {main}"
    readme, readme_name = _readme_paragraph(spec_dir)
    if readme:
        return readme, f"first paragraph of {spec_dir.name}/{readme_name}"
    for name, text in modules.items():
        comment = module_header_comment(text) if name != main else ""
        if comment:
            return comment, f"header comment of {name}"
    return "", "none"


def _examples_id(spec_dir: Path, module_path: Path, model_path: Path) -> str:
    """``<spec dir>/<module path in it>[-<model stem>]`` as a lowercase slug."""
    try:
        inner = module_path.relative_to(spec_dir).with_suffix("")
    except ValueError:
        inner = Path(module_path.stem)
    parts = [_slug(spec_dir.name), *(_slug(part) for part in inner.parts)]
    task_id = "/".join(parts)
    if model_path.stem.lower() != module_path.stem.lower():
        task_id += "-" + _slug(model_path.stem)
    return task_id


def _examples_lookup(spec_dir: Path, start: Path) -> Callable[[str], tuple[str, str] | None]:
    """Find ``Name.tla`` beside the main module, then in each folder up to the spec folder.

    A local file wins over a standard module of the same name, as in SANY's own lookup.
    """
    folders = [start]
    while folders[-1] != spec_dir and spec_dir in folders[-1].parents:
        folders.append(folders[-1].parent)

    def lookup(name: str) -> tuple[str, str] | None:
        for folder in folders:
            candidate = folder / f"{name}.tla"
            if candidate.is_file():
                text = read_text(candidate)
                if module_header_name(text) == name:
                    return text, str(candidate.relative_to(spec_dir.parent.parent))
        return None

    return lookup


def _examples_license(spec_dir: Path, manifest: Mapping[str, Any]) -> str:
    if isinstance(manifest.get("license"), str) and manifest["license"].strip():
        return manifest["license"].strip()
    for name in ("LICENSE", "LICENSE.md", "LICENSE.txt", "COPYING"):
        path = spec_dir / name
        if path.is_file():
            first = next((line.strip(" #\t") for line in read_text(path).splitlines() if line.strip()), "")
            return f"{first} ({spec_dir.name}/{name})" if first else f"see {spec_dir.name}/{name}"
    return EXAMPLES_LICENSE


def _readme_paragraph(spec_dir: Path) -> tuple[str, str]:
    """The first prose paragraph of the spec folder's README (headings skipped) and the file's name."""
    for name in ("README.md", "README"):
        path = spec_dir / name
        if not path.is_file():
            continue
        for block in re.split(r"\n[ \t]*\n", read_text(path).strip()):
            lines = [line.rstrip() for line in block.splitlines() if line.strip()]
            lines = [line for line in lines if not line.lstrip().startswith("#")]
            if len(lines) >= 2 and re.fullmatch(r"\s*[-=]{3,}\s*", lines[1]):
                lines = lines[2:]  # a setext heading: "Title" underlined with --- or ===
            if lines:
                return " ".join(line.strip() for line in lines), name
    return "", ""


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9_]+", "_", text.lower())
    return re.sub(r"_+", "_", slug).strip("_") or "x"
