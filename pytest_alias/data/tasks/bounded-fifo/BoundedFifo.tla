---------------------------- MODULE BoundedFifo ----------------------------
(***************************************************************************)
(* A producer and a consumer share a first-in first-out buffer of bounded *)
(* capacity.  The producer appends any message while there is room; the   *)
(* consumer removes the oldest message and remembers it.                  *)
(***************************************************************************)
EXTENDS Naturals, Sequences

CONSTANTS Msgs, Cap, NoMsg

ASSUME /\ Cap \in Nat /\ Cap > 0
       /\ NoMsg \notin Msgs

VARIABLES q, got

vars == <<q, got>>

TypeOK ==
    /\ q \in Seq(Msgs)
    /\ got \in Msgs \cup {NoMsg}

Init ==
    /\ q = <<>>
    /\ got = NoMsg

Produce(m) ==
    /\ Len(q) < Cap
    /\ q' = Append(q, m)
    /\ UNCHANGED got

Consume ==
    /\ q # <<>>
    /\ got' = Head(q)
    /\ q' = Tail(q)

Next == (\E m \in Msgs : Produce(m)) \/ Consume

Spec == Init /\ [][Next]_vars

BoundedLength == Len(q) <= Cap

=============================================================================
