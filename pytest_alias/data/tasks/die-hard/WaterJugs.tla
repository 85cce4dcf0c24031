----------------------------- MODULE WaterJugs -----------------------------
(***************************************************************************)
(* Two jugs without markings, an unlimited tap and a drain.  A move fills *)
(* a jug, empties it, or pours one jug into the other until the source is *)
(* empty or the target is full.  The variable last names the latest move. *)
(* With capacities 4 and 6 the total amount of water is always even.      *)
(***************************************************************************)
EXTENDS Naturals

CONSTANTS SmallCap, BigCap

ASSUME SmallCap \in Nat /\ BigCap \in Nat /\ 0 < SmallCap /\ SmallCap < BigCap

VARIABLES small, big, last

vars == <<small, big, last>>

Moves == {"none", "FillSmall", "FillBig", "EmptySmall", "EmptyBig",
          "SmallToBig", "BigToSmall"}

Min(a, b) == IF a < b THEN a ELSE b

TypeOK ==
    /\ small \in 0..SmallCap
    /\ big \in 0..BigCap
    /\ last \in Moves

Init ==
    /\ small = 0
    /\ big = 0
    /\ last = "none"

FillSmall ==
    /\ small' = SmallCap
    /\ big' = big
    /\ last' = "FillSmall"

FillBig ==
    /\ big' = BigCap
    /\ small' = small
    /\ last' = "FillBig"

EmptySmall ==
    /\ small' = 0
    /\ big' = big
    /\ last' = "EmptySmall"

EmptyBig ==
    /\ big' = 0
    /\ small' = small
    /\ last' = "EmptyBig"

SmallToBig ==
    LET poured == Min(small, BigCap - big) IN
    /\ small' = small - poured
    /\ big' = big + poured
    /\ last' = "SmallToBig"

BigToSmall ==
    LET poured == Min(big, SmallCap - small) IN
    /\ big' = big - poured
    /\ small' = small + poured
    /\ last' = "BigToSmall"

Next ==
    \/ FillSmall \/ FillBig
    \/ EmptySmall \/ EmptyBig
    \/ SmallToBig \/ BigToSmall

Spec == Init /\ [][Next]_vars

\* Both capacities are even, so no sequence of moves yields an odd total.
EvenTotal == (small + big) % 2 = 0

=============================================================================
