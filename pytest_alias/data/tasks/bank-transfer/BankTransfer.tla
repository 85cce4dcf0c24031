---------------------------- MODULE BankTransfer ----------------------------
(***************************************************************************)
(* Money moves between accounts in two steps: a transfer first debits the *)
(* source account and puts the amount in flight, and later credits the    *)
(* target account.  Transfers in flight are kept in a FIFO sequence of    *)
(* records.  Every transfer gets a fresh number, so the state space is    *)
(* unbounded and the model bounds it with a state constraint.             *)
(***************************************************************************)
EXTENDS Naturals, Sequences

CONSTANTS Accts, Initial, MaxTxn

ASSUME Initial \in Nat /\ MaxTxn \in Nat

VARIABLES bal, flight, txn

vars == <<bal, flight, txn>>

RECURSIVE SumOver(_, _)
SumOver(f, S) ==
    IF S = {} THEN 0
    ELSE LET a == CHOOSE x \in S : TRUE
         IN  f[a] + SumOver(f, S \ {a})

RECURSIVE InFlight(_)
InFlight(s) == IF s = <<>> THEN 0 ELSE Head(s).amt + InFlight(Tail(s))

Total == Initial * SumOver([a \in Accts |-> 1], Accts)

Transfer == [id : Nat, src : Accts, dst : Accts, amt : Nat \ {0}]

TypeOK ==
    /\ bal \in [Accts -> Nat]
    /\ flight \in Seq(Transfer)
    /\ txn \in Nat

Init ==
    /\ bal = [a \in Accts |-> Initial]
    /\ flight = <<>>
    /\ txn = 0

\* Debit amt from account s for a transfer to account d.
Withdraw(s, d, amt) ==
    /\ s # d
    /\ amt \in 1..bal[s]
    /\ bal' = [bal EXCEPT ![s] = @ - amt]
    /\ flight' = Append(flight, [id |-> txn, src |-> s, dst |-> d, amt |-> amt])
    /\ txn' = txn + 1

\* Credit the oldest transfer in flight to its target account.
Deposit ==
    /\ flight # <<>>
    /\ LET t == Head(flight) IN bal' = [bal EXCEPT ![t.dst] = @ + t.amt]
    /\ flight' = Tail(flight)
    /\ UNCHANGED txn

Next ==
    \/ \E s, d \in Accts, amt \in 1..Initial : Withdraw(s, d, amt)
    \/ Deposit

Spec == Init /\ [][Next]_vars

\* Money is neither created nor destroyed.
MoneyConserved == SumOver(bal, Accts) + InFlight(flight) = Total

\* Transfers in flight are credited in the order they were started.
FlightOrdered ==
    \A i, j \in 1..Len(flight) : i < j => flight[i].id < flight[j].id

\* Bound on the number of transfers explored by TLC.
TxnBound == txn <= MaxTxn

=============================================================================
