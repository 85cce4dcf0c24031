--------------------------- MODULE ProduceConsume ---------------------------
(***************************************************************************)
(* A producer makes Total items and a consumer takes them one at a time.  *)
(* Fairness is written per action, and Produce, as written, says nothing  *)
(* about consumed: only Next pins it down.  TLC runs this spec, but it     *)
(* cannot evaluate the fairness of Produce when Spec is checked as a       *)
(* property (ENABLED Produce leaves consumed' free).                       *)
(***************************************************************************)
EXTENDS Naturals

CONSTANT Total

VARIABLES produced, consumed

vars == <<produced, consumed>>

Init == produced = 0 /\ consumed = 0

Produce == /\ produced < Total
           /\ produced' = produced + 1

Consume == /\ consumed < produced
           /\ consumed' = consumed + 1
           /\ UNCHANGED produced

Finish == consumed = Total /\ UNCHANGED vars

Next == (Produce /\ UNCHANGED consumed) \/ Consume \/ Finish

Spec == Init /\ [][Next]_vars /\ WF_vars(Produce) /\ WF_vars(Consume)

TypeOK == produced \in 0..Total /\ consumed \in 0..produced
=============================================================================
