"""Tests for pytest_alias.tla.syntax: hand-written modules with exact spans, plus
sanity properties over the tlaplus/Examples corpus (skipped when absent)."""

from __future__ import annotations

import collections
import time
from pathlib import Path
from typing import Iterator, Optional

import pytest

from pytest_alias.tla.syntax import (
    PLUSCAL_KEYWORDS,
    PROOF_LIBRARY_MODULES,
    STANDARD_MODULES,
    STANDARD_NAMES,
    STANDARD_OPERATORS,
    TLA_KEYWORDS,
    ModuleSyntax,
    Occurrence,
    is_identifier,
    parse_module,
    parse_modules,
    pluscal_block,
    split_modules,
)

from conftest import CORPUS  # noqa: E402  (the repo's root conftest: ../shared/corpus/tlaplus-examples)


# ---- helpers ---------------------------------------------------------------


def span_of(src: str, needle: str, nth: int = 0, sub: Optional[str] = None) -> tuple[int, int]:
    """Byte span of the ``nth`` ``needle`` in ``src`` (or of ``sub`` inside it)."""
    data = src.encode()
    pos = -1
    for _ in range(nth + 1):
        pos = data.index(needle.encode(), pos + 1)
    if sub is not None:
        pos += needle.encode().index(sub.encode())
        return pos, pos + len(sub.encode())
    return pos, pos + len(needle.encode())


def at(mod: ModuleSyntax, span: tuple[int, int]) -> Occurrence:
    """The occurrence with exactly ``span``."""
    hits = [o for o in mod.occurrences if o.span == span]
    assert len(hits) == 1, (span, [o for o in mod.occurrences if o.span[0] == span[0]])
    return hits[0]


def check_invariants(mod: ModuleSyntax, data: bytes) -> None:
    """Properties that hold for any input, broken or not."""
    spans = [o.span for o in mod.occurrences]
    assert spans == sorted(spans)
    assert len(set(spans)) == len(spans)
    for o in mod.occurrences:
        assert data[o.start : o.end].decode() == o.text
        assert o.text not in TLA_KEYWORDS
        if o.target is not None:
            assert o.role == "reference"
            assert o.target.role in ("define", "bind", "label")
            assert o.target.text == o.text


# ---- module-level facts ----------------------------------------------------

BASIC = """\
---------------- MODULE Basic ----------------
EXTENDS Naturals, Sequences
CONSTANTS N, F(_), _ ** _
VARIABLES x, y
vars == <<x, y>>
LOCAL Helper(a, Op(_, _)) == Op(a, N)
f[i \\in 1..N] == IF i = 1 THEN 1 ELSE f[i - 1] * 2
Init == x = 0 /\\ y = <<>>
Next == x' = x + 1 /\\ y' = Append(y, F(x))
Spec == Init /\\ [][Next]_vars
THEOREM Safe == Spec => []TRUE
ASSUME Pos == N > 0
==============================================
"""


def test_module_level_facts() -> None:
    mod = parse_module(BASIC)
    assert mod.name == "Basic" and mod.complete and not mod.has_errors
    assert mod.name_span == span_of(BASIC, "Basic")
    assert mod.extends == ("Naturals", "Sequences")
    assert [(c.name, c.arity) for c in mod.constants] == [("N", 0), ("F", 1), ("**", 2)]
    assert [v.name for v in mod.variables] == ["x", "y"]
    assert mod.variables[0].span == span_of(BASIC, "VARIABLES x", sub="x")
    assert (mod.variables[0].line, mod.variables[0].column) == (4, 11)
    kinds = [(d.name, d.kind, d.parameters, d.is_local) for d in mod.definitions]
    assert kinds == [
        ("vars", "operator", (), False),
        ("Helper", "operator", ("a", "Op"), True),
        ("f", "function", ("i",), False),
        ("Init", "operator", (), False),
        ("Next", "operator", (), False),
        ("Spec", "operator", (), False),
        ("Safe", "theorem", (), False),
        ("Pos", "assumption", (), False),
    ]
    assert mod.defined_names >= {"N", "F", "x", "y", "vars", "Helper", "Safe"}
    assert "Helper" not in mod.exported_names
    check_invariants(mod, BASIC.encode())


def test_roles_and_resolution() -> None:
    mod = parse_module(BASIC)
    x_decl = at(mod, span_of(BASIC, "VARIABLES x", sub="x"))
    assert (x_decl.role, x_decl.context) == ("define", "variable")
    # module-level uses resolve to the declaration
    x_use = at(mod, span_of(BASIC, "<<x, y>>", sub="x"))
    assert x_use.role == "reference" and x_use.target is x_decl
    assert x_use.owner == "vars"
    # operator parameters are bound, including operator parameters Op(_, _)
    a_param = at(mod, span_of(BASIC, "Helper(a", sub="a"))
    op_param = at(mod, span_of(BASIC, "Op(_, _)", sub="Op"))
    assert (a_param.role, a_param.context) == ("bind", "parameter")
    assert op_param.role == "bind"
    assert at(mod, span_of(BASIC, "Op(a, N)", sub="Op")).target is op_param
    assert at(mod, span_of(BASIC, "Op(a, N)", sub="a")).target is a_param
    assert at(mod, span_of(BASIC, "Op(a, N)", sub="N")).target.context == "constant"
    # function definition: the name is defined, the bound variable is bound
    f_def = at(mod, span_of(BASIC, "f[i", sub="f"))
    i_bind = at(mod, span_of(BASIC, "f[i", sub="i"))
    assert (f_def.role, i_bind.role, i_bind.context) == ("define", "bind", "function_parameter")
    assert at(mod, span_of(BASIC, "f[i - 1]", sub="f")).target is f_def
    assert at(mod, span_of(BASIC, "f[i - 1]", sub="i")).target is i_bind
    # standard-library names resolve to nothing
    append = at(mod, span_of(BASIC, "Append"))
    assert append.role == "reference" and append.target is None
    assert append in mod.unresolved_references()
    # module names
    assert at(mod, span_of(BASIC, "Sequences")).role == "module"
    assert at(mod, span_of(BASIC, "Sequences")).context == "extends"
    # theorem and assumption names are definition sites
    assert at(mod, span_of(BASIC, "Safe")).role == "define"
    assert at(mod, span_of(BASIC, "Pos")).context == "assumption"
    # references_to finds every use
    assert len(mod.references_to(x_decl)) == 5


def test_primes_are_references_to_the_variable() -> None:
    mod = parse_module(BASIC)
    x_prime = at(mod, span_of(BASIC, "x' = x", sub="x"))
    assert x_prime.text == "x" and x_prime.context == "prime"
    assert x_prime.target.context == "variable"
    assert at(mod, span_of(BASIC, "y' =", sub="y")).context == "prime"


# ---- scoping ---------------------------------------------------------------

SCOPES = """\
---- MODULE Scopes ----
CONSTANT S
y == 2
A == \\A y \\in S : \\E z, w \\in S : y = z /\\ w = y
B == y + 1
C == {y \\in S : y > 1} \\cup {y + 1 : y \\in S} \\cup {<<a, b>> : a \\in S, b \\in S}
D == CHOOSE y \\in S : y = y
E == [y \\in S |-> y] = [p, q \\in S |-> p]
G == \\E <<u, v>> \\in S \\X S : u = v
H(Op(_)) == Op(1)
I == H(LAMBDA y : y + 1)
J == \\EE y : y = y
====
"""


def test_bound_names_shadow_module_names() -> None:
    mod = parse_module(SCOPES)
    y_def = at(mod, span_of(SCOPES, "y == 2", sub="y"))
    assert y_def.role == "define"
    # \A y : the bound y, not the module-level y
    y_bind = at(mod, span_of(SCOPES, "\\A y", sub="y"))
    assert (y_bind.role, y_bind.context) == ("bind", "quantifier")
    assert at(mod, span_of(SCOPES, "y = z", sub="y")).target is y_bind
    assert at(mod, span_of(SCOPES, "w = y", sub="y")).target is y_bind
    z_bind = at(mod, span_of(SCOPES, "\\E z", sub="z"))
    assert at(mod, span_of(SCOPES, "y = z", sub="z")).target is z_bind
    # ... while a plain use outside binders goes to the definition
    assert at(mod, span_of(SCOPES, "B == y", sub="y")).target is y_def
    # set filter, set map (the binder comes after the use), tuples
    filt = at(mod, span_of(SCOPES, "{y \\in S :", sub="y"))
    assert filt.context == "set_filter"
    assert at(mod, span_of(SCOPES, "y > 1", sub="y")).target is filt
    mapped = at(mod, span_of(SCOPES, ": y \\in S}", sub="y"))
    assert mapped.context == "set_map"
    assert at(mod, span_of(SCOPES, "{y + 1", sub="y")).target is mapped
    a_bind = at(mod, span_of(SCOPES, ": a \\in S", sub="a"))
    assert at(mod, span_of(SCOPES, "<<a, b>> :", sub="a")).target is a_bind
    # CHOOSE, function literals, tuple binders, LAMBDA, temporal \EE
    ch = at(mod, span_of(SCOPES, "CHOOSE y", sub="y"))
    assert ch.context == "choose"
    assert at(mod, span_of(SCOPES, ": y = y", sub="y")).target is ch
    fl = at(mod, span_of(SCOPES, "[y \\in S |->", sub="y"))
    assert fl.context == "function_literal"
    assert at(mod, span_of(SCOPES, "|-> y]", sub="y")).target is fl
    u_bind = at(mod, span_of(SCOPES, "<<u, v>>", sub="u"))
    assert at(mod, span_of(SCOPES, "u = v", sub="u")).target is u_bind
    lam = at(mod, span_of(SCOPES, "LAMBDA y", sub="y"))
    assert lam.context == "lambda"
    assert at(mod, span_of(SCOPES, "y + 1)", sub="y")).target is lam
    ee = at(mod, span_of(SCOPES, "\\EE y", sub="y"))
    assert at(mod, span_of(SCOPES, "\\EE y : y", sub="y", nth=0)).role == "bind"
    assert at(mod, span_of(SCOPES, "y = y\n====", sub="y")).target is ee
    # no bound name leaks to module level
    assert {o.target.text for o in mod.occurrences if o.owner == "B" and o.target} == {"y"}
    check_invariants(mod, SCOPES.encode())


LET_REC = """\
---- MODULE LetRec ----
EXTENDS Naturals
RECURSIVE Fact(_)
Fact(n) == IF n = 0 THEN 1 ELSE n * Fact(n - 1)
Sum(s) == LET RECURSIVE Go(_)
              Go(k) == IF k = 0 THEN 0 ELSE s[k] + Go(k - 1)
              len == 3
              g[i \\in 1..len] == i
          IN Go(len) + g[1]
Other == LET len == 4 IN len
====
"""


def test_let_and_recursive() -> None:
    mod = parse_module(LET_REC)
    rec_decl = at(mod, span_of(LET_REC, "RECURSIVE Fact", sub="Fact"))
    fact_def = at(mod, span_of(LET_REC, "Fact(n)", sub="Fact"))
    assert (rec_decl.role, rec_decl.context) == ("define", "recursive")
    assert fact_def.role == "define"
    # the recursive call resolves to the definition, not the declaration
    assert at(mod, span_of(LET_REC, "Fact(n - 1)", sub="Fact")).target is fact_def
    defs = {(d.name, d.scope): d for d in mod.definitions}
    assert defs[("Fact", "module")].is_recursive
    assert not defs[("Sum", "module")].is_recursive
    go = defs[("Go", "let")]
    assert go.is_recursive and go.parameters == ("k",)
    sum_index = mod.definitions.index(defs[("Sum", "module")])
    other_index = mod.definitions.index(defs[("Other", "module")])
    assert go.parent == sum_index and defs[("g", "let")].kind == "function"
    lets = [d for d in mod.definitions if d.name == "len"]
    assert [d.parent for d in lets] == [sum_index, other_index]
    # the two LET 'len' are kept apart
    first_len = at(mod, span_of(LET_REC, "len == 3", sub="len"))
    second_len = at(mod, span_of(LET_REC, "len == 4", sub="len"))
    assert at(mod, span_of(LET_REC, "Go(len)", sub="len")).target is first_len
    assert at(mod, span_of(LET_REC, "IN len", sub="len")).target is second_len
    assert at(mod, span_of(LET_REC, "1..len", sub="len")).target is first_len
    # a LET parameter sees the enclosing operator's parameter
    assert at(mod, span_of(LET_REC, "s[k]", sub="s")).target.context == "parameter"
    # module-level definitions are sorted by position
    assert [d.span for d in mod.definitions] == sorted(d.span for d in mod.definitions)


# ---- subscripts, fairness, instances ----------------------------------------

TEMPORAL = """\
---- MODULE Temporal ----
VARIABLES x, y
vars == <<x, y>>
Next == x' = x
A == [Next]_vars /\\ <<Next>>_vars /\\ [][Next]_<<x, y>>
B == WF_vars(Next) /\\ SF_<<x,y>>(Next) /\\ WF_ vars(Next) /\\ SF_vars(Next)
C == []<>(ENABLED <<Next>>_vars) /\\ UNCHANGED <<x, y>>
====
"""


def test_subscripts_and_fairness() -> None:
    mod = parse_module(TEMPORAL)
    vars_def = at(mod, span_of(TEMPORAL, "vars ==", sub="vars"))
    data = TEMPORAL.encode()
    # every textual 'vars' after the definition is a subscript reference
    starts = [i for i in range(len(data)) if data.startswith(b"vars", i)][1:]
    for start in starts:
        occ = at(mod, (start, start + 4))
        assert occ.role == "reference" and occ.target is vars_def, occ
        assert occ.context == "subscript", occ
    # WF_vars / SF_vars written without a space: vars starts right after WF_
    wf = at(mod, span_of(TEMPORAL, "WF_vars", sub="vars"))
    assert wf.span[0] == span_of(TEMPORAL, "WF_vars")[0] + 3
    sf = at(mod, span_of(TEMPORAL, "SF_vars", sub="vars"))
    assert sf.text == "vars"
    # tuple subscripts
    for needle in ("_<<x, y>>", "SF_<<x,y>>"):
        x = at(mod, span_of(TEMPORAL, needle, sub="x"))
        assert x.context == "subscript" and x.target.context == "variable"
    # Next inside the brackets is an ordinary reference
    next_def = at(mod, span_of(TEMPORAL, "Next ==", sub="Next"))
    assert at(mod, span_of(TEMPORAL, "[Next]_vars", sub="Next")).target is next_def
    assert at(mod, span_of(TEMPORAL, "WF_vars(Next)", sub="Next")).target is next_def
    check_invariants(mod, data)


INST = """\
---- MODULE Inst ----
EXTENDS Naturals
CONSTANT K
VARIABLE x
M == INSTANCE Buffer WITH cap <- K, buf <- x
LOCAL INSTANCE Helpers
P(c) == INSTANCE Buffer WITH cap <- c, buf <- x
Use == M!Put(x) /\\ M!Inner!Get /\\ P(3)!Put(1) /\\ M!Put(x)!1
====
"""


def test_instances_and_paths() -> None:
    mod = parse_module(INST)
    assert [(i.module, i.name, i.is_local, i.parameters) for i in mod.instances] == [
        ("Buffer", "M", False, ()),
        ("Helpers", None, True, ()),
        ("Buffer", "P", False, ("c",)),
    ]
    subs = mod.instances[0].substitutions
    assert [(s.name, s.expression) for s in subs] == [("cap", "K"), ("buf", "x")]
    assert subs[0].span == span_of(INST, "cap <- K", sub="cap")
    assert subs[0].expression_span == span_of(INST, "cap <- K", sub="K")
    # substitution targets are names of the instanced module
    cap = at(mod, subs[0].span)
    assert (cap.role, cap.context, cap.target, cap.foreign_module) == (
        "reference", "substitution", None, "Buffer")
    assert at(mod, subs[0].expression_span).target.context == "constant"
    # the instance definition and the instanced module's name
    m_def = at(mod, span_of(INST, "M ==", sub="M"))
    assert (m_def.role, m_def.context) == ("define", "instance")
    assert mod.definition("M").kind == "instance"
    buffer = at(mod, span_of(INST, "INSTANCE Buffer", sub="Buffer"))
    assert (buffer.role, buffer.context) == ("module", "instance")
    # M!Put(x): M resolves here, Put is reached via M, x is an ordinary use
    m_ref = at(mod, span_of(INST, "M!Put(x)", sub="M"))
    put = at(mod, span_of(INST, "M!Put(x)", sub="Put"))
    assert m_ref.target is m_def and m_ref.via is None
    assert (put.via, put.target, put.foreign_module) == ("M", None, "Buffer")
    assert at(mod, span_of(INST, "M!Put(x)", sub="x")).target.context == "variable"
    # M!Inner!Get: both later names carry the path so far
    inner = at(mod, span_of(INST, "M!Inner!Get", sub="Inner"))
    get = at(mod, span_of(INST, "M!Inner!Get", sub="Get"))
    assert inner.via == "M" and get.via == "M!Inner"
    assert get.foreign_module is None  # not known without the other module
    # P(3)!Put(1): parameterised instance
    p_ref = at(mod, span_of(INST, "P(3)", sub="P"))
    assert p_ref.target is at(mod, span_of(INST, "P(c)", sub="P"))
    assert at(mod, span_of(INST, "P(3)!Put", sub="Put")).via == "P"
    # M!Put(x)!1 : a subexpression selector after the path
    assert at(mod, span_of(INST, "M!Put(x)!1", sub="Put")).via == "M"
    # qualified names are not "unresolved": renaming handles them by via
    assert "Put" not in {o.text for o in mod.unresolved_references()}
    check_invariants(mod, INST.encode())


# ---- records ---------------------------------------------------------------

RECORDS = """\
---- MODULE Records ----
VARIABLE msg
R == [type |-> "req", val |-> 1]
T == [type : {"req"}, val : 0..3]
U == msg.type = "req" /\\ msg' = [msg EXCEPT !.val = @ + 1, ![1].type = 2]
V == [msg EXCEPT !["k"].val[1] = 2].val
====
"""


def test_record_fields_are_fields() -> None:
    mod = parse_module(RECORDS)
    fields = [(o.text, o.context) for o in mod.occurrences if o.role == "field"]
    assert fields == [
        ("type", "record"), ("val", "record"),
        ("type", "record"), ("val", "record"),
        ("type", "record"), ("val", "except"), ("type", "except"),
        ("val", "except"), ("val", "record"),
    ]
    for o in mod.occurrences:
        if o.role == "field":
            assert o.target is None and o.text in ("type", "val")
    dot = at(mod, span_of(RECORDS, "msg.type", sub="type"))
    assert dot.role == "field"
    assert at(mod, span_of(RECORDS, "msg.type", sub="msg")).target.context == "variable"
    # no field is an unresolved reference
    assert {o.text for o in mod.unresolved_references()} == set()
    # strings are recorded so renaming can leave them alone
    assert span_of(RECORDS, '"req"') in mod.strings


# ---- proofs ----------------------------------------------------------------

PROOF = """\
---- MODULE Proof ----
EXTENDS Naturals, TLAPS
CONSTANT S
Inv == S # {}
THEOREM Thm == ASSUME NEW c \\in S, NEW CONSTANT F(_) PROVE F(c) = F(c)
<1>1. PICK m \\in S : m = c
  BY DEF Inv
<1>. DEFINE dd == m + 1
<1>2. dd = m + 1
  OBVIOUS
<1>3. SUFFICES ASSUME NEW w \\in S PROVE w = w
  OBVIOUS
<1>. QED BY <1>1, <1>2, PTL DEF Inv
====
"""


def test_proof_scoping() -> None:
    mod = parse_module(PROOF)
    assert not mod.has_errors
    c_new = at(mod, span_of(PROOF, "NEW c", sub="c"))
    f_new = at(mod, span_of(PROOF, "CONSTANT F", sub="F"))
    assert (c_new.role, c_new.context, f_new.role) == ("bind", "new", "bind")
    assert at(mod, span_of(PROOF, "F(c) =", sub="c")).target is c_new
    assert at(mod, span_of(PROOF, "F(c) =", sub="F")).target is f_new
    m_pick = at(mod, span_of(PROOF, "PICK m", sub="m"))
    assert m_pick.context == "pick"
    assert at(mod, span_of(PROOF, "m = c", sub="m")).target is m_pick
    assert at(mod, span_of(PROOF, "m = c", sub="c")).target is c_new  # statement's NEW
    dd = at(mod, span_of(PROOF, "DEFINE dd", sub="dd"))
    assert at(mod, span_of(PROOF, "dd = m", sub="dd")).target is dd
    assert at(mod, span_of(PROOF, "dd = m", sub="m")).target is m_pick  # later step
    dd_def = [d for d in mod.definitions if d.name == "dd"][0]
    assert dd_def.scope == "proof" and mod.definitions[dd_def.parent].name == "Thm"
    w = at(mod, span_of(PROOF, "NEW w", sub="w"))
    assert at(mod, span_of(PROOF, "PROVE w", sub="w")).target is w
    inv_def = at(mod, span_of(PROOF, "Inv ==", sub="Inv"))
    assert at(mod, span_of(PROOF, "BY DEF Inv", sub="Inv")).target is inv_def
    ptl = at(mod, span_of(PROOF, "PTL"))
    assert ptl.target is None and "PTL" in STANDARD_OPERATORS["TLAPS"]


# ---- PlusCal ---------------------------------------------------------------

PCAL_P = """\
---- MODULE Counter ----
EXTENDS Naturals, TLC
CONSTANT N
(* --algorithm Counter
variables total = 0, flags = [i \\in 1..N |-> FALSE];
define
  Bounded == total <= N
end define;
macro Bump(v) begin total := total + v end macro;
procedure Add(amount = 1)
variables tmp = 0;
begin
  AddStart: tmp := amount;
  Bump(tmp);
  return;
end procedure;
fair process Worker \\in 1..N
variables done = FALSE;
begin
  Loop: while ~done do
    Step: with k \\in 1..2 do total := total + k end with;
      call Add(2);
    Check: if total > N then done := TRUE else goto Loop end if;
          flags[self] := TRUE;
  end while;
end process;
end algorithm; *)
\\* BEGIN TRANSLATION
VARIABLES total, flags, pc
Worker(self) == pc[self] = "Loop"
\\* END TRANSLATION
====
"""


def test_pluscal_p_syntax() -> None:
    mod = parse_module(PCAL_P)
    block = mod.pluscal
    assert block is not None and block.parsed
    assert (block.name, block.fair, block.syntax) == ("Counter", False, "p")
    start = PCAL_P.index("--algorithm")
    end = PCAL_P.index("end algorithm") + len("end algorithm")
    assert block.span == (start, end)
    assert pluscal_block(PCAL_P) == (start, end)
    assert [n.name for n in block.variables] == ["total", "flags"]
    assert [n.name for n in block.labels] == ["AddStart", "Loop", "Step", "Check"]
    assert [n.name for n in block.macros] == ["Bump"]
    assert [n.name for n in block.procedures] == ["Add"]
    assert [n.name for n in block.processes] == ["Worker"]
    assert [n.name for n in block.definitions] == ["Bounded"]
    assert block.labels[1].span == span_of(PCAL_P, "Loop:", sub="Loop")
    # roles inside the algorithm
    total = at(mod, span_of(PCAL_P, "total = 0", sub="total"))
    assert (total.role, total.context, total.in_pluscal) == ("define", "pluscal_variable", True)
    assert at(mod, span_of(PCAL_P, "Bounded == total", sub="total")).target is total
    assert at(mod, span_of(PCAL_P, "begin total :=", sub="total")).context == "assign"
    v = at(mod, span_of(PCAL_P, "Bump(v)", sub="v"))
    assert at(mod, span_of(PCAL_P, "total + v", sub="v")).target is v
    amount = at(mod, span_of(PCAL_P, "amount = 1", sub="amount"))
    assert amount.context == "pluscal_parameter"
    assert at(mod, span_of(PCAL_P, "tmp := amount", sub="amount")).target is amount
    bump = at(mod, span_of(PCAL_P, "macro Bump", sub="Bump"))
    assert at(mod, span_of(PCAL_P, "Bump(tmp)", sub="Bump")).target is bump
    add = at(mod, span_of(PCAL_P, "procedure Add", sub="Add"))
    assert at(mod, span_of(PCAL_P, "call Add", sub="Add")).target is add
    k = at(mod, span_of(PCAL_P, "with k", sub="k"))
    assert k.role == "bind" and at(mod, span_of(PCAL_P, "total + k", sub="k")).target is k
    loop = at(mod, span_of(PCAL_P, "Loop:", sub="Loop"))
    assert loop.role == "label"
    goto = at(mod, span_of(PCAL_P, "goto Loop", sub="Loop"))
    assert (goto.context, goto.target) == ("goto", loop)
    assert at(mod, span_of(PCAL_P, "flags[self]", sub="self")).target is None
    assert "self" in PLUSCAL_KEYWORDS
    assert at(mod, span_of(PCAL_P, "done := TRUE", sub="done")).target.text == "done"
    assert at(mod, span_of(PCAL_P, "process Worker", sub="Worker")).context == "process"
    # the translation is ordinary TLA+ and resolves to its own declarations
    total_tla = at(mod, span_of(PCAL_P, "VARIABLES total", sub="total"))
    assert (total_tla.role, total_tla.in_pluscal) == ("define", False)
    # the algorithm lies in a comment; the translation's strings are strings
    assert any(a <= start and end <= b for a, b in mod.comments)
    assert span_of(PCAL_P, '"Loop"') in mod.strings
    assert not mod.has_errors
    check_invariants(mod, PCAL_P.encode())


PCAL_C = """\
---- MODULE CSyntax ----
EXTENDS Naturals
(*--fair algorithm Flip {
  variables bit = 0;
  process (P \\in 1..2) variables mine = 0; {
    A: bit := 1 - bit;
    B: mine := bit;
  }
} *)
====
"""


def test_pluscal_c_syntax_and_offsets() -> None:
    mod = parse_module(PCAL_C)
    block = mod.pluscal
    assert block is not None
    assert (block.name, block.fair, block.syntax) == ("Flip", True, "c")
    assert block.span == (PCAL_C.index("--fair"), PCAL_C.index("} *)") + 1)
    assert [n.name for n in block.labels] == ["A", "B"]
    assert [n.name for n in block.processes] == ["P"]
    # character offsets for str input, byte offsets for bytes input
    text = "(* é *)\n" + PCAL_C
    chars = pluscal_block(text)
    raw = pluscal_block(text.encode())
    assert chars is not None and raw is not None
    assert text[chars[0] : chars[1]].startswith("--fair algorithm Flip")
    assert raw[0] == chars[0] + 1  # é is two bytes


def test_pluscal_not_parsed_falls_back_to_text() -> None:
    # A macro body without braces is beyond tree-sitter-tlaplus 1.5
    src = (
        "---- MODULE Fallback ----\n"
        "(* --algorithm Fb {\n  macro m() x := 1;\n  { A: x := 1; }\n} *)\n"
        "X == 1\n====\n"
    )
    mod = parse_module(src)
    assert mod.pluscal is not None and not mod.pluscal.parsed
    assert mod.pluscal.name == "Fb"
    assert src[slice(*mod.pluscal.span)].startswith("--algorithm Fb {")
    assert src[slice(*mod.pluscal.span)].endswith("}")
    # the errors are inside the algorithm's comment: SANY would not mind
    assert mod.has_errors and not mod.has_tla_errors
    assert {e.kind for e in mod.errors} == {"pluscal"}
    assert at(mod, span_of(src, "X ==", sub="X")).role == "define"
    assert pluscal_block("no algorithm here") is None


# ---- comments, strings, labels, user operators --------------------------------

MISC = """\
---- MODULE Misc ----
(* outer (* nested *) still comment: Foo *)
\\* line comment Bar
a ++ b == a + b
S == "a string with x" \\* trailing
L == lbl :: S ++ S
Sel == L!lbl
====
"""


def test_comments_strings_labels_and_symbols() -> None:
    mod = parse_module(MISC)
    assert mod.comments == (
        span_of(MISC, "(* outer (* nested *) still comment: Foo *)"),
        span_of(MISC, "\\* line comment Bar"),
        span_of(MISC, "\\* trailing"),
    )
    assert mod.strings == (span_of(MISC, '"a string with x"'),)
    assert "Foo" not in {o.text for o in mod.occurrences}
    plus = [d for d in mod.definitions if d.name == "++"][0]
    assert plus.is_symbolic and plus.parameters == ("a", "b")
    assert at(mod, span_of(MISC, "a ++", sub="a")).role == "bind"
    label = at(mod, span_of(MISC, "lbl ::", sub="lbl"))
    assert label.role == "label"
    assert at(mod, span_of(MISC, "L!lbl", sub="lbl")).via == "L"


# ---- Nat/Int/Real, keywords, standard modules --------------------------------


def test_number_sets_are_names() -> None:
    src = "---- MODULE Peano2 ----\nNat == {0}\nX == Nat \\cup Int\nY == R!Nat\n====\n"
    mod = parse_module(src)
    nat_def = at(mod, span_of(src, "Nat ==", sub="Nat"))
    assert nat_def.role == "define"
    assert at(mod, span_of(src, "X == Nat", sub="Nat")).target is nat_def
    assert at(mod, span_of(src, "Int")).target is None
    assert at(mod, span_of(src, "R!Nat", sub="Nat")).via == "R"


def test_keywords_and_standard_tables() -> None:
    for word in ("ASSUME", "ASSUMPTION", "AXIOM", "CASE", "CHOOSE", "CONSTANT",
                 "CONSTANTS", "DOMAIN", "ELSE", "ENABLED", "EXCEPT", "EXTENDS", "IF",
                 "IN", "INSTANCE", "LET", "LOCAL", "MODULE", "OTHER", "SF_", "SUBSET",
                 "THEN", "THEOREM", "UNCHANGED", "UNION", "VARIABLE", "VARIABLES", "WF_",
                 "WITH", "TRUE", "FALSE", "BOOLEAN", "STRING", "LAMBDA", "RECURSIVE",
                 "PROOF", "QED", "BY", "OBVIOUS", "SUFFICES", "PICK", "NEW", "LEMMA"):
        assert word in TLA_KEYWORDS
    for module in ("Naturals", "Integers", "Reals", "Sequences", "FiniteSets", "Bags",
                   "TLC", "TLCExt", "Randomization", "Json", "IOUtils", "CSV",
                   "Apalache", "Functions", "SequencesExt", "FiniteSetsExt", "Bitwise",
                   "TLAPS"):
        assert module in STANDARD_MODULES and STANDARD_OPERATORS[module]
    assert PROOF_LIBRARY_MODULES <= STANDARD_MODULES
    sequences = {"Seq", "Len", "Head", "Tail", "Append", "SubSeq", "SelectSeq"}
    assert sequences <= STANDARD_OPERATORS["Sequences"]
    tlc = {"Print", "PrintT", "Assert", "JavaTime", "TLCGet", "TLCSet", "Permutations",
           "SortSeq", "RandomElement", "ToString", "TLCEval", "Any", ":>", "@@"}
    assert tlc <= STANDARD_OPERATORS["TLC"]
    assert {"Int", "Nat", "+"} <= STANDARD_OPERATORS["Integers"]
    assert {"Real", "Infinity", "Int"} <= STANDARD_OPERATORS["Reals"]
    assert {"RandomSubset", "RandomSetOfSubsets", "RandomSubsetSet",
            "TestRandomSetOfSubsets"} <= STANDARD_OPERATORS["Randomization"]
    assert {"IsFiniteSet", "Cardinality"} == STANDARD_OPERATORS["FiniteSets"]
    assert "Len" in STANDARD_NAMES
    assert is_identifier("foo_1") and is_identifier("1st")
    assert not any(is_identifier(w) for w in ("WF_x", "SF_y", "IF", "12", "a-b", ""))


def test_keyword_out_of_place_is_not_an_occurrence() -> None:
    # LAMBDA is only allowed as an operator argument: tree-sitter recovers by
    # treating it as an identifier, which we must not report.
    src = "---- MODULE Lam ----\nY == LAMBDA a : a\n====\n"
    mod = parse_module(src)
    assert mod.has_errors
    assert "LAMBDA" not in {o.text for o in mod.occurrences}
    check_invariants(mod, src.encode())


# ---- splitting, missing footers, nested modules, bad input ---------------------

LLM_OUTPUT = """\
Here is the specification (note: the ---- MODULE line matters):

```tla
---------- MODULE Clock ----------
EXTENDS Naturals
VARIABLE hr
(* ==== not a footer ==== *)
Init == hr = "===="
Next == hr' = (hr % 12) + 1
```

And a second one:

---- MODULE Other ----
X == 1
=====
trailing words
"""


def test_split_modules_on_llm_output() -> None:
    spans = split_modules(LLM_OUTPUT)
    assert [(s.name, s.complete) for s in spans] == [("Clock", False), ("Other", True)]
    clock, other = spans
    assert LLM_OUTPUT[clock.start : clock.end].startswith("---------- MODULE Clock")
    assert LLM_OUTPUT[clock.start : clock.end].endswith("(hr % 12) + 1")
    assert LLM_OUTPUT[other.start : other.end].endswith("=====")
    # bytes in, byte offsets out; str in, character offsets out
    text = "é\n" + LLM_OUTPUT
    assert split_modules(text)[0].start == clock.start + 2
    assert split_modules(text.encode())[0].start == clock.start + 3
    assert split_modules("no module at all") == []


def test_missing_footer_is_reported_and_parsed() -> None:
    mod = parse_module(LLM_OUTPUT)
    assert mod.name == "Clock" and not mod.complete
    assert [e.kind for e in mod.errors] == ["missing_footer"]
    hr = at(mod, span_of(LLM_OUTPUT, "VARIABLE hr", sub="hr"))
    assert at(mod, span_of(LLM_OUTPUT, "hr' =", sub="hr")).target is hr
    assert [d.name for d in mod.definitions] == ["Init", "Next"]
    other = parse_module(LLM_OUTPUT, "Other")
    assert other.name == "Other" and other.complete and not other.has_errors
    assert [m.name for m in parse_modules(LLM_OUTPUT)] == ["Clock", "Other"]
    missing = parse_module(LLM_OUTPUT, "Nope")
    assert missing.name is None and missing.errors[0].kind == "no_module"
    check_invariants(mod, LLM_OUTPUT.encode())


NESTED = """\
---- MODULE Outer ----
CONSTANT Proc
VARIABLE mem
   ---- MODULE Inner ----
   VARIABLE rdy
   IE == rdy = [p \\in Proc |-> TRUE] /\\ mem = 0
   ====
IEnv(rdy) == INSTANCE Inner
Spec == \\EE rdy : IEnv(rdy)!IE
====
"""


def test_nested_modules() -> None:
    mod = parse_module(NESTED)
    assert mod.name == "Outer" and not mod.has_errors
    assert [d.name for d in mod.definitions] == ["IEnv", "Spec"]
    (inner,) = mod.submodules
    assert inner.name == "Inner" and [d.name for d in inner.definitions] == ["IE"]
    assert [v.name for v in inner.variables] == ["rdy"]
    # the inner module sees the outer module's declarations
    proc = at(mod, span_of(NESTED, "CONSTANT Proc", sub="Proc"))
    assert at(mod, span_of(NESTED, "\\in Proc", sub="Proc")).target is proc
    assert at(inner, span_of(NESTED, "\\in Proc", sub="Proc")).target is proc
    assert at(inner, span_of(NESTED, "mem = 0", sub="mem")).module == "Inner"
    # the inner occurrences are part of the outer module's list as well
    assert set(inner.occurrences) <= set(mod.occurrences)
    assert parse_module(NESTED, "Inner").name == "Inner"
    ie = at(mod, span_of(NESTED, "!IE", sub="IE"))
    assert ie.via == "IEnv" and ie.foreign_module == "Inner"


def test_unicode_columns() -> None:
    src = "---- MODULE Uni ----\n(* ∀ é *) X == \"ü\" \\* ö\nY == X\n====\n"
    mod = parse_module(src)
    x = at(mod, span_of(src, "X ==", sub="X"))
    assert (x.line, x.column) == (2, 11)
    assert src.encode()[x.start : x.end] == b"X"
    assert at(mod, span_of(src, "Y == X", sub="X")).target is x


BAD_INPUTS = [
    "",
    "   \n\n",
    "hello world (* unclosed",
    "---- MODULE",
    "---- MODULE A ----",
    "---- MODULE A ----\n====",
    "---- MODULE A ----\nX == \n====",
    "---- MODULE A ----\nX == [ \n====\n---- MODULE B ----\n",
    "VARIABLE x\nInit == x = 0\n",
    "---- MODULE A ----\nX == \"unterminated\n====\n",
    "---- MODULE ../etc ----\n====\n",
    "(* --algorithm \n",
    "---- MODULE A ----\n" + "(" * 300 + "\n====\n",
    "---- MODULE A ----\nX == " + " + ".join(["1"] * 2000) + "\n====\n",
]


@pytest.mark.parametrize("src", BAD_INPUTS)
def test_bad_input_never_raises(src: str) -> None:
    for mod in parse_modules(src):
        check_invariants(mod, src.encode())
    mod = parse_module(src)
    check_invariants(mod, src.encode())
    split_modules(src)
    pluscal_block(src)


def test_bad_bytes_never_raise() -> None:
    data = b"\xff\xfe---- MODULE A ----\nX == \xc3\n====\n\x00\x01"
    mod = parse_module(data)
    assert mod.name == "A"
    assert [o.text for o in mod.occurrences] == ["A", "X"]


def test_every_prefix_of_a_module_parses() -> None:
    data = TEMPORAL.encode()
    for cut in range(0, len(data), 3):
        mod = parse_module(data[:cut])
        check_invariants(mod, data[:cut])


# ---- the tlaplus/Examples corpus ---------------------------------------------


def _all_modules(mod: ModuleSyntax) -> Iterator[ModuleSyntax]:
    yield mod
    for sub in mod.submodules:
        yield from _all_modules(sub)


@pytest.fixture(scope="module")
def corpus() -> dict[Path, tuple[bytes, list[ModuleSyntax]]]:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    files = sorted(CORPUS.rglob("*.tla"))
    if not files:
        pytest.skip("corpus has no .tla files")
    out: dict[Path, tuple[bytes, list[ModuleSyntax]]] = {}
    start = time.perf_counter()
    for path in files:
        data = path.read_bytes()
        out[path] = (data, parse_modules(data))
    elapsed = time.perf_counter() - start
    count = sum(len(mods) for _, mods in out.values())
    print(f"\nparsed {len(files)} files / {count} modules in {elapsed * 1000:.0f} ms "
          f"({elapsed * 1000 / count:.2f} ms per module)")
    return out


@pytest.mark.corpus
def test_corpus_occurrence_texts_and_definitions(corpus: dict) -> None:
    for path, (data, mods) in corpus.items():
        for top in mods:
            assert not top.has_errors, (path, top.errors[:3])
            check_invariants(top, data)
            defines = collections.Counter(o.span for o in top.occurrences if o.role == "define")
            for mod in _all_modules(top):
                for d in mod.definitions:
                    if d.scope == "module" and not d.is_symbolic:
                        assert defines[d.span] == 1, (path, d)
                for decl in mod.constants + mod.variables:
                    if is_identifier(decl.name):
                        assert defines[decl.span] == 1, (path, decl)
            contexts = {o.context for o in top.occurrences}
            assert not contexts & {"unknown", "error"}, path


@pytest.mark.corpus
def test_corpus_unresolved_names_are_explained(corpus: dict) -> None:
    """Unresolved references are standard names, names of EXTENDed/INSTANCEd
    modules (found next to the module or anywhere in the corpus), or ``self``
    in PlusCal; record fields never count as references."""
    by_dir: dict[str, dict[str, ModuleSyntax]] = collections.defaultdict(dict)
    by_name: dict[str, ModuleSyntax] = {}
    for path, (_, mods) in corpus.items():
        for top in mods:
            for mod in _all_modules(top):
                if mod.name:
                    by_dir[str(path.parent)].setdefault(mod.name, mod)
                    by_name.setdefault(mod.name, mod)

    def exported(name: str, folder: str, seen: set[str]) -> set[str]:
        if name in seen:
            return set()
        seen.add(name)
        if name in STANDARD_OPERATORS:
            return set(STANDARD_OPERATORS[name])
        mod = by_dir[folder].get(name) or by_name.get(name)
        assert mod is not None, f"module {name} not in corpus"
        names = set(mod.exported_names)
        for ext in mod.extends:
            names |= exported(ext, folder, seen)
        for inst in mod.instances:
            if inst.name is None and not inst.is_local:
                names |= exported(inst.module, folder, seen)
        return names

    unexplained = []
    checked = 0
    for path, (_, mods) in corpus.items():
        folder = str(path.parent)
        pending = [(top, set()) for top in mods]
        while pending:
            mod, inherited = pending.pop()
            available = set(inherited)
            for ext in mod.extends:
                available |= exported(ext, folder, set())
            for inst in mod.instances:
                if inst.name is None:
                    available |= exported(inst.module, folder, set())
            # a nested module sees the enclosing module's names
            pending.extend((sub, available | mod.defined_names) for sub in mod.submodules)
            inner = [sub.span for sub in mod.submodules]
            for occ in mod.unresolved_references():
                if any(a <= occ.start < b for a, b in inner):
                    continue
                checked += 1
                if occ.context == "substitution" or occ.text in available:
                    continue
                if occ.in_pluscal and occ.text == "self":
                    continue
                unexplained.append((path.name, mod.name, occ.text, occ.line))
    assert checked > 1000
    assert unexplained == []


@pytest.mark.corpus
def test_corpus_parse_time(corpus: dict) -> None:
    count = sum(len(mods) for _, mods in corpus.values())
    start = time.perf_counter()
    for data, _ in corpus.values():
        parse_modules(data)
    per_module = (time.perf_counter() - start) / count
    # generous: a few ms per module on a laptop
    assert per_module < 0.05, per_module


def test_a_malformed_pluscal_algorithm_in_a_comment_hides_no_definition() -> None:
    """A real GPT-5 output (TLA+-Bench task 976): C and P syntax mixed in a commented algorithm made the
    parser swallow every definition after the comment, although SANY, reading a comment, accepts it."""
    source = """---- MODULE Ring ----
EXTENDS Naturals
(*
--algorithm Ring
variables x = 0;
define {
  Left(i) == i - 1;
}
begin
a1: x := 1;
end algorithm;
*)
CONSTANT N
VARIABLE x
Init == x = 0
Next == x' = 1 - x
Spec == Init /\\ [][Next]_x
TypeOK == x \\in {0, 1}
====
"""
    syntax = parse_module(source, "Ring")
    assert {"N", "x", "Init", "Next", "Spec", "TypeOK"} <= set(syntax.defined_names)
