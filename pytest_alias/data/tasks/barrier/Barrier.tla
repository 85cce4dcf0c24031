------------------------------ MODULE Barrier ------------------------------
(***************************************************************************)
(* N processes work independently until each reaches a barrier.  A        *)
(* process that has arrived waits there; the barrier opens only when all  *)
(* N processes have arrived, and then every waiting process may pass.     *)
(***************************************************************************)
EXTENDS Naturals

CONSTANT N

ASSUME N \in Nat /\ N > 0

VARIABLES pc, arrived

vars == <<pc, arrived>>

Procs == 1..N

TypeOK ==
    /\ pc \in [Procs -> {"work", "wait", "pass"}]
    /\ arrived \in 0..N

Init ==
    /\ pc = [p \in Procs |-> "work"]
    /\ arrived = 0

\* Process p finishes its work and registers at the barrier.
Arrive(p) ==
    /\ pc[p] = "work"
    /\ pc' = [pc EXCEPT ![p] = "wait"]
    /\ arrived' = arrived + 1

\* Process p leaves the barrier once everybody has arrived.
Pass(p) ==
    /\ pc[p] = "wait"
    /\ arrived = N
    /\ pc' = [pc EXCEPT ![p] = "pass"]
    /\ UNCHANGED arrived

\* All processes are through: the system stays in its final state.
Finished ==
    /\ \A p \in Procs : pc[p] = "pass"
    /\ UNCHANGED vars

Next ==
    \/ \E p \in Procs : Arrive(p) \/ Pass(p)
    \/ Finished

Spec == Init /\ [][Next]_vars

\* Nobody is past the barrier while some process is still working.
BarrierProperty ==
    \A p \in Procs : pc[p] = "pass" => \A q \in Procs : pc[q] # "work"

=============================================================================
