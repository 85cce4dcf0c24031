"""Which constant mappings make the output's own ASSUMEs fail, learnt in a few TLC runs for all of them.

The mapping search's forward check runs G under the constant values a mapping gives G's constants. Where
one of G's assumptions is false, or cannot be evaluated, under those values, TLC stops at start-up, before
it evaluates any state: the check fails whatever the variable mapping. The search learns it one TLC run
per constant part (measured: 62 of the 69 TLC runs grading one wrong output of the Paxos example stopped
so), since each part gives G other values.

Here G's top-level ``ASSUME``/``ASSUMPTION`` formulas are split into their conjuncts, and each conjunct
is evaluated once per distinct value of the constants it depends on (those it names; every constant if
it names a definition of G's modules): a probe module instantiates G with those values (the others as
the part gives them; model values become constants of the probe, bound to themselves) and prints each
conjunct's value. A conjunct whose evaluation fails counts as failed: on the tool server the probe
wraps each evaluation in an operator whose Java definition turns TLC's failure into a value (see
:data:`HELPER_MODULE`), so one run evaluates them all; elsewhere the failure stops the run, which TLC
names by the probe's line, and a later run goes on from there. A part is *doomed* when one of its conjuncts
is not TRUE: TLC evaluates the same assumption on the same values when the forward check starts, and a
conjunction with a FALSE or failing conjunct is not TRUE, so that check fails before any state.
A conjunct is not evaluated where a constant it depends on has no plain cfg value (bound through a
definition, module-scoped, an operator) or gets none; the others are, with such constants bound to
stand-ins they never read (a model value, or an operator of the constant's arity). Nor is one that
names something the cfg overrides, or a definition where the cfg overrides any (the probe would read
what the forward check replaces). Assumptions of G's other modules are not read
(they can only add failures).
"""

from __future__ import annotations

import functools
import hashlib
import re
import time
from dataclasses import dataclass
from typing import Sequence

from tree_sitter import Node

from ..tla.cfg import CfgModelValue, SetValue, Value, model_values_in, render_value
from ..tla.runner import TlaTools
from ..tla.specfiles import SpecFiles
from ..tla.syntax import parse_module, parse_tree
from ..tla.values import Bool, parse_value
from .bindings import bound_cfg
from .extended import ExtendedInputs
from .mapping import NameMapping, constant_arities
from .refinement import gen_constants_cfg, with_definitions

#: One constant part of a mapping: (R's constant, G's constant) pairs.
Part = tuple[tuple[str, str], ...]
#: One evaluation: a conjunct (by index) and the values of the constants it depends on.
Unit = tuple[int, tuple[tuple[str, str], ...]]
_TAG = "AliasAssumeProbe"
#: The module whose operator the probe wraps each evaluation in. In TLA+ it is the identity; the tool
#: server gives TLC a Java definition of it (``java/overrides/alias/ValueOrFailure.java``) that yields
#: the string ``"AliasEvaluationFailed"`` where TLC cannot evaluate its argument, so one run evaluates
#: everything instead of stopping at the first failure. Elsewhere a failure stops the run as before.
HELPER_MODULE = "AliasProbe"
#: Its operator (the Java definition's ``@Evaluation`` names both).
HELPER_OPERATOR = "AliasValueOrFailure"
_HELPER_TEXT = f"---- MODULE {HELPER_MODULE} ----\n{HELPER_OPERATOR}(e) == e\n====\n"
#: The probe runs at most this often for one output (each failed evaluation starts it again).
MAX_PROBE_RUNS = 8
#: One probe run's time limit: it evaluates constant formulas only, and one that runs long (a large
#: SUBSET) must not eat the search's budget; a run stopped by it teaches nothing, so says nothing.
PROBE_SECONDS = 30.0
#: TLC's message when evaluating an assumption fails: which line of which module.
_FAILED = re.compile(r"Evaluating assumption line (\d+), col \d+ to line \d+, col \d+ of module (\w+) failed")


@dataclass(frozen=True)
class Conjunct:
    """One conjunct of a top-level assumption: its text (on a fresh line at its original column, so
    junction lists stay aligned) and the identifiers it names."""

    text: str
    names: frozenset[str]


def assumption_conjuncts(text: str) -> list[Conjunct]:
    """The conjuncts of ``text``'s top-level ASSUME/ASSUMPTION formulas (not AXIOMs), split through
    junction lists, ``/\\`` and parentheses."""
    source = text.encode("utf-8")
    modules = [node for node in parse_tree(source).root_node.children if node.type == "module"]
    found: list[Conjunct] = []

    def split(node: Node) -> None:
        kind = node.type
        named = node.named_children
        if kind == "conj_list":
            for item in named:
                split(item.named_children[-1])
        elif kind == "bound_infix_op" and len(named) == 3 and named[1].type == "land":
            split(named[0])
            split(named[2])
        elif kind == "parentheses" and len(named) == 1:
            split(named[0])
        else:
            column = node.start_point[1]
            body = source[node.start_byte:node.end_byte].decode("utf-8")
            found.append(Conjunct("\n" + " " * column + body, frozenset(_names(node))))

    for node in modules[0].children if modules else ():
        if node.type == "assumption" and node.children and node.children[0].type in ("ASSUME", "ASSUMPTION") \
                and node.named_children:
            split(node.named_children[-1])
    return found


def _names(node: Node) -> set[str]:
    """The identifiers a formula names (``identifier_ref`` nodes, at any depth)."""
    names: set[str] = set()
    pending = [node]
    while pending:
        current = pending.pop()
        if current.type == "identifier_ref":
            names.add((current.text or b"").decode("utf-8"))
        pending.extend(current.named_children)
    return names


def _expression(value: Value) -> str | None:
    """A cfg value as a TLA+ expression of the probe (model values are its constants), or None."""
    if isinstance(value, (bool, int, str, CfgModelValue)):
        return render_value(value)
    if isinstance(value, SetValue):
        parts = [_expression(v) for v in value.elements]
        return None if None in parts else "{" + ", ".join(parts) + "}"  # type: ignore[arg-type]
    return None  # a tuple: TLC's cfg reader takes none, so such a cfg fails the same way everywhere


@dataclass(frozen=True)
class PartValues:
    """What the forward check's cfg gives G's constants under one constant part: the plain values (as
    TLA+ expressions of the probe), the model values they use, the constants with no plain value, and
    the other names the cfg gives a value (definitions it overrides, standard ones such as ``Nat``
    included)."""

    values: dict[str, str]
    model_values: frozenset[str]
    unknown: frozenset[str]
    overridden: frozenset[str]


def _part_values(inputs: ExtendedInputs, part: Part) -> PartValues:
    """G's constants' values in the forward check's cfg under ``part`` (see :class:`PartValues`)."""
    cfg = gen_constants_cfg(bound_cfg(inputs.ref_cfg, inputs.bindings, inputs.prefix), NameMapping((), part))
    constants = set(inputs.gen_decl.constants)
    values: dict[str, str] = {}
    model_values: set[str] = set()
    unknown: set[str] = set()
    overridden: set[str] = set()
    for entry in cfg.constants:
        if entry.name not in constants or entry.module is not None:
            overridden.add(entry.name.rsplit("!", 1)[-1])  # what it replaces, the probe would not read
            continue
        parsed = entry.parsed if entry.op == "=" and not entry.params else None
        expression = _expression(parsed) if parsed is not None else None
        if parsed is None or expression is None:
            unknown.add(entry.name)
            continue
        values[entry.name] = expression
        model_values.update(model_values_in(parsed))
    unknown |= constants - set(values)
    return PartValues(values, frozenset(model_values), frozenset(unknown), frozenset(overridden))


class AssumptionProbe:
    """Answers, per constant part, whether one of G's own assumptions is not TRUE under it (see the
    module's docstring). Probes lazily: a run evaluates the part asked about first, then what the
    parts the search may ask about next still need, up to the first evaluation that fails."""

    def __init__(self, tools: TlaTools, inputs: ExtendedInputs, timeout: float, deadline: float) -> None:
        self.tools, self.inputs, self.timeout, self.deadline = tools, inputs, timeout, deadline
        self.runs = 0
        #: Per part: its evaluations, the values to instantiate G with, the model values used (None: not probed).
        self._parts: dict[Part, tuple[list[Unit], dict[str, str], set[str]] | None] = {}
        self._results: dict[Unit, bool] = {}  # an evaluation → whether it was TRUE
        #: Conjuncts (by index) whose evaluation has failed under some values: their other evaluations
        #: go last in a run, since each failure ends the run it happens in.
        self._failing: set[int] = set()

    @functools.cached_property
    def _conjuncts(self) -> list[Conjunct]:
        """G's assumption conjuncts (read when the search first asks: most searches never do)."""
        gen = self.inputs.gen_spec
        return assumption_conjuncts(gen.modules[gen.main]) if self.inputs.gen_decl.variables else []

    @functools.cached_property
    def _depends(self) -> list[list[str]]:
        """The constants each conjunct depends on: those it names, or all where it names a definition of
        G's modules or reaches into an instance (``I!Op``)."""
        constants = set(self.inputs.gen_decl.constants)
        return [sorted(constants if whole else c.names & constants)
                for c, whole in zip(self._conjuncts, self._names_definition)]

    @functools.cached_property
    def _modules(self) -> dict[str, str]:
        """G's modules with each conjunct defined in its main module (``<prefix>Assume<i>``)."""
        gen, p = self.inputs.gen_spec, self.inputs.prefix
        definitions = "".join(f"{p}Assume{i} =={c.text}\n" for i, c in enumerate(self._conjuncts))
        return {**gen.modules, gen.main: with_definitions(gen.modules[gen.main], definitions)}

    def doomed(self, part: Part, upcoming: Sequence[Part]) -> bool:
        """Whether ``part``'s forward check must stop at start-up; ``upcoming``: the parts the search
        may ask about next (their evaluations share the run)."""
        if not self._conjuncts:
            return False
        verdict = self._verdict(part)
        if verdict is None and not any(self._verdict(later) is None for later in upcoming if later != part):
            return False  # one probe run to spare one check: not worth it
        while verdict is None and self.runs < MAX_PROBE_RUNS and self._probe([part, *upcoming]):
            verdict = self._verdict(part)
        return bool(verdict)

    @functools.cached_property
    def _names_definition(self) -> list[bool]:
        """Per conjunct: whether it names a definition of G's modules or reaches into an instance."""
        defined = {d.name for text in self.inputs.gen_spec.modules.values() for d in parse_module(text).definitions}
        return [bool(c.names & defined) or "!" in c.text for c in self._conjuncts]

    def _plan(self, part: Part) -> tuple[list[Unit], dict[str, str], set[str]] | None:
        """The evaluations ``part`` can be probed by, the substitutions for G's constants (stand-ins
        where a value is unknown) and the model values used; None where no conjunct can be evaluated."""
        if part not in self._parts:
            found = _part_values(self.inputs, part)
            # An operator constant given a value clashes in arity: SANY rejects the check (see mapping.arity_clash).
            clash = any(self._arities.get(name, 0) for name in found.values)
            units = [] if clash else [
                (i, tuple((c, found.values[c]) for c in depends)) for i, depends in enumerate(self._depends)
                if not (found.unknown & set(depends) or self._reads_override(i, found.overridden))]
            substitutions = {name: found.values.get(name) or _stand_in(self.inputs.prefix, self._arities.get(name, 0))
                             for name in self.inputs.gen_decl.constants}
            unknown = _stand_in(self.inputs.prefix, 0)
            model_values = set(found.model_values) | ({unknown} if unknown in substitutions.values() else set())
            self._parts[part] = (units, substitutions, model_values) if units else None
        return self._parts[part]

    def _reads_override(self, index: int, overridden: frozenset[str]) -> bool:
        """Whether conjunct ``index`` may read a name the cfg overrides: it names one, or it names a
        definition (which may)."""
        return bool(overridden) and (bool(self._conjuncts[index].names & overridden) or self._names_definition[index])

    @functools.cached_property
    def _arities(self) -> dict[str, int]:
        return constant_arities(self.inputs.gen_spec.modules, self.inputs.gen_spec.main)

    def _verdict(self, part: Part) -> bool | None:
        """True: doomed; False: every assumption TRUE, or not probeable; None: not known yet."""
        plan = self._plan(part)
        if plan is None:
            return False
        known = [self._results.get(unit) for unit in plan[0]]
        if False in known:
            return True
        return None if None in known else False

    def _probe(self, parts: list[Part]) -> bool:
        """One TLC run over the evaluations ``parts`` still need (the first part's first); whether it
        taught anything."""
        batch: dict[Unit, dict[str, str]] = {}
        model_values: set[str] = set()
        for part in parts:
            plan = self._plan(part)
            if plan is None or self._verdict(part) is not None:
                continue
            for unit in plan[0]:
                if unit not in self._results and unit not in batch:
                    batch[unit] = plan[1]
                    model_values |= plan[2]
        if not batch or model_values & set(self.inputs.gen_decl.variables):
            return False
        # Evaluations of conjuncts that failed before go last (stable otherwise): a run learns every other
        # evaluation before the next failure stops it. Each evaluation's value is its own, whatever the order.
        units = sorted(batch.items(), key=lambda item: item[0][0] in self._failing)
        self.runs += 1
        arities = sorted({arity for arity in self._arities.values() if arity})
        helper = HELPER_MODULE not in self._modules
        module, text, first_line = _probe_module(self.inputs, units, model_values, arities, helper=helper)
        p = self.inputs.prefix
        cfg = "".join(f"CONSTANT {value} = {value}\n" for value in sorted(model_values))
        cfg += f"INIT {p}ProbeInit\nNEXT {p}ProbeNext\n"
        limit = min(self.timeout, PROBE_SECONDS, max(1.0, self.deadline - time.perf_counter()))
        modules = {**self._modules, module: text, **({HELPER_MODULE: _HELPER_TEXT} if helper else {})}
        result = self.tools.tlc(SpecFiles(module, modules, cfg), deadlock=False, timeout=limit)
        printed = _printed(result.output)
        if printed is None:
            return False
        for index, holds in printed.items():
            if 0 <= index < len(units):
                self._results[units[index][0]] = holds
        if result.ok:
            return bool(printed)
        failed = _FAILED.search(result.output)
        index = int(failed.group(1)) - first_line if failed is not None and failed.group(2) == module else -1
        if index != len(printed) or index >= len(units):
            return False  # the run failed otherwise: nothing more is known
        self._results[units[index][0]] = False  # its evaluation failed: so does the forward check's start-up
        self._failing.add(units[index][0][0])
        return True


def _stand_in(prefix: str, arity: int) -> str:
    """What the probe binds a constant of ``arity`` to when its value is not known (no evaluation it
    makes reads it): a model value, or an operator the probe module defines (see :func:`_probe_module`)."""
    return f"{prefix}Any{arity}" if arity else f"{prefix}Unknown"


def _printed(output: str) -> dict[int, bool] | None:
    """Per evaluation (by index), whether it printed TRUE; None if a printed line cannot be read."""
    printed: dict[int, bool] = {}
    for line in output.splitlines():
        if not line.startswith(f'<<"{_TAG}"'):
            continue
        try:
            value = parse_value(line)
        except ValueError:
            return None
        if not (isinstance(value, tuple) and len(value) == 3 and isinstance(value[1], int)):
            return None
        printed[value[1]] = isinstance(value[2], Bool) and value[2].value
    return printed


def _probe_module(inputs: ExtendedInputs, units: list[tuple[Unit, dict[str, str]]],
                  model_values: set[str], operator_arities: list[int], *, helper: bool = True) -> tuple[str, str, int]:
    """The probe module's name, text and the line of its first ASSUME (one ASSUME per line after it);
    ``operator_arities``: those of G's operator constants, each with a stand-in defined; ``helper``:
    each evaluation is wrapped in :data:`HELPER_MODULE`'s operator (a failure becomes a value)."""
    p, gen = inputs.prefix, inputs.gen_spec.main
    variables = inputs.gen_decl.variables
    digest = hashlib.sha256(repr((units, sorted(inputs.gen_spec.modules.items()))).encode()).hexdigest()[:10]
    module = f"{p}Probe_{digest}"
    lines = [f"---- MODULE {module} ----", f"EXTENDS TLC, {HELPER_MODULE}" if helper else "EXTENDS TLC"]
    if model_values:
        lines.append(f"CONSTANTS {', '.join(sorted(model_values))}")
    lines.append(f"VARIABLES {', '.join(variables)}")
    for arity in operator_arities:  # stand-ins for operator constants (see _stand_in)
        params = ", ".join(f"{p}A{i}" for i in range(arity))
        lines.append(f"{_stand_in(p, arity)}({params}) == FALSE")
    # One instance of G per distinct set of values (a part's conjuncts share one): fewer for SANY to check.
    instances: dict[tuple[tuple[str, str], ...], int] = {}
    instance_of: list[int] = []  # per evaluation, the instance it reads
    for _, values in units:
        key = tuple(values.items())
        if key not in instances:
            instances[key] = len(instances)
            substitutions = ", ".join(f"{name} <- {value}" for name, value in values.items())
            lines.append(f"{p}P{instances[key]} == INSTANCE {gen}" + (f" WITH {substitutions}" if substitutions else ""))
        instance_of.append(instances[key])
    lines.append(f"{p}ProbeInit == FALSE /\\ {variables[0]} = {variables[0]}")
    lines.append(f"{p}ProbeNext == FALSE /\\ {variables[0]}' = {variables[0]}")
    first_line = len(lines) + 1
    wrap = HELPER_OPERATOR if helper else ""
    lines += [f'ASSUME PrintT(<<"{_TAG}", {i}, {wrap}({p}P{instance_of[i]}!{p}Assume{unit[0]})>>)'
              for i, (unit, _) in enumerate(units)]
    lines.append("====")
    return module, "\n".join(lines) + "\n", first_line
