-------------------------- MODULE TicketDispenser --------------------------
(***************************************************************************)
(* A take-a-number counter in a shop.  Customers draw numbered tickets    *)
(* from a dispenser and wait; a display shows the number now served, and  *)
(* the clerk calls the next number when the current customer is done.     *)
(* Ticket numbers grow without bound, so the module has no finite model;  *)
(* it is meant to be parsed and read, not model-checked.                  *)
(***************************************************************************)
EXTENDS Naturals

CONSTANT Customers

VARIABLES next, serving, ticket

vars == <<next, serving, ticket>>

NoTicket == 0

TypeOK ==
    /\ next \in Nat \ {0}
    /\ serving \in Nat
    /\ ticket \in [Customers -> Nat]

Init ==
    /\ next = 1
    /\ serving = 0
    /\ ticket = [c \in Customers |-> NoTicket]

\* Customer c, who holds no ticket, draws the next number.
Draw(c) ==
    /\ ticket[c] = NoTicket
    /\ ticket' = [ticket EXCEPT ![c] = next]
    /\ next' = next + 1
    /\ UNCHANGED serving

\* The clerk calls the next number once nobody holds the number on display.
CallNext ==
    /\ serving + 1 < next
    /\ \A c \in Customers : ticket[c] # serving \/ serving = NoTicket
    /\ serving' = serving + 1
    /\ UNCHANGED <<next, ticket>>

\* The customer whose number is on display is served and leaves.
Served(c) ==
    /\ ticket[c] # NoTicket
    /\ ticket[c] = serving
    /\ ticket' = [ticket EXCEPT ![c] = NoTicket]
    /\ UNCHANGED <<next, serving>>

Next ==
    \/ CallNext
    \/ \E c \in Customers : Draw(c) \/ Served(c)

Spec ==
    /\ Init /\ [][Next]_vars
    /\ WF_vars(CallNext)
    /\ \A c \in Customers : WF_vars(Served(c))

\* Two customers never hold the same number.
UniqueTickets ==
    \A c, d \in Customers :
        c # d /\ ticket[c] # NoTicket => ticket[c] # ticket[d]

\* Every held ticket is one that is still to be served or on display.
NoSkippedCustomer ==
    \A c \in Customers : ticket[c] # NoTicket => ticket[c] >= serving

\* Every customer who draws a ticket is eventually served.
EventuallyServed ==
    \A c \in Customers : ticket[c] # NoTicket ~> ticket[c] = NoTicket

THEOREM Spec => [](TypeOK /\ UniqueTickets /\ NoSkippedCustomer)

=============================================================================
