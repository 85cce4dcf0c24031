------------------------------ MODULE Flooding ------------------------------
(***************************************************************************)
(* A root floods a message over a complete network of nodes.  Each node    *)
(* that receives the message for the first time records the node it came *)
(* from as its parent, so the parents form a spanning tree rooted at the   *)
(* root.  NoParent is a value that is not a node.                          *)
(***************************************************************************)
CONSTANTS Node, Root

NoParent == CHOOSE p : p \notin Node

VARIABLES parent, reached

vars == <<parent, reached>>

Init == /\ parent = [n \in Node |-> NoParent]
        /\ reached = {Root}

Visit(m, n) == /\ m \in reached
               /\ n \notin reached
               /\ parent' = [parent EXCEPT ![n] = m]
               /\ reached' = reached \cup {n}

Done == /\ reached = Node
        /\ UNCHANGED vars

Next == (\E m, n \in Node : Visit(m, n)) \/ Done

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)

TypeOK == /\ parent \in [Node -> Node \cup {NoParent}]
          /\ reached \subseteq Node

TreeOK == \A n \in reached \ {Root} : parent[n] \in reached

AllReached == <>(reached = Node)
=============================================================================
