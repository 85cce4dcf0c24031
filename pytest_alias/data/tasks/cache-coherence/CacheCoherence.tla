--------------------------- MODULE CacheCoherence ---------------------------
(***************************************************************************)
(* A write-back invalidation protocol in the style of MSI for several     *)
(* caches in front of one memory word.  A cache line is Invalid, Shared   *)
(* (clean, read only) or Modified (dirty, exclusive).  Bus actions are    *)
(* atomic: a read miss fetches the latest value, writing back a dirty     *)
(* copy held elsewhere; a write invalidates every other copy.             *)
(***************************************************************************)
EXTENDS TLC

CONSTANTS Caches, Vals

VARIABLES line, data, mem

vars == <<line, data, mem>>

TypeOK ==
    /\ line \in [Caches -> {"I", "S", "M"}]
    /\ data \in [Caches -> Vals]
    /\ mem \in Vals

\* The value a reader must see: the dirty copy if there is one, else memory.
Current ==
    IF \E c \in Caches : line[c] = "M"
        THEN data[CHOOSE c \in Caches : line[c] = "M"]
        ELSE mem

Init ==
    /\ line = [c \in Caches |-> "I"]
    /\ mem \in Vals
    /\ data = [c \in Caches |-> mem]

\* Read miss: fetch the current value; a dirty owner writes back and shares.
Read(c) ==
    /\ line[c] = "I"
    /\ data' = [data EXCEPT ![c] = Current]
    /\ mem' = Current
    /\ line' = [d \in Caches |->
                  IF d = c \/ line[d] = "M" THEN "S" ELSE line[d]]

\* Write v in cache c, invalidating every other copy.
Write(c, v) ==
    /\ line' = [d \in Caches |-> IF d = c THEN "M" ELSE "I"]
    /\ data' = [data EXCEPT ![c] = v]
    /\ UNCHANGED mem

\* Drop a line, writing it back first if it is dirty.
Evict(c) ==
    /\ line[c] # "I"
    /\ mem' = IF line[c] = "M" THEN data[c] ELSE mem
    /\ line' = [line EXCEPT ![c] = "I"]
    /\ UNCHANGED data

Next ==
    \E c \in Caches :
        \/ Read(c)
        \/ Evict(c)
        \/ \E v \in Vals : Write(c, v)

Spec == Init /\ [][Next]_vars

\* A Modified line is the only valid copy.
SingleWriter ==
    \A c, d \in Caches : line[c] = "M" /\ d # c => line[d] = "I"

\* Every valid copy holds the current value.
Coherence ==
    \A c \in Caches : line[c] # "I" => data[c] = Current

\* Memory is stale only while some line is dirty.
CleanMeansMemoryUpToDate ==
    (\A c \in Caches : line[c] # "M") => \A c \in Caches : line[c] = "S" => data[c] = mem

CacheSymmetry == Permutations(Caches)

=============================================================================
