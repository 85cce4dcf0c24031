"""``tla-alias doctor`` and ``tla-alias check``: the toolchain ALIAS uses, and one module through SANY and TLC."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..errors import UsageProblem
from ..tla.cfg import KEYWORDS_TLC_MODERN, CfgError, parse_cfg
from ..tla.specfiles import SpecFiles
from ..tla.syntax import parse_module
from ..tla.toolchain import ToolchainError
from .workspace import open_workspace



def tools_from(args: argparse.Namespace) -> Any:
    """SANY and TLC of the command's workspace (checked to be drivable)."""
    return open_workspace(args).tools



# --------------------------------------------------------------------------- doctor


def cmd_doctor(args: argparse.Namespace) -> int:
    """Report which Java, jar, launcher and cache ALIAS uses; exit 0 only when SANY and TLC work."""
    rows: list[tuple[str, str]] = []
    healthy = True
    try:
        tools = open_workspace(args, check=False, use_cache=False).tools  # doctor runs the tools itself
    except ToolchainError as exc:
        print(f"toolchain: {exc}")
        return 1
    java, jar = tools.toolchain.java, tools.toolchain.jar
    rows += [
        ("java", f"{java.path} (Java {java.version}, from {java.source})"),
        ("tla2tools.jar", f"{jar.path} (TLC {jar.tlc_version}, from {jar.source}, sha256 {jar.sha256[:12]})"),
        ("cfg keywords", _keywords_row(jar.cfg_keywords)),
        ("launcher", f"{tools.launcher.kind}: {tools.launcher.note}"),
        ("cache", str(tools.cache_dir)),
    ]
    probe = SpecFiles(
        "AliasDoctor",
        {"AliasDoctor": "---- MODULE AliasDoctor ----\nEXTENDS Naturals\nVARIABLE x\n"
                        "Init == x = 0\nNext == x' = (x + 1) % 3\n====\n"},
        "INIT Init\nNEXT Next\n",
    )
    try:
        sany = tools.sany(probe)
        tlc = tools.tlc(probe, timeout=120)
    except ToolchainError as exc:  # a jar the launcher cannot drive, a JVM that cannot start: a finding
        print(f"toolchain: {exc}\ntoolchain is broken")
        return 1
    healthy &= sany.ok and tlc.ok and tlc.distinct_states == 3
    rows.append(("SANY", "ok" if sany.ok else f"FAILED: {sany.errors[:1]}"))
    rows.append(("TLC", f"ok ({tlc.seconds:.2f} s, {tlc.launcher})" if tlc.ok and tlc.distinct_states == 3
                 else f"FAILED: {tlc.explain()}"))
    try:
        syntax = parse_module(probe.modules["AliasDoctor"])
        syntax_ok = syntax.name == "AliasDoctor" and not syntax.has_errors
        rows.append(("tree-sitter-tlaplus", "ok" if syntax_ok else "FAILED: probe module misparsed"))
        healthy &= syntax_ok
    except Exception as exc:  # a broken grammar install must show here, not crash the doctor
        rows.append(("tree-sitter-tlaplus", f"FAILED: {exc}"))
        healthy = False
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name.ljust(width)}  {value}")
    print("toolchain works" if healthy else "toolchain is broken")
    return 0 if healthy else 1


def _keywords_row(supported: frozenset[str]) -> str:
    """The doctor's line on cfg keywords: those of current TLC this jar predates, and what then happens."""
    missing = sorted(KEYWORDS_TLC_MODERN - supported)
    if not missing:
        return "every keyword of current TLC supported"
    deadlock = "CHECK_DEADLOCK FALSE becomes -deadlock; " if "CHECK_DEADLOCK" in missing else ""
    others = "/".join(k for k in missing if k != "CHECK_DEADLOCK")
    return (f"older jar: {deadlock}{others} unsupported (a toolchain limitation, never the output's failure)"
            if others else f"older jar: {deadlock.rstrip('; ')}")


# --------------------------------------------------------------------------- check


def spec_with_cfg(module: Path, cfg: Path | None) -> SpecFiles:
    """The module (imports beside it) and its cfg; a malformed cfg is the user's error, named with its
    file and line before any tool runs."""
    spec = SpecFiles.from_path(module, cfg)
    if spec.cfg is not None:
        try:
            parse_cfg(spec.cfg)
        except CfgError as exc:
            raise UsageProblem(f"{cfg or Path(module).with_suffix('.cfg')}: {exc}") from None
    return spec


def cmd_check(args: argparse.Namespace) -> int:
    """Strict SANY, then TLC, on one module; exit 0 only when both pass."""
    spec = spec_with_cfg(args.module, args.cfg)
    tools = tools_from(args)
    sany = tools.sany(spec)
    tlc = None
    if sany.ok:
        if spec.cfg is None:
            raise UsageProblem(f"no cfg for {args.module}: pass --cfg or put {Path(args.module).with_suffix('.cfg').name} beside it")
        tlc = tools.tlc(spec, timeout=args.timeout, workers=args.workers)
    if args.json:
        print(json.dumps({"parse": {"ok": sany.ok, "errors": [str(e) for e in sany.errors]},
                          "tlc": tlc.to_dict() if tlc else None}))
    else:
        print("SANY: ok" if sany.ok else "SANY: FAILED")
        for error in sany.errors:
            print(f"  {error}")
        if tlc is not None:
            print(f"TLC: {tlc.explain()} ({tlc.seconds:.2f} s)")
            if tlc.status != "ok":
                for state in tlc.counterexample:
                    print(f"  {state.index}: {state.action}")
                    for line in state.text.strip().splitlines():
                        print(f"     {line}")
    return 0 if sany.ok and tlc is not None and tlc.ok else 1
