------------------------------- MODULE Phases -------------------------------
(***************************************************************************)
(* A device with no data of its own moves through phases: after waking it *)
(* either works and then sleeps, or goes straight back to sleep; sleeping  *)
(* ends the run.  Its only state is where its control is.                  *)
(***************************************************************************)

(* --algorithm Phases
begin
Wake:  either goto Work;
       or     goto Sleep;
       end either;
Work:  skip;
Sleep: skip;
end algorithm; *)
\* BEGIN TRANSLATION
VARIABLE pc

vars == << pc >>

Init == pc = "Wake"

Wake == /\ pc = "Wake"
        /\ \/ /\ pc' = "Work"
           \/ /\ pc' = "Sleep"

Work == /\ pc = "Work"
        /\ TRUE
        /\ pc' = "Sleep"

Sleep == /\ pc = "Sleep"
         /\ TRUE
         /\ pc' = "Done"

(* Allow infinite stuttering to prevent deadlock on termination. *)
Terminating == pc = "Done" /\ UNCHANGED vars

Next == Wake \/ Work \/ Sleep
           \/ Terminating

Spec == /\ Init /\ [][Next]_vars
        /\ WF_vars(Next)

Termination == <>(pc = "Done")

\* END TRANSLATION

TypeOK == pc \in {"Wake", "Work", "Sleep", "Done"}
=============================================================================
