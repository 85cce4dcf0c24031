"""The loader of ``tlabench:PATH`` suites: one task per ``specs/gold/{id}_*.tla`` of a TLA+-Bench clone."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

from ..atomic import parse_json
from ..tla.cfg import CfgError, parse_cfg
from ..tla.specfiles import IDENTIFIER, module_header_name
from ..tla.syntax import STANDARD_MODULES
from .model import Task
from .suite_common import Skipped, SuiteError, read_text, rel_path
from .tla_text import gather_modules

__all__ = ["DEFAULT_DESCRIPTION_KIND", "DESCRIPTION_KINDS", "load_tlabench", "tlabench_id"]

#: The description kinds a TLA+-Bench release ships (``descriptions/<kind>/{id}.txt``).
DESCRIPTION_KINDS: tuple[str, ...] = ("declarative_gpt", "declarative_claude", "intent_gpt", "intent_claude")
DEFAULT_DESCRIPTION_KIND = "declarative_gpt"


def tlabench_id(value: str | int) -> str:
    """TLA+-Bench ids as strings without leading zeros (``spec_id`` is an int in some files, a str in others)."""
    text = str(value).strip()
    return str(int(text)) if text.isdigit() else text


def load_tlabench(root: Path, kind: str, wanted: list[str] | None, skipped: list[Skipped]) -> list[Task]:
    """One task per gold spec id under ``root`` (only ``wanted`` ones, when given) with its ``kind``
    description; the ids that cannot be used go to ``skipped``."""
    gold = root / "specs" / "gold"
    if not gold.is_dir():
        raise SuiteError(f"{root}: no specs/gold/ folder; tlabench: wants a clone of the TLA+-Bench release")
    rows = _tlabench_manifest(root / "manifest.jsonl")
    _check_kind(root, kind, rows)
    counts = _audited_counts(root / AUDIT_FILE)
    index, texts = _tlabench_index(root / "specs")
    by_id: dict[str, list[Path]] = {}
    for path in sorted(gold.glob("*.tla")):
        prefix, sep, _ = path.stem.partition("_")
        if not sep:
            skipped.append(Skipped("", rel_path(path, root), "file name lacks the '{id}_' prefix"))
            continue
        by_id.setdefault(tlabench_id(prefix), []).append(path)
    if wanted is not None:
        for spec_id in dict.fromkeys(wanted):
            if spec_id not in by_id and spec_id in rows:
                tier = rows[spec_id].get("tier")
                skipped.append(Skipped(spec_id, "manifest.jsonl", f"tier {tier!r}: no gold reference in specs/gold"))
    tasks: list[Task] = []
    for spec_id, paths in by_id.items():
        if wanted is not None and spec_id not in wanted:
            continue
        task = _tlabench_task(root, spec_id, paths, rows.get(spec_id, {}), kind, index, texts, skipped)
        if task is not None:
            tasks.append(replace(task, expected_distinct=counts.get((spec_id, _tlabench_main(paths).name))))
    return tasks


def _tlabench_manifest(path: Path) -> dict[str, dict[str, Any]]:
    """``manifest.jsonl`` rows by id (none when the file is absent)."""
    if not path.is_file():
        return {}
    rows: dict[str, dict[str, Any]] = {}
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = parse_json(line)
        except ValueError as exc:
            raise SuiteError(f"{path}:{number}: not JSON ({exc})") from None
        if not isinstance(row, dict) or "spec_id" not in row:
            raise SuiteError(f"{path}:{number}: a row needs a spec_id")
        rows[tlabench_id(row["spec_id"])] = row
    return rows


#: The release's record of each gold reference's distinct states under TLC (``spec_id``, ``file``,
#: ``status``, ``distinct``): what a run knows of a reference's cost before checking it (the order of
#: work and the JVM tier, never a verdict).
AUDIT_FILE = Path("outputs") / "audit" / "fixture_audit.json"


def _audited_counts(path: Path) -> dict[tuple[str, str], int]:
    """The audit file's distinct-state counts by (id, gold file name) (none when the file is absent or
    not of that shape: it only orders work)."""
    try:
        rows = parse_json(read_text(path)) if path.is_file() else []
    except (SuiteError, ValueError):
        return {}
    counts: dict[tuple[str, str], int] = {}
    for row in rows if isinstance(rows, list) else []:
        if (isinstance(row, dict) and row.get("status") == "pass" and isinstance(row.get("file"), str)
                and isinstance(row.get("distinct"), int) and row["distinct"] > 0 and "spec_id" in row):
            counts[(tlabench_id(row["spec_id"]), row["file"])] = row["distinct"]
    return counts


def _check_kind(root: Path, kind: str, rows: Mapping[str, Mapping[str, Any]]) -> None:
    folders = {p.name for p in (root / "descriptions").glob("*") if p.is_dir()}
    inline = {key[len("desc_"):] for row in rows.values() for key in row if key.startswith("desc_")}
    if kind not in folders and kind not in inline:
        available = sorted(folders | inline) or list(DESCRIPTION_KINDS)
        raise SuiteError(f"{root / 'descriptions' / kind}: no such description kind; this release has "
                         f"{', '.join(available)}")


def _tlabench_index(specs: Path) -> tuple[dict[str, list[Path]], dict[Path, str]]:
    """Every ``specs/**/*.tla`` by its header's module name (file names may differ)."""
    index: dict[str, list[Path]] = {}
    texts: dict[Path, str] = {}
    for path in sorted(specs.rglob("*.tla")):
        text = read_text(path)
        texts[path] = text
        name = module_header_name(text)
        if name is not None:
            index.setdefault(name, []).append(path)
    return index, texts


def _tlabench_task(root: Path, spec_id: str, paths: list[Path], row: Mapping[str, Any], kind: str,
                   index: Mapping[str, list[Path]], texts: Mapping[Path, str], skipped: list[Skipped]) -> Task | None:
    main_path = _tlabench_main(paths)
    rel = rel_path(main_path, root)
    main_text = texts[main_path]
    main = module_header_name(main_text)
    if main is None or not IDENTIFIER.fullmatch(main):
        skipped.append(Skipped(spec_id, rel, "no '---- MODULE Name ----' header"))
        return None

    def lookup(name: str) -> tuple[str, str] | None:
        candidates = [p for p in index.get(name, ()) if p != main_path]
        ranked = sorted(candidates, key=lambda p: (_tlabench_rank(p, spec_id, root), str(p)))
        if name in STANDARD_MODULES:
            # A spec in the corpus that happens to share a standard module's name must not replace it.
            ranked = [p for p in ranked if _tlabench_rank(p, spec_id, root) < 2]
        return (texts[ranked[0]], rel_path(ranked[0], root)) if ranked else None

    modules, missing, origin = gather_modules(main, main_text, lookup)
    if missing:
        skipped.append(Skipped(spec_id, rel, f"imports {', '.join(missing)}, which no spec under specs/ defines"))
        return None
    cfg_path = main_path.with_suffix(".cfg")
    cfg_text = read_text(cfg_path) if cfg_path.is_file() else None
    if cfg_text is not None:
        try:
            parse_cfg(cfg_text)
        except CfgError as exc:
            skipped.append(Skipped(spec_id, rel_path(cfg_path, root), f"cfg does not parse ({exc})"))
            return None
    description_path = root / "descriptions" / kind / f"{spec_id}.txt"
    if description_path.is_file():
        description = read_text(description_path).strip()
    elif isinstance(row.get(f"desc_{kind}"), str):
        description = row[f"desc_{kind}"].strip()
    else:
        skipped.append(Skipped(spec_id, rel_path(description_path, root), f"no {kind} description"))
        return None
    tags = ["tlabench", *(f"{key}:{row[key]}" for key in ("tier", "category", "complexity") if row.get(key))]
    if cfg_text is None:
        tags.append("no-cfg")
    repo, source_path = row.get("source_repo"), row.get("source_path")
    extra = {
        "path": rel,
        "description_kind": kind,
        "tier": row.get("tier"),
        "category": row.get("category"),
        "complexity": row.get("complexity"),
        "source_repo": repo,
        "source_path": source_path,
        "source_repo_url": row.get("source_repo_url"),
        "spec_sha256": row.get("spec_sha256"),
        "module_files": tuple(sorted(origin.items())),
    }
    return Task(
        id=spec_id,
        description=description,
        modules=tuple(modules.items()),
        cfg=cfg_text,
        source=f"{repo}:{source_path}" if repo and source_path else rel,
        license=str(row.get("license") or (f"upstream licence of {repo}" if repo else "see the TLA+-Bench release")),
        tags=tuple(tags),
        title=f"TLA+-Bench {spec_id}: {main}",
        extra=tuple(extra.items()),
    )


def _tlabench_main(paths: list[Path]) -> Path:
    """The gold file of an id; when an id has several, the one with a cfg (else the first by name)."""
    with_cfg = [p for p in paths if p.with_suffix(".cfg").is_file()]
    return (with_cfg or paths)[0]


def _tlabench_rank(path: Path, spec_id: str, root: Path) -> int:
    """Where a dependency is looked for first: the same id, ``specs/deps``, then gold, silver, elsewhere."""
    parts = path.relative_to(root / "specs").parts
    if tlabench_id(path.stem.partition("_")[0]) == spec_id and "_" in path.stem:
        return 0
    order = {"deps": 1, "gold": 2, "silver": 3}
    return order.get(parts[0], 4) if len(parts) > 1 else 4
