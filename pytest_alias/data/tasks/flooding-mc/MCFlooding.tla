----------------------------- MODULE MCFlooding -----------------------------
(* The model TLC checks: three nodes, flooding from node "a". *)
EXTENDS Flooding

MCNode == {"a", "b", "c"}
MCRoot == "a"
=============================================================================
