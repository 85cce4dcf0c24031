"""Build the two refinement checks of the behavior grade as wrapper modules and cfgs (the INSTANCE technique).

* forward: a wrapper EXTENDS G and instantiates R (its header renamed) with R's variables and
  constants substituted by G's; TLC runs G's specification and checks R's specification formula,
  invariants and properties as aliases defined in the wrapper.
* reverse: a wrapper EXTENDS R (renamed) and instantiates G (renamed) under the inverse mapping;
  TLC runs R and checks G's safety formula ``Init /\\ [][Next]_v``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from typing import Mapping

from ..tla.cfg import CHECK_ONLY_KINDS, Cfg, ConstantEntry, ConstantsSection, render_cfg
from ..tla.specfiles import SpecFiles
from ..tla.specfiles import blank_comments as _blank_comments
from ..tla.syntax import ModuleSyntax
from ..tla.tlc import TlcResult
from .bind import CfgBinding
from .bindings import Bindings, bound_cfg, fresh_names, model_value_declaration, with_model_values
from .mapping import Declared, NameMapping, extended_syntaxes
from .tlc_reason import tlc_reason

_HEADER = re.compile(r"(-{4,}[ \t]*MODULE[ \t\r\n]+)(\w+)")
_FOOTER = re.compile(r"^={4,}[ \t]*$", re.M)


@dataclass(frozen=True)
class SpecFormula:
    """G's behavior spec: the operator TLC runs (or Init/Next), and its Init and Next as G-expressions.

    ``name`` is None when G has no spec formula and runs as ``INIT init_name NEXT next_name``.
    ``init``/``next`` are texts that keep their source columns (junction lists stay aligned).
    """

    name: str | None
    init: str
    next: str
    subscript: str | None = None  # the v of [][N]_v, as written (None without a spec formula)
    fair: bool = False  # the formula (through the definitions it names) has WF_/SF_ conditions


@dataclass(frozen=True)
class Check:
    """One TLC run of a refinement check: the spec to run and what each alias in its cfg stands for."""

    direction: str
    spec: SpecFiles
    aliases: dict[str, str]


def explain_check(result: TlcResult, check: Check, timeout: float) -> str:
    """TLC's short explanation of a failed check, with the wrapper's alias names replaced by what
    they stand for."""
    reason = tlc_reason(result, CfgBinding(check.spec.cfg or ""), timeout) or "TLC failed"
    # Longest first: AliasRefProp10 must not be rewritten through AliasRefProp1.
    for alias in sorted(check.aliases, key=len, reverse=True):
        reason = reason.replace(alias, check.aliases[alias])
    return reason


def short_hash(*texts: str) -> str:
    """Ten hex digits of the texts' digest: a stable, fresh module-name suffix."""
    return hashlib.sha256("\0".join(texts).encode()).hexdigest()[:10]


def renamed_module(text: str, name: str) -> str:
    """``text`` with its (first) MODULE header naming ``name``."""
    return _HEADER.sub(lambda m: m.group(1) + name, text, count=1)


def with_definitions(text: str, definitions: str) -> str:
    """``text`` with ``definitions`` inserted before its (last) ``====`` footer."""
    footers = list(_FOOTER.finditer(text))
    if not footers:
        return text.rstrip() + "\n" + definitions + "\n====\n"
    at = footers[-1].start()
    return text[:at] + definitions + "\n" + text[at:]


# ---------------------------------------------------------------- locating G's spec formula


def _closing(text: str, start: int, opening: str, closing: str) -> int | None:
    """Index just past the ``closing`` that matches the ``opening`` at ``start``."""
    depth, i = 0, start
    while i < len(text):
        if text.startswith(opening, i):
            depth += 1
            i += len(opening)
        elif text.startswith(closing, i):
            depth -= 1
            i += len(closing)
            if depth == 0:
                return i
        else:
            i += 1
    return None


def _column_kept(body: str, start: int, end: int) -> str:
    """``body[start:end]`` on a fresh line at its original column, so later bullets stay aligned with it."""
    line_start = body.rfind("\n", 0, start) + 1
    return "\n" + " " * (start - line_start) + body[start:end].strip()


def _top_conjuncts(text: str, begin: int, end: int) -> list[tuple[int, int]]:
    """Spans of the top-level ``/\\`` conjuncts of ``text[begin:end]`` (comments already blanked):
    split where no bracket, parenthesis or tuple is open."""
    spans: list[tuple[int, int]] = []
    depth, start, i = 0, begin, begin
    while i < end:
        two = text[i:i + 2]
        if two in ("<<", ">>"):
            depth += 1 if two == "<<" else -1
            i += 2
            continue
        if two == "/\\" and depth == 0:
            spans.append((start, i))
            start = i = i + 2
            continue
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
        i += 1
    spans.append((start, end))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def _split_formula(source: str, begin: int, end: int) -> tuple[str, str, str] | None:
    """(Init, Next, v) of a definition body ``source[begin:end]`` of shape ``I /\\ [][N]_v ...``,
    its conjuncts in any order (``[][N]_v /\\ I /\\ WF_v(N)``); fairness conjuncts are not Init."""
    text = _blank_comments(source)
    box = text.find("[][", begin, end)
    if box < 0:
        return None
    after = _closing(text, box + 2, "[", "]")
    if after is None or after > end or not text.startswith("_", after):
        return None
    subscript = _subscript(text, after + 1, end)
    init_text = text[begin:box].rstrip()
    if init_text.endswith("/\\"):
        init_text = init_text[:-2].rstrip()
    parts = []
    if init_text.strip() and init_text.strip() != "/\\":
        parts.append((begin + (len(init_text) - len(init_text.lstrip())), begin + len(init_text)))
    # Conjuncts after the box that are neither fairness nor temporal (an Init written last).
    tail = text.find(subscript, after + 1, end) + len(subscript) if subscript else after + 1
    for a, b in _top_conjuncts(text, tail, end):
        piece = text[a:b].strip()
        if piece and not any(op in piece for op in ("WF_", "SF_", "[]", "<>", "~>")):
            parts.append((a + len(text[a:b]) - len(text[a:b].lstrip()), a + len(text[a:b].rstrip())))
    if not parts:
        return None
    next_ = _column_kept(text, box + 3, after - 1)
    return _conjunction(text, parts), next_, subscript


def _conjunction(text: str, parts: list[tuple[int, int]]) -> str:
    """The conjunction of ``text``'s spans, each on its own line at its own column (so the junction
    lists inside each stay aligned); several spans become a bulleted list at column 1."""
    if len(parts) == 1:
        return _column_kept(text, *parts[0])
    lines = []
    for start, end in parts:
        column = start - (text.rfind("\n", 0, start) + 1)
        piece = text[start:end].strip()
        if column >= 4:
            lines.append("\n /\\" + " " * (column - 3) + piece)
        else:  # too far left to keep its column behind a bullet: parenthesised instead
            lines.append("\n /\\ (" + " ".join(piece.split()) + ")")
    return "".join(lines)


def _subscript(text: str, start: int, end: int) -> str:
    """The subscript written at ``text[start:]``: a ``<<...>>`` tuple or a (possibly ``M!``) name."""
    i = start
    while i < end and text[i] in " \t":
        i += 1
    if text.startswith("<<", i):
        close = _closing(text, i, "<<", ">>")
        return text[i:close if close is not None and close <= end else end]
    match = _NAME_PATH.match(text, i)
    return match.group(0) if match else ""


_NAME_PATH = re.compile(r"[A-Za-z0-9_]+(?:!\w+)*")
_WORD = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")


def unconstrained_variables(modules: Mapping[str, str], gen_name: str, formula: SpecFormula,
                            variables: tuple[str, ...]) -> list[str]:
    """G's ``variables`` that the subscript ``v`` of its ``[][N]_v`` never mentions, even through the
    definitions it uses: steps that keep ``v`` may change them arbitrarily, steps that TLC, which
    only runs ``N``, never explores. Empty when G runs as plain Init/Next, and when the subscript
    uses anything but G's variables and parameterless definitions (an instance, an operator call):
    then it cannot be told without evaluating, and no variable is reported."""
    if formula.name is None or not formula.subscript:
        return []
    mentioned = _subscript_variables(modules, gen_name, formula, variables)
    return [] if mentioned is None else [v for v in variables if v not in mentioned]


def subscript_covers(modules: Mapping[str, str], main: str, formula: SpecFormula | None,
                     variables: tuple[str, ...]) -> bool:
    """Whether the ``[][N]_v`` of ``formula`` is known to mention every one of ``variables`` (then a
    step that changes any variable must be an ``N`` step). True for a spec run as plain Init/Next
    (its checks use every variable); False where it cannot be told without evaluating."""
    if formula is None:
        return False
    if formula.name is None:
        return True
    mentioned = _subscript_variables(modules, main, formula, variables) if formula.subscript else None
    return mentioned is not None and all(v in mentioned for v in variables)


def _subscript_variables(modules: Mapping[str, str], gen_name: str, formula: SpecFormula,
                         variables: tuple[str, ...]) -> set[str] | None:
    """The ``variables`` the subscript mentions through parameterless definitions, or None when it
    uses anything else (an instance, an operator call)."""
    assert formula.subscript is not None
    bodies: dict[str, str] = {}
    for syntax in reversed(extended_syntaxes(modules, gen_name)):  # the output's own definitions win
        for d in syntax.definitions:
            if d.scope == "module" and not d.parameters:
                start, stop = d.extent
                bodies[d.name] = syntax.source[start:stop].decode("utf-8", "replace").split("==", 1)[-1]
    seen: set[str] = set()
    pending = _WORD.findall(_blank_comments(formula.subscript))
    while pending:
        word = pending.pop()
        if word in seen:
            continue
        seen.add(word)
        if word in variables:
            continue
        if word not in bodies:
            return None
        pending.extend(_WORD.findall(_blank_comments(bodies[word])))
    return {v for v in variables if v in seen}


def _body(syntax: ModuleSyntax, name: str) -> tuple[str, int, int] | None:
    """(module source, body start, body end) of ``name``'s module-level definition without parameters."""
    definition = syntax.definition(name)
    if definition is None or definition.parameters or definition.kind != "operator":
        return None
    source = syntax.source
    start, end = definition.extent
    head = source.find(b"==", start, end)
    if head < 0:
        return None
    # Work in characters: the syntax spans are byte offsets.
    prefix = source[:head + 2].decode("utf-8", "replace")
    whole = source[:end].decode("utf-8", "replace")
    return source.decode("utf-8", "replace"), len(prefix), len(whole)


def _body_in(syntaxes: list[ModuleSyntax], name: str) -> tuple[str, int, int] | None:
    """:func:`_body` of ``name`` in the first of ``syntaxes`` that defines it."""
    return next((b for syntax in syntaxes if (b := _body(syntax, name)) is not None), None)


def _split_named(syntaxes: list[ModuleSyntax], name: str, depth: int) -> tuple[str, str, str] | None:
    """(Init, Next, v) of the definition ``name``, or of a definition its body names when the body is
    not itself of shape ``I /\\ [][N]_v`` (``LSpec == HC /\\ WF_hr(HCnxt)`` with ``HC`` of that shape),
    up to ``depth`` definitions deep. TLC still runs ``name``, so its fairness conjuncts stay."""
    body = _body_in(syntaxes, name)
    if body is None:
        return None
    split = _split_formula(*body)
    if split is not None or depth == 0:
        return split
    source, begin, end = body
    for word in dict.fromkeys(_WORD.findall(_blank_comments(source[begin:end]))):
        if word != name and (inner := _split_named(syntaxes, word, depth - 1)) is not None:
            return inner
    return None


_CONJUNCTION = re.compile(r"/\\")


def _fair_extension(syntaxes: list[ModuleSyntax], name: str, defined: list[str]) -> str:
    """The outermost definition that conjoins ``name`` with fairness only (``FairSpec == Spec /\\
    WF_vars(Next)``), climbing while there is one; ``name`` itself when none does. Behaviors are
    graded, not names: the fair formula is the one whose liveness the reference's cfg may check."""
    current, seen = name, {name}
    while True:
        outer = next((d for d in defined if d not in seen and _conjoins_fairness(syntaxes, d, current)), None)
        if outer is None:
            return current
        current = outer
        seen.add(outer)


def _conjoins_fairness(syntaxes: list[ModuleSyntax], candidate: str, name: str) -> bool:
    body = _body_in(syntaxes, candidate)
    if body is None:
        return False
    source, begin, end = body
    conjuncts = [c.strip() for c in _CONJUNCTION.split(_blank_comments(source[begin:end])) if c.strip()]
    return (len(conjuncts) > 1 and name in conjuncts
            and all(c == name or _is_fairness(syntaxes, c) for c in conjuncts))


def _is_fairness(syntaxes: list[ModuleSyntax], conjunct: str) -> bool:
    """A WF_/SF_ condition, written out or through a definition (``Liveness == WF_vars(Next)``)."""
    if "WF_" in conjunct or "SF_" in conjunct:
        return True
    body = _body_in(syntaxes, conjunct)
    if body is None:
        return False
    text = _blank_comments(body[0][body[1]:body[2]])
    return ("WF_" in text or "SF_" in text) and "[][" not in text


def _mentions_fairness(syntaxes: list[ModuleSyntax], name: str, depth: int) -> bool:
    """Whether the definition ``name`` writes WF_/SF_, itself or through definitions it names
    (``depth`` levels deep)."""
    body = _body_in(syntaxes, name)
    if body is None:
        return False
    text = _blank_comments(body[0][body[1]:body[2]])
    if "WF_" in text or "SF_" in text:
        return True
    return depth > 0 and any(word != name and _mentions_fairness(syntaxes, word, depth - 1)
                             for word in dict.fromkeys(_WORD.findall(text)))


def spec_formula(modules: Mapping[str, str], gen_name: str, cfg_spec: str | None, *,
                 as_named: bool = False) -> SpecFormula | None:
    """G's spec formula (appendix H): the cfg's SPECIFICATION name if G defines it, else ``Spec``,
    else any definition of shape ``I /\\ [][N]_v``; else plain ``Init``/``Next`` operators. A
    definition that only adds fairness to the one found (``FairSpec == Spec /\\ WF_v(Next)``) is
    taken instead, except, with ``as_named``, when the one found is the cfg's name or ``Spec``: then
    it is the formula TLC itself would run with the cfg (bound as appendix H binds it), and an extra
    ``FairSpec`` beside it is not what the cfg asks for.

    G's definitions include those of the staged ``modules`` it EXTENDS (its own come first), so an
    output that extends a provided module may take its spec formula from there."""
    syntaxes = extended_syntaxes(modules, gen_name)
    defined = [d.name for syntax in syntaxes for d in syntax.definitions if d.scope == "module"]
    named = [n for n in (cfg_spec, "Spec") if n]
    for name in dict.fromkeys(named + defined):
        split = _split_named(syntaxes, name, depth=2)
        if split is not None:
            chosen = name if as_named and name in named else _fair_extension(syntaxes, name, defined)
            return SpecFormula(chosen, *split, fair=_mentions_fairness(syntaxes, chosen, depth=3))
    if "Init" in defined and "Next" in defined:
        return SpecFormula(None, "Init", "Next")
    return None


# ---------------------------------------------------------------- wrappers


def _substitutions(pairs: Mapping[str, str]) -> str:
    return ", ".join(f"{name} <- {by}" for name, by in pairs.items())


def _instance(alias: str, module: str, pairs: Mapping[str, str]) -> str:
    subs = _substitutions(pairs)
    return f"{alias} == INSTANCE {module}" + (f" WITH {subs}" if subs else "")


def _tuple(names: tuple[str, ...]) -> str:
    return "<<" + ", ".join(names) + ">>"


def _module(name: str, extends: str, body: list[str]) -> str:
    return f"---- MODULE {name} ----\nEXTENDS {extends}\n" + "\n".join(body) + "\n====\n"


def forward_check(staged: SpecFiles, gen: SpecFormula, ref_module: str, ref_decl: Declared, ref_cfg: Cfg,
                  mapping: NameMapping, prefix: str, *, substitutions: Mapping[str, str] | None = None,
                  derived: tuple[str, ...] = (), bindings: Bindings | None = None,
                  ref_safety: SpecFormula | None = None, model_values: tuple[str, ...] = ()) -> Check:
    """Run G; check R's spec formula, invariants and properties (through ``INSTANCE``) under ``mapping``.

    ``substitutions`` (R's name → G-expression) replaces the plain renaming when values are encoded;
    ``derived`` names R's constants that G defines instead of declaring (their cfg values are dropped);
    ``bindings`` gives G the values R's cfg binds through R's own definitions (``Node <- N1``), and
    R's own operators for operator constants bound to them (``Op <- MCOp``, through the instance).
    ``ref_safety`` (R's spec formula, as :func:`spec_formula` reads it) checks only its safety part
    ``Init /\\ [][Next]_v`` instead of the whole formula: for a reference whose fairness TLC cannot
    evaluate as a property (see :func:`fairness_unevaluable`). ``model_values`` are the model values
    ``substitutions`` name by the wrapper's constants (:func:`.bindings.fresh_name`).
    """
    p = prefix
    ref = f"{p}Ref"
    bindings = bindings or Bindings()
    fresh = tuple(dict.fromkeys((*bindings.fresh, *model_values)))
    if ref_safety is not None:
        # R's Init and Next as definitions of its renamed copy, so the instance can name them.
        staged = SpecFiles(staged.main, {**staged.modules, ref_module: with_definitions(
            staged.modules[ref_module], f"{p}RInit =={ref_safety.init}\n{p}RNext =={ref_safety.next}\n")})
    lines = [*model_value_declaration(p, fresh), *bindings.definitions(p, dict(mapping.constants)),
             _instance(ref, ref_module, mapping.as_dict if substitutions is None else substitutions),
             # R's bound operators apply through the instance, so they come after it.
             *bindings.operator_definitions(p, ref)]
    aliases: dict[str, str] = {}
    invariants: list[str] = []
    properties: list[str] = []

    def alias(name: str, expression: str, meaning: str) -> str:
        lines.append(f"{name} == {expression}")
        aliases[name] = meaning
        return name

    if ref_cfg.specification is not None and ref_safety is not None:
        gen_vars = tuple(g for _, g in mapping.variables)
        formula = f"{ref}!{p}RInit /\\ [][{ref}!{p}RNext]_{_tuple(gen_vars)}"
        properties.append(alias(f"{p}RefSpec", formula, f"the reference's safety formula Init /\\ [][Next]_vars "
                                                         f"(of {ref_cfg.specification})"))
    elif ref_cfg.specification is not None:
        properties.append(alias(f"{p}RefSpec", f"{ref}!{ref_cfg.specification}",
                                f"the reference's specification {ref_cfg.specification}"))
    elif ref_cfg.init is not None and ref_cfg.next is not None:
        gen_vars = tuple(g for _, g in mapping.variables)
        formula = f"{ref}!{ref_cfg.init} /\\ [][{ref}!{ref_cfg.next}]_{_tuple(gen_vars)}"
        properties.append(alias(f"{p}RefSpec", formula, f"the reference's {ref_cfg.init} /\\ [][{ref_cfg.next}]_vars"))
    for i, inv in enumerate(ref_cfg.invariants):
        invariants.append(alias(f"{p}RefInv{i}", f"{ref}!{inv}", f"the reference's invariant {inv}"))
    for i, prop in enumerate(ref_cfg.properties):
        properties.append(alias(f"{p}RefProp{i}", f"{ref}!{prop}", f"the reference's property {prop}"))
    cfg = with_model_values(_constants_for_gen(bound_cfg(ref_cfg, bindings, p), mapping, derived), p, fresh)
    # The wrapper's own constants (for model values) are declared constants too, not overrides.
    declared = (*(g for _, g in mapping.constants), *fresh_names(p, fresh).values())
    cfg = scoped_overrides(cfg, staged.modules, declared, top=staged.main, instances={ref_module: ref_module})
    cfg = cfg.with_specification(gen.name) if gen.name is not None else cfg.with_init_next(gen.init, gen.next)
    # R's state constraints and symmetry are R-expressions: they reach G through the instance too.
    for i, con in enumerate(ref_cfg.constraints):
        cfg = cfg.with_added("CONSTRAINT", alias(f"{p}RefCon{i}", f"{ref}!{con}", f"constraint {con}"))
    for i, con in enumerate(ref_cfg.action_constraints):
        cfg = cfg.with_added("ACTION_CONSTRAINT", alias(f"{p}RefACon{i}", f"{ref}!{con}", f"constraint {con}"))
    if ref_cfg.symmetry is not None:
        cfg = cfg.with_single("SYMMETRY", alias(f"{p}RefSym", f"{ref}!{ref_cfg.symmetry}", "symmetry"))
    if invariants:
        cfg = cfg.with_added("INVARIANT", *invariants)
    if properties:
        cfg = cfg.with_added("PROPERTY", *properties)
    wrapper = f"{p}Fwd_{short_hash(staged.main, *staged.modules.values())}"
    extends = staged.main + (", TLC" if bindings.needs_tlc else "")
    modules = {**staged.modules, wrapper: _module(wrapper, extends, lines)}
    return Check("forward", SpecFiles(wrapper, modules, render_cfg(cfg)), aliases)


#: What TLC prints when it cannot evaluate a formula's fairness as a property: ENABLED of an action
#: that leaves a variable of the subscript unbound (TLC, checking the spec itself, never needs it
#: unless a liveness property is checked).
_UNEVALUABLE = ("is either undefined or not an operator", "cannot handle the temporal formula")
#: A TLA+ string value as TLC prints it (quoted, with backslash escapes).
_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def fairness_unevaluable(result: TlcResult) -> bool:
    """Whether a check's TLC run stopped because TLC could not evaluate a formula it was given
    (rather than finding a violation): then a fair formula is checked for its safety part only."""
    # TLC's words, never a spec's: every string value TLC printed (an Assert's message, a PrintT) is
    # blanked first, so an output cannot ask for its fairness to go unchecked by printing these words.
    text = _QUOTED.sub('""', f"{result.message or ''}\n{result.output}")
    return result.status == "crash" and any(marker in text for marker in _UNEVALUABLE)


def fairness_fallback(direction: str, result: TlcResult, ref_formula: SpecFormula | None, gen: SpecFormula,
                      fairness: bool) -> str | None:
    """Why ``direction``'s check should run again on a safety part (None: it should not).

    TLC evaluates a formula's fairness only for liveness checking, and cannot when the action leaves
    a variable of the subscript unbound (``WF_vars(inc(self))`` with ``UNCHANGED y`` written in Next
    only): such a reference passes TLC with its cfg when that checks no liveness, yet its fairness
    as a property of the forward check (or the output's, in the reverse check with ``fairness``)
    stops TLC. Then, as TLC itself never evaluates that fairness for the cfg, the check runs again
    with the safety part ``Init /\\ [][Next]_v`` of that formula."""
    if not fairness_unevaluable(result):
        return None
    if direction == "forward" and ref_formula is not None and ref_formula.fair:
        return ("TLC cannot evaluate the reference's fairness as a property (an action of it leaves a variable "
                "unbound); the forward check took its safety part Init /\\ [][Next]_vars")
    if direction == "reverse" and fairness and gen.fair:
        return ("TLC cannot evaluate the output's fairness on the reference's behaviors; the reverse check took "
                "its safety part Init /\\ [][Next]_v")
    return None


def _constants_for_gen(ref_cfg: Cfg, mapping: NameMapping, derived: tuple[str, ...] = ()) -> Cfg:
    """R's cfg without its operator sections, its constant names moved onto G's (``derived`` ones dropped)."""
    kept = Cfg(tuple(replace(s, entries=tuple(e for e in s.entries if e.name not in derived))
                     for s in ref_cfg.sections if isinstance(s, ConstantsSection)))
    return kept.with_names(dict(mapping.constants))


def gen_constants_cfg(ref_cfg: Cfg, mapping: NameMapping, derived: tuple[str, ...] = ()) -> Cfg:
    """The constants section G runs with: R's values under G's names, without derived constants."""
    return _constants_for_gen(ref_cfg, mapping, derived)


def _defining_module(modules: Mapping[str, str], root: str, name: str) -> str | None:
    """The staged module, among ``root`` and those it EXTENDS, that defines ``name`` (first found)."""
    for syntax in extended_syntaxes(modules, root):
        if syntax.definition(name) is not None:
            return syntax.name
    return None


def scoped_overrides(cfg: Cfg, modules: Mapping[str, str], declared_constants: tuple[str, ...], *,
                     top: str, instances: Mapping[str, str] = {}) -> Cfg:
    """``cfg`` with each override of a *definition* (``NoNode = NoNode``, ``Foo <- Bar``; not a
    declared constant) made to reach every instantiated copy: a plain cfg entry replaces the name
    in the top module only, so the instance of the other spec would keep, say, an unbounded CHOOSE.

    ``top`` is the module TLC runs (its definitions, with those it EXTENDS, take the plain entry,
    which is dropped when it defines no such name); ``instances`` maps each instantiated module to
    the module name its copy is staged under (``[Mod]`` entries name the latter).
    """
    def scoped(entry: ConstantEntry) -> list[ConstantEntry]:
        if entry.module is not None or entry.name in declared_constants or "!" in entry.name:
            return [entry]
        out = [entry] if _defining_module(modules, top, entry.name) is not None else []
        for staged_name in instances.values():
            owner = _defining_module(modules, staged_name, entry.name)
            if owner is not None:
                out.append(replace(entry, module=owner))
        return out  # a definition nothing staged defines has nothing to override

    return Cfg(tuple(ConstantsSection(tuple(e for entry in s.entries for e in scoped(entry)), s.keyword)
                     if isinstance(s, ConstantsSection) else s for s in cfg.sections))


def reverse_check(staged: SpecFiles, gen_module: str, gen: SpecFormula, ref_module: str, ref_decl: Declared,
                  ref_cfg: Cfg, mapping: NameMapping, prefix: str, *,
                  substitutions: Mapping[str, str] | None = None, fairness: bool = False,
                  model_values: tuple[str, ...] = ()) -> Check:
    """Run R; check G's safety formula ``Init /\\ [][Next]_v`` under the inverse mapping.

    ``substitutions`` (G's name → R-expression) replaces the inverse renaming when values are encoded;
    ``model_values`` are the model values they name by the wrapper's constants.
    ``fairness`` also checks G's whole spec formula, fairness included, on R's fair behaviors (the
    paper checks safety only, so vacuous fairness, or fairness that excludes some of R's
    behaviors, passes there): R's formula must imply G's.
    """
    p = prefix
    inverse = mapping.inverse if substitutions is None else dict(substitutions)
    init, next_ = f"{p}GInit", f"{p}GNext"
    gen_text = with_definitions(renamed_module(staged.modules[staged.main], gen_module),
                                f"{init} =={gen.init}\n{next_} =={gen.next}\n")
    lines = [*model_value_declaration(p, model_values), _instance(f"{p}Gen", gen_module, inverse),
             f"{p}GenSafety == {p}Gen!{init} /\\ [][{p}Gen!{next_}]_{_tuple(ref_decl.variables)}"]
    aliases = {f"{p}GenSafety": "the output's safety formula Init /\\ [][Next]_v"}
    checked = [f"{p}GenSafety"]
    if fairness and gen.fair and gen.name is not None:
        lines.append(f"{p}GenFair == {p}Gen!{gen.name}")
        aliases[f"{p}GenFair"] = f"the output's specification {gen.name} with its fairness"
        checked.append(f"{p}GenFair")
    # R's own checks (and what TLC prints or checks at the end) are not G's safety: left out.
    base = with_model_values(ref_cfg.without(*CHECK_ONLY_KINDS), p, model_values)
    cfg = base.with_added("PROPERTY", *checked)
    wrapper = f"{p}Rev_{short_hash(ref_module, gen_module, *staged.modules.values())}"
    modules = {**staged.modules, gen_module: gen_text, wrapper: _module(wrapper, ref_module, lines)}
    declared = (*ref_decl.constants, *fresh_names(p, model_values).values())
    cfg = scoped_overrides(cfg, modules, declared, top=ref_module, instances={gen_module: gen_module})
    return Check("reverse", SpecFiles(wrapper, modules, render_cfg(cfg)), aliases)


#: Temporal operators that can restrict which behaviors a formula admits beyond Init and [][Next]_v:
#: fairness, eventually, leads-to, and always applied to anything but an action ``[][N]_v``.
_LIVENESS = re.compile(r"WF_|SF_|<>|~>|\[\](?!\s*\[)")


def mentions_liveness(modules: Mapping[str, str], main: str, name: str) -> bool:
    """Whether the definition ``name`` (in ``main`` or a module it extends) writes a fairness or other
    temporal condition, itself or through any definition it names: only such a formula can admit no
    behavior while its Init has a state (see :mod:`.integrity`). An undefined ``name`` counts as one."""
    syntaxes = extended_syntaxes(modules, main)
    pending, seen = [name], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        body = _body_in(syntaxes, current)
        if body is None:
            if current == name:
                return True  # nothing to read: probe rather than assume
            continue
        text = _blank_comments(body[0][body[1]:body[2]])
        if _LIVENESS.search(text):
            return True
        pending.extend(_WORD.findall(text))
    return False
