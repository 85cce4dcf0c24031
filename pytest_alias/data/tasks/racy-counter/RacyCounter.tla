---------------------------- MODULE RacyCounter ----------------------------
(***************************************************************************)
(* N worker processes each increment a shared counter Rounds times, but   *)
(* an increment is not atomic: a worker first reads the counter into a    *)
(* private register and later writes back the register plus one.  Lost   *)
(* updates are possible, so the final count can be below N * Rounds.     *)
(***************************************************************************)
EXTENDS Naturals

CONSTANTS N, Rounds

ASSUME N \in Nat /\ N > 0 /\ Rounds \in Nat /\ Rounds > 0

(* --algorithm RacyCounter
variables count = 0;

fair process Worker \in 1..N
variables tmp = 0, k = 0;
begin
loop:   while k < Rounds do
read:     tmp := count;
write:    count := tmp + 1;
          k := k + 1;
        end while;
end process;
end algorithm; *)
\* BEGIN TRANSLATION
VARIABLES count, pc, tmp, k

vars == << count, pc, tmp, k >>

ProcSet == (1..N)

Init == (* Global variables *)
        /\ count = 0
        (* Process Worker *)
        /\ tmp = [self \in 1..N |-> 0]
        /\ k = [self \in 1..N |-> 0]
        /\ pc = [self \in ProcSet |-> "loop"]

loop(self) == /\ pc[self] = "loop"
              /\ IF k[self] < Rounds
                    THEN /\ pc' = [pc EXCEPT ![self] = "read"]
                    ELSE /\ pc' = [pc EXCEPT ![self] = "Done"]
              /\ UNCHANGED << count, tmp, k >>

read(self) == /\ pc[self] = "read"
              /\ tmp' = [tmp EXCEPT ![self] = count]
              /\ pc' = [pc EXCEPT ![self] = "write"]
              /\ UNCHANGED << count, k >>

write(self) == /\ pc[self] = "write"
               /\ count' = tmp[self] + 1
               /\ k' = [k EXCEPT ![self] = k[self] + 1]
               /\ pc' = [pc EXCEPT ![self] = "loop"]
               /\ tmp' = tmp

Worker(self) == loop(self) \/ read(self) \/ write(self)

(* Allow infinite stuttering to prevent deadlock on termination. *)
Terminating == /\ \A self \in ProcSet: pc[self] = "Done"
               /\ UNCHANGED vars

Next == (\E self \in 1..N: Worker(self))
           \/ Terminating

Spec == /\ Init /\ [][Next]_vars
        /\ \A self \in 1..N : WF_vars(Worker(self))

Termination == <>(\A self \in ProcSet: pc[self] = "Done")

\* END TRANSLATION

TypeOK ==
    /\ count \in 0..(N * Rounds)
    /\ tmp \in [1..N -> 0..(N * Rounds)]
    /\ k \in [1..N -> 0..Rounds]
    /\ pc \in [1..N -> {"loop", "read", "write", "Done"}]

\* Once every worker has finished, at least one increment survived and
\* none was counted twice.
FinalCount ==
    (\A self \in ProcSet : pc[self] = "Done") => count \in 1..(N * Rounds)

=============================================================================
