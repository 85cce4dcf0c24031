------------------------------- MODULE Tally -------------------------------
(***************************************************************************)
(* Abstract counter: total counts steps modulo Limit.                     *)
(***************************************************************************)
EXTENDS Naturals

CONSTANT Limit

ASSUME Limit \in Nat /\ Limit > 0

VARIABLE total

TallyInit == total = 0

TallyStep == total' = (total + 1) % Limit

TallySpec == TallyInit /\ [][TallyStep]_total

=============================================================================
