--------------------------- MODULE TwoPhaseCommit ---------------------------
(***************************************************************************)
(* A coordinator and a set of participants agree to commit or abort one   *)
(* transaction.  Participants vote yes or no by sending messages into a   *)
(* network; the coordinator collects yes votes, decides, and sends its    *)
(* decision to every participant.  Messages are never lost, so the        *)
(* network is modelled as the set of all messages sent so far.            *)
(***************************************************************************)
EXTENDS TLC

CONSTANT Parts

VARIABLES ps, coord, net

vars == <<ps, coord, net>>

Kinds == {"yes", "no", "commit", "abort"}

Msgs == [kind : Kinds, rm : Parts]

TypeOK ==
    /\ ps \in [Parts -> {"working", "prepared", "committed", "aborted"}]
    /\ coord \in [phase : {"collecting", "committed", "aborted"},
                  yes : SUBSET Parts]
    /\ net \subseteq Msgs

Init ==
    /\ ps = [p \in Parts |-> "working"]
    /\ coord = [phase |-> "collecting", yes |-> {}]
    /\ net = {}

\* Participant p is ready to commit and votes yes.
VoteYes(p) ==
    /\ ps[p] = "working"
    /\ ps' = [ps EXCEPT ![p] = "prepared"]
    /\ net' = net \cup {[kind |-> "yes", rm |-> p]}
    /\ UNCHANGED coord

\* Participant p cannot commit: it aborts on its own and votes no.
VoteNo(p) ==
    /\ ps[p] = "working"
    /\ ps' = [ps EXCEPT ![p] = "aborted"]
    /\ net' = net \cup {[kind |-> "no", rm |-> p]}
    /\ UNCHANGED coord

\* The coordinator records the yes vote of p.
Collect(p) ==
    /\ coord.phase = "collecting"
    /\ [kind |-> "yes", rm |-> p] \in net
    /\ p \notin coord.yes
    /\ coord' = [coord EXCEPT !.yes = @ \cup {p}]
    /\ UNCHANGED <<ps, net>>

\* Decision messages, one addressed to each participant.
Decision(k) == {[kind |-> k, rm |-> p] : p \in Parts}

Commit ==
    /\ coord.phase = "collecting"
    /\ coord.yes = Parts
    /\ coord' = [coord EXCEPT !.phase = "committed"]
    /\ net' = net \cup Decision("commit")
    /\ UNCHANGED ps

Abort ==
    /\ coord.phase = "collecting"
    /\ \E p \in Parts : [kind |-> "no", rm |-> p] \in net
    /\ coord' = [coord EXCEPT !.phase = "aborted"]
    /\ net' = net \cup Decision("abort")
    /\ UNCHANGED ps

\* A prepared participant learns the decision addressed to it.
Learn(p) ==
    /\ ps[p] = "prepared"
    /\ \/ /\ [kind |-> "commit", rm |-> p] \in net
          /\ ps' = [ps EXCEPT ![p] = "committed"]
       \/ /\ [kind |-> "abort", rm |-> p] \in net
          /\ ps' = [ps EXCEPT ![p] = "aborted"]
    /\ UNCHANGED <<coord, net>>

\* Every participant has finished: the protocol is over.
Done ==
    /\ coord.phase # "collecting"
    /\ \A p \in Parts : ps[p] \in {"committed", "aborted"}
    /\ UNCHANGED vars

Next ==
    \/ Commit \/ Abort \/ Done
    \/ \E p \in Parts : VoteYes(p) \/ VoteNo(p) \/ Collect(p) \/ Learn(p)

Spec == Init /\ [][Next]_vars

\* No participant commits while another aborts.
Consistent ==
    \A p, q \in Parts : ~(ps[p] = "committed" /\ ps[q] = "aborted")

\* A commit decision is only taken after every participant voted yes.
CommitNeedsAllYes ==
    coord.phase = "committed" =>
        \A p \in Parts : [kind |-> "yes", rm |-> p] \in net

PartSymmetry == Permutations(Parts)

=============================================================================
