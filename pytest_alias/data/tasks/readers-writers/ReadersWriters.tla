--------------------------- MODULE ReadersWriters ---------------------------
(***************************************************************************)
(* Readers and writers share one resource.  Many readers may use it at    *)
(* once, a writer needs it alone.  Writers announce themselves first, and *)
(* while any writer is waiting no new reader may start, so a stream of    *)
(* readers cannot lock the writers out.                                    *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets, TLC

CONSTANTS Readers, Writers

ASSUME Readers \cap Writers = {}

VARIABLES rd, wr, want

vars == <<rd, wr, want>>

TypeOK ==
    /\ rd \subseteq Readers
    /\ wr \subseteq Writers
    /\ want \subseteq Writers

Init ==
    /\ rd = {}
    /\ wr = {}
    /\ want = {}

StartRead(r) ==
    /\ r \notin rd
    /\ wr = {}
    /\ want = {}
    /\ rd' = rd \cup {r}
    /\ UNCHANGED <<wr, want>>

EndRead(r) ==
    /\ r \in rd
    /\ rd' = rd \ {r}
    /\ UNCHANGED <<wr, want>>

AskWrite(w) ==
    /\ w \notin want \cup wr
    /\ want' = want \cup {w}
    /\ UNCHANGED <<rd, wr>>

StartWrite(w) ==
    /\ w \in want
    /\ rd = {}
    /\ wr = {}
    /\ wr' = {w}
    /\ want' = want \ {w}
    /\ UNCHANGED rd

EndWrite(w) ==
    /\ w \in wr
    /\ wr' = {}
    /\ UNCHANGED <<rd, want>>

Next ==
    \/ \E r \in Readers : StartRead(r) \/ EndRead(r)
    \/ \E w \in Writers : AskWrite(w) \/ StartWrite(w) \/ EndWrite(w)

Spec == Init /\ [][Next]_vars

NoReadWhileWriting == wr # {} => rd = {}

OneWriterAtATime == Cardinality(wr) <= 1

RWSymmetry == Permutations(Readers) \cup Permutations(Writers)

=============================================================================
