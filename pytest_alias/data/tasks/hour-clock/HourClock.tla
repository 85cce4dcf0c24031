----------------------------- MODULE HourClock -----------------------------
(***************************************************************************)
(* A wall clock that shows only the hour.  Each tick advances the display *)
(* by one hour, wrapping from 12 back to 1.  Weak fairness on the tick    *)
(* keeps the clock running, so it shows 12 again and again.               *)
(***************************************************************************)
EXTENDS Naturals

VARIABLE hr

TypeOK == hr \in 1..12

Init == hr \in 1..12

Tick == hr' = IF hr = 12 THEN 1 ELSE hr + 1

Next == Tick

Spec == Init /\ [][Next]_hr /\ WF_hr(Tick)

\* However the clock was set, it shows twelve o'clock infinitely often.
NoonRecurs == []<>(hr = 12)

=============================================================================
