------------------------------ MODULE Peterson ------------------------------
(***************************************************************************)
(* Peterson's mutual exclusion algorithm for two processes, numbered 0    *)
(* and 1, written in PlusCal.  A process announces its interest with its  *)
(* flag, then politely gives the turn to the other process, and enters    *)
(* its critical section when the other is not interested or it has been   *)
(* given the turn back.                                                    *)
(***************************************************************************)
EXTENDS Naturals

(* --algorithm Peterson
variables flag = [i \in {0, 1} |-> FALSE], turn = 0;

define
    Other(i) == 1 - i
end define;

fair process Proc \in {0, 1}
begin
ncs:      while TRUE do
setFlag:    flag[self] := TRUE;
giveTurn:   turn := Other(self);
waitTurn:   await ~flag[Other(self)] \/ turn = self;
cs:         skip;
leave:      flag[self] := FALSE;
          end while;
end process;
end algorithm; *)
\* BEGIN TRANSLATION
VARIABLES flag, turn, pc

(* define statement *)
Other(i) == 1 - i


vars == << flag, turn, pc >>

ProcSet == ({0, 1})

Init == (* Global variables *)
        /\ flag = [i \in {0, 1} |-> FALSE]
        /\ turn = 0
        /\ pc = [self \in ProcSet |-> "ncs"]

ncs(self) == /\ pc[self] = "ncs"
             /\ pc' = [pc EXCEPT ![self] = "setFlag"]
             /\ UNCHANGED << flag, turn >>

setFlag(self) == /\ pc[self] = "setFlag"
                 /\ flag' = [flag EXCEPT ![self] = TRUE]
                 /\ pc' = [pc EXCEPT ![self] = "giveTurn"]
                 /\ turn' = turn

giveTurn(self) == /\ pc[self] = "giveTurn"
                  /\ turn' = Other(self)
                  /\ pc' = [pc EXCEPT ![self] = "waitTurn"]
                  /\ flag' = flag

waitTurn(self) == /\ pc[self] = "waitTurn"
                  /\ ~flag[Other(self)] \/ turn = self
                  /\ pc' = [pc EXCEPT ![self] = "cs"]
                  /\ UNCHANGED << flag, turn >>

cs(self) == /\ pc[self] = "cs"
            /\ TRUE
            /\ pc' = [pc EXCEPT ![self] = "leave"]
            /\ UNCHANGED << flag, turn >>

leave(self) == /\ pc[self] = "leave"
               /\ flag' = [flag EXCEPT ![self] = FALSE]
               /\ pc' = [pc EXCEPT ![self] = "ncs"]
               /\ turn' = turn

Proc(self) == ncs(self) \/ setFlag(self) \/ giveTurn(self)
                 \/ waitTurn(self) \/ cs(self) \/ leave(self)

(* Allow infinite stuttering to prevent deadlock on termination. *)
Terminating == /\ \A self \in ProcSet: pc[self] = "Done"
               /\ UNCHANGED vars

Next == (\E self \in {0, 1}: Proc(self))
           \/ Terminating

Spec == /\ Init /\ [][Next]_vars
        /\ \A self \in {0, 1} : WF_vars(Proc(self))

Termination == <>(\A self \in ProcSet: pc[self] = "Done")

\* END TRANSLATION

TypeOK ==
    /\ flag \in [{0, 1} -> BOOLEAN]
    /\ turn \in {0, 1}
    /\ pc \in [{0, 1} -> {"ncs", "setFlag", "giveTurn", "waitTurn", "cs", "leave"}]

\* The two processes are never in their critical sections together.
MutualExclusion == ~(pc[0] = "cs" /\ pc[1] = "cs")

\* A process that waits for the critical section eventually gets in.
NoStarvation == \A i \in {0, 1} : (pc[i] = "waitTurn") ~> (pc[i] = "cs")

=============================================================================
