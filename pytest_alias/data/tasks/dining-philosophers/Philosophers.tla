---------------------------- MODULE Philosophers ----------------------------
(***************************************************************************)
(* N philosophers sit at a round table with one fork between each pair of *)
(* neighbours.  Philosopher i's left fork is fork i and its right fork is *)
(* fork (i + 1) % N.  A hungry philosopher picks up one fork at a time.   *)
(* All but the last philosopher take the left fork first; the last one    *)
(* takes the right fork first, which breaks the circular wait.            *)
(***************************************************************************)
EXTENDS Naturals

CONSTANT N

ASSUME N \in Nat /\ N > 1

Phils == 0..(N - 1)

VARIABLES mode, has

vars == <<mode, has>>

LeftFork(p) == p
RightFork(p) == (p + 1) % N

\* The side of the fork that p grabs first and second.
FirstSide(p) == IF p = N - 1 THEN "right" ELSE "left"
SecondSide(p) == IF p = N - 1 THEN "left" ELSE "right"

ForkOf(p, side) == IF side = "left" THEN LeftFork(p) ELSE RightFork(p)

\* The set of forks held by philosopher p.
Holding(p) == {ForkOf(p, s) : s \in has[p]}

Free(f) == \A p \in Phils : f \notin Holding(p)

TypeOK ==
    /\ mode \in [Phils -> {"thinking", "hungry", "eating"}]
    /\ has \in [Phils -> SUBSET {"left", "right"}]

Init ==
    /\ mode = [p \in Phils |-> "thinking"]
    /\ has = [p \in Phils |-> {}]

GetHungry(p) ==
    /\ mode[p] = "thinking"
    /\ mode' = [mode EXCEPT ![p] = "hungry"]
    /\ UNCHANGED has

TakeFirst(p) ==
    /\ mode[p] = "hungry"
    /\ has[p] = {}
    /\ Free(ForkOf(p, FirstSide(p)))
    /\ has' = [has EXCEPT ![p] = {FirstSide(p)}]
    /\ UNCHANGED mode

\* Taking the second fork lets the philosopher start eating.
TakeSecond(p) ==
    /\ mode[p] = "hungry"
    /\ has[p] = {FirstSide(p)}
    /\ Free(ForkOf(p, SecondSide(p)))
    /\ has' = [has EXCEPT ![p] = {"left", "right"}]
    /\ mode' = [mode EXCEPT ![p] = "eating"]

PutDown(p) ==
    /\ mode[p] = "eating"
    /\ mode' = [mode EXCEPT ![p] = "thinking"]
    /\ has' = [has EXCEPT ![p] = {}]

Next == \E p \in Phils : GetHungry(p) \/ TakeFirst(p) \/ TakeSecond(p) \/ PutDown(p)

Spec == Init /\ [][Next]_vars

\* No fork is in two hands.
ForksExclusive ==
    \A p, q \in Phils : p # q => Holding(p) \cap Holding(q) = {}

\* Eating philosophers hold both of their forks, and only they do.
EatingWithTwoForks ==
    \A p \in Phils : (mode[p] = "eating") <=> (has[p] = {"left", "right"})

\* Two neighbours never eat at the same time.
NeighboursNotBothEating ==
    \A p \in Phils : ~(mode[p] = "eating" /\ mode[(p + 1) % N] = "eating")

=============================================================================
