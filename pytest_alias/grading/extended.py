"""The extended behavior grade's search: match state graphs in Python, confirm the winner with TLC.

Paper mode tries up to 60 name mappings with two TLC runs each. Extended mode instead dumps the
reachable state graph of R (cached by the run cache across outputs) and of G (once per constant
mapping tried: identical names first, then every other bijection up to :data:`MAX_GRAPH_RUNS`, each
wrong one usually failing fast), finds the variable mappings and value encodings under which the
graphs coincide (:mod:`.graphmatch`), and confirms the best one with the same forward and reverse TLC
checks, the INSTANCE substitutions written as encoding expressions (:mod:`.encoding`). An output whose
constants keep their names costs SANY, one graph dump and two checks: four launches, at most
:data:`MAX_LAUNCHES` whatever the variable count.

It also accepts an output that defines, instead of declaring, a constant of R (``N == 3``): R's
constant is substituted by G's definition of the same name.

Beyond the paper, it rejects a spec formula whose subscript leaves a variable free (checked in
:mod:`.behavior`), and it uses appendix I's data-variable comparison (:func:`on_data_variables`) only
where G's control really differs from R's: when no graph match exists and no G variable is shaped
like R's control-label variable (:func:`label_counterparts`). A model value inside an encoded value
(``pc`` over a set of model values) is named by a constant of the check's wrapper that its cfg binds
to it. A reference whose cfg needs a CONSTRAINT, or one over :data:`MAX_GRAPH_STATES`, runs the
paper search.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..tasks.model import Condition
from ..tla.cfg import CHECK_ONLY_KINDS, Cfg, render_cfg
from ..tla.graph import StateGraph
from ..tla.cache import content_key, files_digest
from ..tla.runner import TlaTools
from ..tla.specfiles import SpecFiles
from ..tla.tlc import TlcResult
from ..tla.syntax import parse_module
from .bind import CfgBinding
from .bindings import Bindings, bound_cfg, fresh_names, model_strings, model_value_declaration, with_model_values
from .encoding import describe, encoded_model_values, forward_expression, reverse_expression
from .endings import note_remembered
from .graphmatch import GraphMatch, atoms, match_graphs, value_shape
from .labels import data_mappings, trace_equivalent
from .mapping import Declared, NameMapping, ranked_bijections
from .refinement import (Check, SpecFormula, explain_check, fairness_fallback, forward_check, gen_constants_cfg,
                         reverse_check, scoped_overrides)
from .result import Evidence, GradeResult
from .tlc_reason import tlc_reason
from ..vocabulary import Side, Stage

#: TLC/SANY launches one output may cost in extended mode (SANY included) when its first constant
#: mapping (identical names first) is the one: SANY, one dump, and the two checks of up to two matches.
MAX_LAUNCHES = 6
#: Constant mappings whose state graph is dumped at most. Each further mapping costs one dump, most
#: of which fail fast (a set constant given a number); every bijection is tried up to this many, so
#: three constants declared in another order are still matched.
MAX_GRAPH_RUNS = 120
#: Confirming TLC checks per output (forward and reverse, for at most two graph matches).
MAX_CONFIRMS = 4
#: Reachable states of R above which its graph is not dumped (the paper search runs instead): a dump
#: and its Python match grow with the graph, while the paper search's TLC checks do not dump.
MAX_GRAPH_STATES = 20_000
#: Sections of R's cfg that a graph dump of G cannot reproduce without a variable mapping: they cut
#: the state space, so G's full graph may be infinite.
_NEEDS_MAPPING = ("CONSTRAINT", "ACTION_CONSTRAINT")
#: Sections dropped for a graph dump: the dump is about reachable states, not about properties; and
#: both graphs are dumped whole, without SYMMETRY or VIEW reduction, so that they compare exactly
#: (the confirming TLC checks still run with R's SYMMETRY and VIEW).
_NOT_FOR_DUMP = (*CHECK_ONLY_KINDS, "SYMMETRY")

Verdict = Callable[[bool, "str | None"], GradeResult]


@dataclass(frozen=True)
class ExtendedInputs:
    """What the search needs, as :func:`~.behavior.grade_behavior` has prepared it."""

    condition: Condition
    gen_spec: SpecFiles  # G as staged, without wrappers
    staged: SpecFiles  # G plus the renamed copy of R
    gen_module: str
    formula: SpecFormula
    ref_module: str
    ref_decl: Declared
    gen_decl: Declared
    ref_cfg: Cfg
    prefix: str
    labels: tuple[str, ...] = ()  # R's control-label variables (appendix I)
    bindings: Bindings = Bindings()  # values R's cfg binds through R's definitions (``Node <- N1``)
    ref_formula: SpecFormula | None = None  # R's spec formula (for its safety part, see ``fairness_fallback``)


def fallback_reason(ref_cfg: Cfg) -> str | None:
    """Why extended mode cannot run on this reference (then the paper search runs), or None."""
    used = [k for k in _NEEDS_MAPPING if ref_cfg.without(k) != ref_cfg]
    return f"the reference's cfg uses {', '.join(used)}" if used else None


def run_limit(timeout: float, deadline: float) -> float:
    """The time limit of the next TLC run of a search: ``timeout``, or what is left before ``deadline``
    (at least a second)."""
    return min(timeout, max(1.0, deadline - time.perf_counter()))


def reference_dump_spec(condition: Condition, ref_cfg: Cfg) -> SpecFiles:
    """R with the cfg its graph is dumped under: no checks, no SYMMETRY (every state, comparable)."""
    return SpecFiles(condition.main, dict(condition.module_map), render_cfg(ref_cfg.without(*_NOT_FOR_DUMP)))


def reference_graph(tools: TlaTools, condition: Condition, ref_cfg: Cfg,
                    timeout: float) -> tuple[StateGraph | None, str | None]:
    """R's reachable state graph (the same spec text for every output, so the run cache keeps it).

    A plain run first counts R's states, so a reference over :data:`MAX_GRAPH_STATES` is never dumped.
    The check that verified R with its cfg counted them already where that cfg has no SYMMETRY or
    VIEW (which the dump leaves out, so they change the count): its cached verdict serves, when it passed.
    """
    spec = reference_dump_spec(condition, ref_cfg)
    # A reference that ran past the limit once will again: later outputs fall back at once instead
    # of each paying the full limit (remembered per reference, toolchain and limit; a longer limit retries).
    memo = content_key("reference-timeout", jar=tools.toolchain.identity, main=spec.main,
                       files=files_digest(spec.modules), cfg=spec.cfg)
    remembered = tools.cache.get(memo)
    limit = remembered.get("timeout") if remembered is not None else None
    # A damaged memo of any shape is a miss (the reference runs again).
    if isinstance(limit, (int, float)) and not isinstance(limit, bool) and limit >= timeout:
        note_remembered(tools, "timeout")  # the machine's limit decides this fallback as if TLC had met it again
        return None, f"the reference ran past the {limit:g} s limit ({(remembered or {}).get('what', 'TLC run')}; remembered)"
    over = _over_by_reduced_count(tools, condition, ref_cfg, timeout)
    if over is not None:
        return None, over
    counted = _counted(tools, condition, ref_cfg, spec, timeout)
    if counted.status == "timeout":
        tools.cache.put(memo, {"timeout": timeout, "what": "TLC run"})
    if not counted.ok:
        return None, f"the reference does not finish TLC ({counted.status})"
    if counted.distinct_states is not None and counted.distinct_states > MAX_GRAPH_STATES:
        return None, (f"the reference has {counted.distinct_states} distinct states, over the graph limit "
                      f"of {MAX_GRAPH_STATES}")
    result, graph = tools.state_graph(spec, deadlock=False, timeout=timeout)
    if result.status == "timeout":
        tools.cache.put(memo, {"timeout": timeout, "what": "graph dump"})
    if not result.ok or graph is None:
        return None, f"the reference's state graph could not be dumped ({result.status})"
    return graph, None


def _over_by_reduced_count(tools: TlaTools, condition: Condition, ref_cfg: Cfg, timeout: float) -> str | None:
    """Why R is over :data:`MAX_GRAPH_STATES`, read off its check with its own cfg where that cfg has a
    SYMMETRY or a VIEW; None where that check does not show it (the count without them decides).

    Under a SYMMETRY TLC counts one state per orbit, under a VIEW one per view, never more than R's
    reachable states (for a SYMMETRY the spec respects, as a reference's does), so a count over the
    limit proves R's own is. The check is the one that verified R (cached) or costs what verifying R
    costs; counting R's states without the reduction costs up to the group's size more (Detlefs:
    6,278,137 states, 190–300 s, against 952,912 under its SYMMETRY, 46 s), and how far such a count got
    before the time limit would make the reason depend on the machine."""
    reduction = "SYMMETRY" if ref_cfg.symmetry else "VIEW" if ref_cfg.view else None
    if reduction is None or condition.cfg is None:
        return None
    spec = condition.spec()
    checked = tools.cached_check(spec, timeout=timeout) or tools.tlc(spec, timeout=timeout)
    if not checked.ok or checked.distinct_states is None or checked.distinct_states <= MAX_GRAPH_STATES:
        return None
    return (f"the reference has more than {MAX_GRAPH_STATES} distinct states ({checked.distinct_states} under "
            f"its cfg's {reduction}), over the graph limit of {MAX_GRAPH_STATES}")


def _counted(tools: TlaTools, condition: Condition, ref_cfg: Cfg, spec: SpecFiles, timeout: float) -> TlcResult:
    """R's run that counts its states (``spec``: R as dumped): the cached check that verified R with its
    cfg where that passed and the cfg has no SYMMETRY or VIEW (without the cfg's checks, and with
    deadlocks allowed, TLC explores the same states), else a plain run of ``spec``."""
    verified = (tools.cached_check(condition.spec(), timeout=timeout)
                if condition.cfg is not None and not (ref_cfg.symmetry or ref_cfg.view) else None)
    return verified if verified is not None and verified.ok else tools.tlc(spec, deadlock=False, timeout=timeout)


def reference_seconds(tools: TlaTools, condition: Condition, ref_cfg: Cfg, timeout: float) -> float:
    """How long R's run that counted its states took (after :func:`reference_graph`: no new run)."""
    return _counted(tools, condition, ref_cfg, reference_dump_spec(condition, ref_cfg), timeout).seconds


def _derived_constants(inputs: ExtendedInputs) -> tuple[str, ...]:
    """R's constants that G does not declare but defines as an operator without parameters."""
    ref, gen = inputs.ref_decl, inputs.gen_decl
    if len(gen.constants) >= len(ref.constants):
        return ()
    syntax = parse_module(inputs.gen_spec.modules[inputs.gen_spec.main], inputs.gen_spec.main)
    defined = {d.name for d in syntax.definitions
               if d.scope == "module" and d.kind == "operator" and not d.parameters}
    return tuple(c for c in ref.constants if c not in gen.constants and c in defined)


def _constant_mappings(inputs: ExtendedInputs, derived: tuple[str, ...]) -> tuple[list[tuple[tuple[str, str], ...]], str | None]:
    """Candidate constant mappings (R → G), identical names first, or why there are none."""
    ref = [c for c in inputs.ref_decl.constants if c not in derived]
    gen = list(inputs.gen_decl.constants)
    if len(ref) != len(gen):
        return [], (f"output declares {len(gen)} constant(s) the reference's {len(ref)} can map to "
                    f"(constants it defines instead: {', '.join(derived) or 'none'}): no one-to-one mapping")
    ranked = ranked_bijections(tuple(ref), tuple(gen))
    if ranked and all(r == g for r, g in ranked[0]):
        return ranked[:1], None  # the output kept the names: a permutation would hide a swap, not read it
    return ranked[:MAX_GRAPH_RUNS], None


Constants = tuple[tuple[str, str], ...]


def _dump_failure(result: Any, timeout: float) -> str:
    if result.ok:
        return "the dump is larger than the graph limit"
    return tlc_reason(result, CfgBinding(""), timeout) or result.status


def output_graph(tools: TlaTools, inputs: ExtendedInputs,
                 timeout: float) -> tuple[StateGraph | None, Constants, str | None]:
    """G's reachable state graph under the closest constant mapping, that mapping, and why not."""
    derived = _derived_constants(inputs)
    options, why = _constant_mappings(inputs, derived)
    if not options:
        return None, (), why
    result, graph = tools.state_graph(gen_graph_spec(inputs, options[0], derived), deadlock=False, timeout=timeout)
    if not result.ok or graph is None:
        return None, options[0], f"the output's state graph could not be dumped: {_dump_failure(result, timeout)}"
    return graph, options[0], None


def label_counterparts(ref_graph: StateGraph, gen_graph: StateGraph, labels: tuple[str, ...]) -> str | None:
    """Why G's graph mismatch is real when G keeps R's control structure: for each label variable,
    a G variable with the same shape of values and as many distinct label strings (then a label
    bijection would have matched the graphs, had they been equal). None when some label variable
    has no such counterpart: G's control differs, and the data variables decide."""
    def signature(graph: StateGraph, variable: str) -> tuple[object, ...]:
        values = {state[variable] for state in graph.states.values()}
        strings = {a for v in values for a in atoms(v) if isinstance(a, str)}
        return tuple(sorted({value_shape(v) for v in values})), len(strings)

    found = []
    for label in labels:
        wanted = signature(ref_graph, label)
        partners = [g for g in gen_graph.variables if signature(gen_graph, g) == wanted]
        if not partners:
            return None
        found.append(f"{label} as {partners[0]}")
    return (f"the output keeps the reference's control structure ({', '.join(found)}), "
            "so the state graphs must match")


def on_data_variables(inputs: ExtendedInputs, ref_graph: StateGraph, gen_graph: StateGraph, constants: Constants,
                      failure: str, details: Evidence) -> tuple[bool, str | None]:
    """Appendix I's last resort for a reference with control-label variables: the two graphs projected
    on R's data variables (and the output variables taking the same values) must accept the same
    sequences of observable states. Returns the verdict and, on failure, ``failure`` with why."""
    ref_data = [v for v in inputs.ref_decl.variables if v not in inputs.labels]
    tried: list[dict[str, Any]] = []
    details["data_variables"] = {"labels": list(inputs.labels), "tried": tried}
    if not ref_data:
        # Projected on no variable, every behavior is the same: a comparison that cannot fail proves nothing.
        details["data_variables"]["inconclusive"] = "the reference has no data variables"
        details["side"] = Side.GRADER
        return False, (f"{failure}; the data-variable comparison is inconclusive: the reference's only variables "
                       f"are control labels ({', '.join(inputs.labels)}), so nothing is left to compare "
                       "(grader's limit, not a verdict on the output's behavior)")
    first: str | None = None
    for choice in data_mappings(ref_graph, gen_graph, ref_data):
        outcome = trace_equivalent(ref_graph, gen_graph, ref_data, choice)
        tried.append({"mapping": dict(zip(ref_data, choice)), "equivalent": outcome.equivalent,
                      "pairs": outcome.pairs})
        if outcome.equivalent:
            details.update({"stage": Stage.DATA_VARIABLES, "mapping": {"variables": dict(zip(ref_data, choice)),
                                                            "constants": dict(constants)}})
            return True, None
        first = first or outcome.reason
    why = first or "no output variables take the values of the reference's data variables " + ", ".join(ref_data)
    return False, f"{failure}; compared on the data variables (control labels {', '.join(inputs.labels)} left out): {why}"


def gen_graph_spec(inputs: ExtendedInputs, constants: tuple[tuple[str, str], ...],
                   derived: tuple[str, ...]) -> SpecFiles:
    """G with the cfg its graph is dumped under: R's constant values given to G's names by ``constants``."""
    formula = inputs.formula
    cfg = gen_constants_cfg(bound_cfg(inputs.ref_cfg, inputs.bindings, inputs.prefix), NameMapping((), constants),
                            derived)
    cfg = cfg.with_specification(formula.name) if formula.name is not None else cfg.with_init_next(formula.init,
                                                                                                    formula.next)
    main, modules = inputs.gen_spec.main, dict(inputs.gen_spec.modules)
    bindings, prefix = inputs.bindings, inputs.prefix
    # The wrapper's own constants (for model values) are declared constants too, not overrides.
    declared = (*(g for _, g in constants), *fresh_names(prefix, bindings.fresh).values())
    cfg = scoped_overrides(with_model_values(cfg, prefix, bindings.fresh), modules, declared, top=main)
    if bindings.values or bindings.operators:  # the bound values live in a wrapper that adds no variable
        extends = main + (", TLC" if bindings.needs_tlc else "")
        wrapper = f"{inputs.prefix}Dump_{main}"
        lines = [*model_value_declaration(prefix, bindings.fresh), *bindings.definitions(prefix, dict(constants))]
        if bindings.operators:  # R's operators, through an instance of R that reads no variable
            modules[inputs.ref_module] = inputs.staged.modules[inputs.ref_module]
            lines += [_constants_instance(inputs, constants, derived, f"{inputs.prefix}BindRef"),
                      *bindings.operator_definitions(inputs.prefix, f"{inputs.prefix}BindRef")]
        modules[wrapper] = f"---- MODULE {wrapper} ----\nEXTENDS {extends}\n" + "\n".join(lines) + "\n====\n"
        main = wrapper
    return SpecFiles(main, modules, render_cfg(cfg))


def _constants_instance(inputs: ExtendedInputs, constants: Constants, derived: tuple[str, ...], name: str) -> str:
    """An INSTANCE of R (its renamed copy) with R's constants as G's under ``constants`` (``derived``
    ones by G's definitions of the same name) and R's variables as ``TRUE``: a dump has no variable
    mapping yet, and the operators a cfg binds constants to are constant-level, so never read them."""
    subs = {**{c: c for c in derived}, **dict(constants), **{v: "TRUE" for v in inputs.ref_decl.variables}}
    pairs = ", ".join(f"{r} <- {g}" for r, g in subs.items())
    return f"{name} == INSTANCE {inputs.ref_module}" + (f" WITH {pairs}" if pairs else "")


def _checks(inputs: ExtendedInputs, match: GraphMatch, constants: tuple[tuple[str, str], ...],
            derived: tuple[str, ...], *, ref_safety: bool = False, fairness: bool = True) -> tuple[Check, Check] | str:
    """The forward and reverse checks under ``match``, or why its encodings cannot be written.
    ``ref_safety``: the forward check takes R's safety part only; ``fairness``: the reverse check
    tests G's fairness too (see :func:`.refinement.fairness_fallback`)."""
    bound = f"{inputs.prefix}V"
    forward_subs: dict[str, str] = {}
    reverse_subs: dict[str, str] = {}
    # Model values in the encoded values (a function over a set of them) are named by the wrappers' own
    # constants, which their cfgs bind to them.
    model_values = encoded_model_values(match.encodings)
    names = fresh_names(inputs.prefix, model_values)
    for enc in match.encodings:
        fwd, rev = forward_expression(enc, bound, names), reverse_expression(enc, bound, names)
        if fwd is None or rev is None:
            return f"the encoding {describe(enc)} cannot be written as a TLA+ expression"
        forward_subs[enc.ref_var] = fwd
        reverse_subs[enc.gen_var] = rev
    for r, g in constants:
        forward_subs[r] = g
        reverse_subs[g] = r
    for c in derived:
        forward_subs[c] = c  # G's definition of the same name stands for R's constant
    mapping = NameMapping(match.variables, constants)
    forward = forward_check(inputs.staged, inputs.formula, inputs.ref_module, inputs.ref_decl, inputs.ref_cfg,
                            mapping, inputs.prefix, substitutions=forward_subs, derived=derived,
                            bindings=inputs.bindings, ref_safety=inputs.ref_formula if ref_safety else None,
                            model_values=model_values)
    reverse = reverse_check(inputs.staged, inputs.gen_module, inputs.formula, inputs.ref_module, inputs.ref_decl,
                            inputs.ref_cfg, mapping, inputs.prefix, substitutions=reverse_subs, fairness=fairness,
                            model_values=model_values)
    return forward, reverse


def _mapping_words(match: GraphMatch, constants: tuple[tuple[str, str], ...]) -> str:
    text = NameMapping(match.variables, constants).describe()
    encoded = match.encoded()
    if encoded:
        text += " with encodings " + "; ".join(describe(e) for e in encoded)
    return text


def extended_search(tools: TlaTools, inputs: ExtendedInputs, ref_graph: StateGraph, timeout: float,
                    deadline: float, details: Evidence, verdict: Verdict) -> GradeResult:
    """Find mappings on the state graphs, then confirm the best with the forward and reverse checks.

    Each constant mapping in turn (identical names first): dump G's graph under it, match it with R's
    (:func:`.graphmatch.match_graphs`), and confirm each match with TLC; the first confirmed match
    passes. At most :data:`MAX_CONFIRMS` confirming checks, none past ``deadline``."""
    start_launches = sum(tools.launches.values())

    def done(passed: bool, reason: str | None) -> GradeResult:
        details["launches_after_sany"] = sum(tools.launches.values()) - start_launches
        return verdict(passed, reason)

    details["graphs"] = {"reference": _sizes(ref_graph)}
    if len(inputs.ref_decl.variables) != len(inputs.gen_decl.variables):
        return done(*_other_variable_count(tools, inputs, ref_graph, run_limit(timeout, deadline), details))
    derived = _derived_constants(inputs)
    if derived:
        details["derived_constants"] = list(derived)
    constant_options, why = _constant_mappings(inputs, derived)
    if not constant_options:
        details["stage"] = Stage.MAPPING
        return done(False, why or "no constant mapping")
    search = _GraphSearch(tools, inputs, ref_graph, derived, timeout, deadline, details)
    for constants in constant_options:
        if not search.may_confirm():
            break
        gen_graph = search.dump(constants)
        if gen_graph is None:
            if search.timed_out:
                break  # another constant mapping would only run out of time again
            continue
        if search.match_and_confirm(constants, gen_graph):
            return done(True, None)
    return done(*search.failed(math.factorial(len(constant_options[0]))))


def _other_variable_count(tools: TlaTools, inputs: ExtendedInputs, ref_graph: StateGraph, limit: float,
                          details: Evidence) -> tuple[bool, str | None]:
    """The verdict on G with another number of variables than R: no one-to-one mapping, unless R has
    control labels, which may take other variables in G (or none): then only the data variables must match."""
    details["stage"] = Stage.MAPPING
    reason = (f"output declares {len(inputs.gen_decl.variables)} variable(s), the reference "
              f"{len(inputs.ref_decl.variables)}: no one-to-one mapping")
    if not inputs.labels:
        return False, reason
    gen_graph, constants, why = output_graph(tools, inputs, limit)
    if gen_graph is None:
        return False, f"{reason}; not compared on the data variables: {why}"
    return on_data_variables(inputs, ref_graph, gen_graph, constants, reason, details)


class _GraphSearch:
    """What :func:`extended_search` has learnt so far: the attempts (one per constant mapping whose graph
    was dumped or tried), the first failure, the first graph of G, and the confirming checks run."""

    def __init__(self, tools: TlaTools, inputs: ExtendedInputs, ref_graph: StateGraph, derived: tuple[str, ...],
                 timeout: float, deadline: float, details: Evidence) -> None:
        self.tools, self.inputs, self.ref_graph, self.derived = tools, inputs, ref_graph, derived
        self.timeout, self.deadline, self.details = timeout, deadline, details
        self.attempts: list[dict[str, Any]] = []
        details["attempts"] = self.attempts
        self.first_failure: str | None = None
        self.first_graph: tuple[Constants, StateGraph] | None = None
        self.matched = False  # some graph match was confirmed by TLC or refuted by it
        self.dump_failures: list[str] = []
        self.confirms = 0  # confirming checks run (dumps are bounded by MAX_GRAPH_RUNS and the deadline)
        self.timed_out = False  # a dump of G ran out of time

    def may_confirm(self) -> bool:
        """Whether two more confirming checks fit the launch budget and the deadline."""
        return not (self.confirms + 2 > MAX_CONFIRMS or time.perf_counter() > self.deadline)

    def dump(self, constants: Constants) -> StateGraph | None:
        """G's graph under ``constants`` (a new attempt), or None where it could not be dumped."""
        attempt: dict[str, Any] = {"constants": dict(constants)}
        self.attempts.append(attempt)
        self.details["stage"] = Stage.GRAPH
        result, gen_graph = self.tools.state_graph(gen_graph_spec(self.inputs, constants, self.derived),
                                                   deadlock=False, timeout=run_limit(self.timeout, self.deadline))
        attempt["graph"] = result.status
        if not result.ok or gen_graph is None:
            # A wrong constant mapping usually fails here (a type error): only the first one tried,
            # the closest reading, explains the output.
            self.dump_failures.append(f"the output's state graph could not be dumped under constants "
                                      f"{_pairs_words(constants)}: {_dump_failure(result, self.timeout)}")
            self.timed_out = result.status == "timeout"
            return None
        self.details["graphs"]["output"] = _sizes(gen_graph)
        self.first_graph = self.first_graph or (constants, gen_graph)
        return gen_graph

    def match_and_confirm(self, constants: Constants, gen_graph: StateGraph) -> bool:
        """Whether a match of the graphs under ``constants`` passes TLC's checks (then recorded as the
        grade's mapping); the failures are kept for the reason."""
        attempt, inputs = self.attempts[-1], self.inputs
        outcome = match_graphs(self.ref_graph, gen_graph, fixed=model_strings(inputs.ref_cfg, inputs.bindings))
        attempt["graph_candidates"] = outcome.candidates
        self.matched = self.matched or bool(outcome.matches)
        if not outcome.matches:
            attempt["reason"] = outcome.why
            if self.first_failure is None:
                self.first_failure = f"state graphs differ: {outcome.why}" + _witness(self.ref_graph, gen_graph, inputs)
            return False
        for match in outcome.matches:
            if not self.may_confirm():
                break
            self.confirms += 2
            passed, reason = _confirm(self.tools, inputs, match, constants, self.derived, self.timeout, self.deadline,
                                      attempt)
            if passed:
                encodings = [_encoding_dict(e) for e in match.encoded()]
                self.details.update({"stage": Stage.TLC, "mapping": {**NameMapping(match.variables, constants).to_dict(),
                                                                  "encodings": encodings}, "encodings": encodings})
                if attempt.get("fairness_unchecked"):  # a fairness TLC cannot evaluate as a property
                    self.details["fairness_unchecked"] = attempt["fairness_unchecked"]
                return True
            self.first_failure = self.first_failure or reason
        return False

    def failed(self, total: int) -> tuple[bool, str | None]:
        """The verdict when no match was confirmed (``total``: the constant mappings there are)."""
        details, attempts, inputs = self.details, self.attempts, self.inputs
        details["stage"] = Stage.TLC if any("forward" in a for a in attempts) else Stage.GRAPH
        details["constant_mappings"] = {"tried": len(attempts), "total": total}
        reason = self.first_failure or (self.dump_failures[0] if self.dump_failures else None) or \
            "no mapping could be tried within the launch budget"
        if len(attempts) > 1 and self.first_failure is not None:
            reason += f" ({len(attempts)} constant mappings tried)"
        # The data-variable comparison is for control steps the graphs cannot pair. Where the graphs did
        # match, TLC's verdict on that match (a liveness property, an invariant) stands.
        if not (inputs.labels and self.first_graph is not None and not self.matched):
            return False, reason
        constants, gen_graph = self.first_graph
        counterpart = label_counterparts(self.ref_graph, gen_graph, inputs.labels)
        if counterpart:
            details["data_variables"] = {"labels": list(inputs.labels), "skipped": counterpart}
            return False, f"{reason}; not compared on the data variables: {counterpart}"
        return on_data_variables(inputs, self.ref_graph, gen_graph, constants, reason, details)


def _confirm(tools: TlaTools, inputs: ExtendedInputs, match: GraphMatch, constants: tuple[tuple[str, str], ...],
             derived: tuple[str, ...], timeout: float, deadline: float,
             attempt: dict[str, Any]) -> tuple[bool, str | None]:
    """Run the forward then the reverse check under ``match``; the failure's reason if one fails."""
    words = _mapping_words(match, constants)
    attempt["mapping"] = words
    checks = _checks(inputs, match, constants, derived)
    if isinstance(checks, str):
        attempt["side"] = Side.GRADER
        return False, checks
    for check in checks:
        left = run_limit(timeout, deadline)
        result = tools.tlc(check.spec, timeout=left, deadlock=False)
        fallback = fairness_fallback(check.direction, result, inputs.ref_formula, inputs.formula, True)
        if fallback is not None:  # TLC cannot evaluate the fairness as a property: its safety part instead
            attempt.setdefault("fairness_unchecked", []).append(fallback)
            again = _checks(inputs, match, constants, derived, ref_safety=check.direction == "forward",
                            fairness=check.direction != "reverse")
            assert not isinstance(again, str)  # the same encodings were written a moment ago
            check = again[0] if check.direction == "forward" else again[1]
            result = tools.tlc(check.spec, timeout=left, deadlock=False)
        attempt[check.direction] = result.status
        if not result.ok:
            reason = f"{check.direction} check failed under mapping {words}: {explain_check(result, check, left)}"
            attempt["reason"] = reason
            return False, reason
    return True, None


def _witness(ref_graph: StateGraph, gen_graph: StateGraph, inputs: ExtendedInputs) -> str:
    """A shortest behavior one spec has and the other cannot take, read with identical variable
    names (the closest mapping), as ``; e.g. …``; empty when the names differ or none is found."""
    variables = list(inputs.ref_decl.variables)
    if not variables or any(v not in gen_graph.variables for v in variables):
        return ""
    outcome = trace_equivalent(ref_graph, gen_graph, variables, variables)
    if outcome.equivalent or not outcome.reason:
        return ""
    return "; e.g. " + outcome.reason.replace("on the data variables, ", "", 1)


def _pairs_words(constants: Constants) -> str:
    return "{" + ", ".join(f"{r}->{g}" for r, g in constants) + "}"


def _sizes(graph: StateGraph) -> dict[str, int]:
    return {"states": len(graph.states), "initial": len(graph.initial),
            "steps": sum(1 for a, b in graph.edges if a != b)}


def _encoding_dict(enc: Any) -> dict[str, Any]:
    return {"reference": enc.ref_var, "output": enc.gen_var, "description": describe(enc)}
