---------------------------- MODULE TrafficLight ----------------------------
(***************************************************************************)
(* The lights of a crossing of two roads.  Each road has a light that     *)
(* cycles red -> green -> yellow -> red.  A light may turn green only when *)
(* every light is red and it is that road's turn; after a road's light    *)
(* turns red again, the turn passes to the other road.                    *)
(***************************************************************************)
VARIABLES light, turn

vars == <<light, turn>>

Roads == {"ns", "ew"}

Colors == {"red", "green", "yellow"}

Other(r) == IF r = "ns" THEN "ew" ELSE "ns"

TypeOK ==
    /\ light \in [Roads -> Colors]
    /\ turn \in Roads

Init ==
    /\ light = [r \in Roads |-> "red"]
    /\ turn \in Roads

ToGreen(r) ==
    /\ turn = r
    /\ \A s \in Roads : light[s] = "red"
    /\ light' = [light EXCEPT ![r] = "green"]
    /\ UNCHANGED turn

ToYellow(r) ==
    /\ light[r] = "green"
    /\ light' = [light EXCEPT ![r] = "yellow"]
    /\ UNCHANGED turn

ToRed(r) ==
    /\ light[r] = "yellow"
    /\ light' = [light EXCEPT ![r] = "red"]
    /\ turn' = Other(r)

Next == \E r \in Roads : ToGreen(r) \/ ToYellow(r) \/ ToRed(r)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)

\* Cross traffic never has a non-red light at the same time.
SafeCrossing == \E r \in Roads : light[r] = "red"

\* Each road gets a green light again and again.
GreenForAll == \A r \in Roads : []<>(light[r] = "green")

=============================================================================
