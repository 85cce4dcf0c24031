----------------------------- MODULE TokenRing -----------------------------
(***************************************************************************)
(* Nodes 0 .. N-1 sit on a unidirectional ring and share one token.  A    *)
(* node must hold the token to enter its critical section.  An idle       *)
(* holder passes the token to its successor.  Because a holder may become *)
(* hungry again before it passes the token on, passing is enabled only    *)
(* intermittently, and strong fairness is needed to keep the token moving. *)
(***************************************************************************)
EXTENDS Naturals

CONSTANT N

ASSUME N \in Nat /\ N > 1

Nodes == 0..(N - 1)

VARIABLES holder, st

vars == <<holder, st>>

Succ(n) == (n + 1) % N

TypeOK ==
    /\ holder \in Nodes
    /\ st \in [Nodes -> {"idle", "hungry", "crit"}]

Init ==
    /\ holder = 0
    /\ st = [n \in Nodes |-> "idle"]

Request(n) ==
    /\ st[n] = "idle"
    /\ st' = [st EXCEPT ![n] = "hungry"]
    /\ UNCHANGED holder

Enter(n) ==
    /\ st[n] = "hungry"
    /\ holder = n
    /\ st' = [st EXCEPT ![n] = "crit"]
    /\ UNCHANGED holder

Exit(n) ==
    /\ st[n] = "crit"
    /\ st' = [st EXCEPT ![n] = "idle"]
    /\ UNCHANGED holder

Pass(n) ==
    /\ holder = n
    /\ st[n] = "idle"
    /\ holder' = Succ(n)
    /\ UNCHANGED st

Next == \E n \in Nodes : Request(n) \/ Enter(n) \/ Exit(n) \/ Pass(n)

Spec ==
    /\ Init /\ [][Next]_vars
    /\ \A n \in Nodes : WF_vars(Enter(n)) /\ WF_vars(Exit(n)) /\ SF_vars(Pass(n))

\* Only the token holder can be in its critical section.
CritNeedsToken == \A n \in Nodes : st[n] = "crit" => holder = n

\* Every hungry node eventually enters its critical section.
HungryEventuallyEats == \A n \in Nodes : st[n] = "hungry" ~> st[n] = "crit"

=============================================================================
