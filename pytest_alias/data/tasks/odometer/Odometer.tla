------------------------------ MODULE Odometer ------------------------------
(***************************************************************************)
(* A two-wheel odometer in base Base.  The low wheel advances on every    *)
(* count.  When it wraps from Base - 1 to 0 it raises a carry, and a      *)
(* separate later step turns the high wheel and clears the carry.  Under  *)
(* the mapping below the odometer implements the abstract counter of      *)
(* module Tally with Limit = Base * Base.                                 *)
(***************************************************************************)
EXTENDS Naturals

CONSTANT Base

ASSUME Base \in Nat /\ Base > 1

VARIABLES lo, hi, carry

vars == <<lo, hi, carry>>

TypeOK ==
    /\ lo \in 0..(Base - 1)
    /\ hi \in 0..(Base - 1)
    /\ carry \in BOOLEAN

Init ==
    /\ lo = 0
    /\ hi = 0
    /\ carry = FALSE

\* Advance the low wheel; a wrap raises the carry.
Count ==
    /\ ~carry
    /\ IF lo = Base - 1
          THEN /\ lo' = 0
               /\ carry' = TRUE
          ELSE /\ lo' = lo + 1
               /\ carry' = FALSE
    /\ UNCHANGED hi

\* Propagate a pending carry into the high wheel.
Propagate ==
    /\ carry
    /\ hi' = (hi + 1) % Base
    /\ carry' = FALSE
    /\ UNCHANGED lo

Next == Count \/ Propagate

Spec == Init /\ [][Next]_vars

\* The reading of the odometer, counting a pending carry.
Reading == (hi * Base + lo + (IF carry THEN Base ELSE 0)) % (Base * Base)

Abstract == INSTANCE Tally WITH Limit <- Base * Base, total <- Reading

Refines == Abstract!TallySpec

=============================================================================
