---------------------------- MODULE RingElection ----------------------------
(***************************************************************************)
(* Leader election on a unidirectional ring in the manner of Chang and    *)
(* Roberts.  Every node carries a distinct identifier, assigned           *)
(* arbitrarily in the initial state.  Each node sends its identifier to   *)
(* its successor; a node forwards identifiers larger than its own, drops  *)
(* smaller ones, and becomes leader when its own identifier comes back.   *)
(***************************************************************************)
EXTENDS Naturals, Sequences

CONSTANT N

ASSUME N \in Nat /\ N > 0

Nodes == 1..N

Succ(n) == IF n = N THEN 1 ELSE n + 1

VARIABLES id, sent, chan, status

vars == <<id, sent, chan, status>>

\* All assignments of distinct identifiers 1..N to the nodes.
Assignments == {f \in [Nodes -> Nodes] : \A m, n \in Nodes : m # n => f[m] # f[n]}

TypeOK ==
    /\ id \in Assignments
    /\ sent \in [Nodes -> BOOLEAN]
    /\ chan \in [Nodes -> Seq(Nodes)]
    /\ status \in [Nodes -> {"candidate", "defeated", "leader"}]

Init ==
    /\ id \in Assignments
    /\ sent = [n \in Nodes |-> FALSE]
    /\ chan = [n \in Nodes |-> <<>>]
    /\ status = [n \in Nodes |-> "candidate"]

\* Node n puts its own identifier on the channel to its successor.
Start(n) ==
    /\ ~sent[n]
    /\ sent' = [sent EXCEPT ![n] = TRUE]
    /\ chan' = [chan EXCEPT ![Succ(n)] = Append(@, id[n])]
    /\ UNCHANGED <<id, status>>

\* Node n handles the oldest identifier on its incoming channel.
Receive(n) ==
    /\ chan[n] # <<>>
    /\ LET m == Head(chan[n])
           rest == [chan EXCEPT ![n] = Tail(@)]
       IN  \/ /\ m > id[n]
              /\ chan' = [rest EXCEPT ![Succ(n)] = Append(@, m)]
              /\ status' = [status EXCEPT ![n] = "defeated"]
           \/ /\ m < id[n]
              /\ chan' = rest
              /\ UNCHANGED status
           \/ /\ m = id[n]
              /\ chan' = rest
              /\ status' = [status EXCEPT ![n] = "leader"]
    /\ UNCHANGED <<id, sent>>

\* All identifiers sent and all channels drained: the election is over.
Quiet ==
    /\ \A n \in Nodes : sent[n] /\ chan[n] = <<>>
    /\ UNCHANGED vars

Next == Quiet \/ \E n \in Nodes : Start(n) \/ Receive(n)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)

AtMostOneLeader ==
    \A m, n \in Nodes : status[m] = "leader" /\ status[n] = "leader" => m = n

\* Only the node with the largest identifier can be elected.
LeaderHasMaxId ==
    \A n \in Nodes : status[n] = "leader" => id[n] = N

EventuallyLeader == <>(\E n \in Nodes : status[n] = "leader")

=============================================================================
