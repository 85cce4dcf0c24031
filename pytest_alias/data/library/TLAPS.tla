-------------------------------- MODULE TLAPS --------------------------------
(***************************************************************************)
(* ALIAS's stand-in for the TLAPS module of the TLA+ Proof System, written *)
(* for this project from the list of names the real module makes public.   *)
(*                                                                         *)
(* Proofs are checked by TLAPS, not by SANY or TLC: SANY only needs every  *)
(* name a proof cites to be defined, and TLC never evaluates a proof.  So  *)
(* each backend pragma and tactic below is TRUE, which TLC can evaluate    *)
(* should a spec use one in an expression, and the two set-theory facts    *)
(* are stated as theorems, as the real module states them.                *)
(***************************************************************************)

\* Backend pragmas: SMT solvers.
SimpleArithmetic == TRUE
SMT == TRUE
SMTT(X) == TRUE
CVC3 == TRUE
CVC3T(X) == TRUE
CVC4 == TRUE
CVC4T(X) == TRUE
Yices == TRUE
YicesT(X) == TRUE
veriT == TRUE
veriTT(X) == TRUE
Zipper == TRUE
ZipperT(X) == TRUE
Z3 == TRUE
Z3T(X) == TRUE
Spass == TRUE
SpassT(X) == TRUE

\* Backend pragmas: propositional temporal logic.
LS4 == TRUE
LS4T(X) == TRUE
PTL == TRUE
PropositionalTemporalLogic == TRUE

\* Backend pragmas: Zenon.
Zenon == TRUE
ZenonT(X) == TRUE
SlowZenon == TRUE
SlowerZenon == TRUE
VerySlowZenon == TRUE
SlowestZenon == TRUE

\* Backend pragmas: Isabelle and its tactics.
Isa == TRUE
IsaT(X) == TRUE
IsaM(X) == TRUE
IsaMT(X, Y) == TRUE
IsaWithSetExtensionality == TRUE
Auto == TRUE
SlowAuto == TRUE
SlowerAuto == TRUE
SlowestAuto == TRUE
Force == TRUE
SlowForce == TRUE
SlowerForce == TRUE
SlowestForce == TRUE
SimplifyAndSolve == TRUE
SlowSimplifyAndSolve == TRUE
SlowerSimplifyAndSolve == TRUE
SlowestSimplifyAndSolve == TRUE
Simplification == TRUE
SlowSimplification == TRUE
SlowerSimplification == TRUE
SlowestSimplification == TRUE
Blast == TRUE
SlowBlast == TRUE
SlowerBlast == TRUE
SlowestBlast == TRUE
AutoBlast == TRUE
SimpAll == TRUE

\* Backend pragmas: several backends in turn.
AllProvers == TRUE
AllProversT(X) == TRUE
AllSMT == TRUE
AllSMTT(X) == TRUE
AllIsa == TRUE
AllIsaT(X) == TRUE
AllZenon == TRUE
AllZenonT(X) == TRUE

\* Pragmas for ENABLED and \cdot.
ExpandENABLED == TRUE
ExpandCdot == TRUE
AutoUSE == TRUE
Lambdify == TRUE
ENABLEDaxioms == TRUE
ENABLEDrewrites == TRUE
ENABLEDrules == TRUE
LevelComparison == TRUE
EnabledWrapper(Op(_)) == FALSE
CdotWrapper(Op(_)) == FALSE
Trivial == TRUE

\* Two facts of set theory that proofs cite by name.
THEOREM SetExtensionality == \A S, T : (\A x : x \in S <=> x \in T) => S = T
OBVIOUS

THEOREM NoSetContainsEverything == \A S : \E x : x \notin S
OBVIOUS
==============================================================================
