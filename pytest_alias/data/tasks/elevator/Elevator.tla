------------------------------ MODULE Elevator ------------------------------
(***************************************************************************)
(* One elevator car serving floors 1 .. Floors.  Calls from other floors  *)
(* accumulate in a set.  The car keeps moving in its direction while some *)
(* call lies ahead, reverses when none does, and opens its door at called *)
(* floors.  Weak fairness of the car's own steps makes every call served. *)
(***************************************************************************)
EXTENDS Naturals

CONSTANT Floors

ASSUME Floors \in Nat /\ Floors > 1

VARIABLES at, dir, door, calls

vars == <<at, dir, door, calls>>

FloorSet == 1..Floors

TypeOK ==
    /\ at \in FloorSet
    /\ dir \in {"up", "down"}
    /\ door \in {"open", "closed"}
    /\ calls \subseteq FloorSet

Init ==
    /\ at = 1
    /\ dir = "up"
    /\ door = "closed"
    /\ calls = {}

\* Calls that lie ahead of the car in direction d.
Ahead(d) == {f \in calls : IF d = "up" THEN f > at ELSE f < at}

\* Someone on another floor presses the call button.
Call(f) ==
    /\ f # at
    /\ f \notin calls
    /\ calls' = calls \cup {f}
    /\ UNCHANGED <<at, dir, door>>

\* The car stops at a called floor and opens its door.
Open ==
    /\ door = "closed"
    /\ at \in calls
    /\ door' = "open"
    /\ calls' = calls \ {at}
    /\ UNCHANGED <<at, dir>>

Close ==
    /\ door = "open"
    /\ door' = "closed"
    /\ UNCHANGED <<at, dir, calls>>

Move ==
    /\ door = "closed"
    /\ at \notin calls
    /\ Ahead(dir) # {}
    /\ at' = IF dir = "up" THEN at + 1 ELSE at - 1
    /\ UNCHANGED <<dir, door, calls>>

Turn ==
    /\ door = "closed"
    /\ at \notin calls
    /\ calls # {}
    /\ Ahead(dir) = {}
    /\ dir' = IF dir = "up" THEN "down" ELSE "up"
    /\ UNCHANGED <<at, door, calls>>

Next == Open \/ Close \/ Move \/ Turn \/ \E f \in FloorSet : Call(f)

Spec ==
    /\ Init /\ [][Next]_vars
    /\ WF_vars(Open) /\ WF_vars(Close) /\ WF_vars(Move) /\ WF_vars(Turn)

\* The car never changes floor while its door is open.
DoorClosedWhileMoving == [][door = "open" => at' = at]_vars

\* The door is only open at a floor that is not still waiting for service.
OpenOnlyWhenServed == door = "open" => at \notin calls

\* Every call is eventually answered by the car standing there, door open.
CallsAnswered ==
    \A f \in FloorSet : (f \in calls) ~> (at = f /\ door = "open")

=============================================================================
