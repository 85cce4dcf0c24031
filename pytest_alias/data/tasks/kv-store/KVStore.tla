------------------------------ MODULE KVStore ------------------------------
(***************************************************************************)
(* A key-value store with put and delete operations.  Besides the map     *)
(* itself the store keeps a short audit log of the latest operations as a *)
(* sequence of records; when the log is full, the oldest entry is dropped. *)
(***************************************************************************)
EXTENDS Naturals, Sequences

CONSTANTS Keys, Vals, NoVal, MaxLog

ASSUME /\ NoVal \notin Vals
       /\ MaxLog \in Nat /\ MaxLog > 0

VARIABLES store, log

vars == <<store, log>>

Entry == [op : {"put", "del"}, key : Keys, val : Vals \cup {NoVal}]

TypeOK ==
    /\ store \in [Keys -> Vals \cup {NoVal}]
    /\ log \in Seq(Entry)
    /\ Len(log) <= MaxLog

Init ==
    /\ store = [k \in Keys |-> NoVal]
    /\ log = <<>>

\* Append e to the log, dropping the oldest entry when the log is full.
Logged(e) ==
    IF Len(log) = MaxLog THEN Append(Tail(log), e) ELSE Append(log, e)

Put(k, v) ==
    /\ store' = [store EXCEPT ![k] = v]
    /\ log' = Logged([op |-> "put", key |-> k, val |-> v])

Delete(k) ==
    /\ store[k] # NoVal
    /\ store' = [store EXCEPT ![k] = NoVal]
    /\ log' = Logged([op |-> "del", key |-> k, val |-> NoVal])

Next ==
    \/ \E k \in Keys, v \in Vals : Put(k, v)
    \/ \E k \in Keys : Delete(k)

Spec == Init /\ [][Next]_vars

\* The newest log entry is reflected in the store.
LastWriteWins ==
    log # <<>> =>
        LET e == log[Len(log)] IN store[e.key] = e.val

\* A delete is only logged for a key that held a value just before it.
DeleteFollowsValue ==
    \A i \in 2..Len(log) :
        log[i].op = "del" /\ log[i - 1].key = log[i].key => log[i - 1].op = "put"

=============================================================================
