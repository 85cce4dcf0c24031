----------------------------- MODULE FastMutex2 ----------------------------- 

\* This tests the translation when there are two different processes

EXTENDS Naturals, TLC

CONSTANT N, M

ASSUME (N \in Nat) /\ (M \in Nat)

(**********************
--algorithm FastMutex
  variables x = 0 ; y = 0 ; b = [i \in 1..N |-> FALSE] ; 
process Proc1 \in 1..M
variables j = 0 ; failed = FALSE ; 
begin
start : while TRUE
         do l1 : b[self] := TRUE ;
            l2 : x := self ;
            l3 : if y # 0
                   then l4 : b[self] := FALSE ;
                        l5 : when y = 0 ; skip ;
                   else l6 : y := self ;
                        l7 : if x # self 
                               then l8 : b[self] := FALSE ;
                                         j := 1 ;
                                    l9 : while (j \leq N)
                                           do when ~b[j] ;
                                              j := j+1 ;
                                         end while ;
                                    l10 : if y # self
                                            then when y = 0 ;
                                                 failed := TRUE ;
                                          end if;
                             end if ;
                        cs : if ~ failed
                               then       skip ; \* the critical section
                                    l11 : y := 0 ;
                                    l12 : b[self] := FALSE ;
                               else failed := FALSE ;
                             end if ;
                  end if ;
        end while ;
end process
process Proc2 \in (M+1)..N
variables j2 = 0 ; failed2 = FALSE ; 
begin
2start : while TRUE
         do 2l1 : b[self] := TRUE ;
            2l2 : x := self ;
            2l3 : if y # 0
                   then 2l4 : b[self] := FALSE ;
                        2l5 : when y = 0 ; skip ;
                   else 2l6 : y := self ;
                        2l7 : if x # self 
                               then 2l8 : b[self] := FALSE ;
                                         j2 := 1 ;
                                    2l9 : while (j2 \leq N)
                                           do when ~b[j2] ;
                                              j2 := j2+1 ;
                                         end while ;
                                    2l10 : if y # self
                                            then when y = 0 ;
                                                 failed2 := TRUE ;
                                          end if;
                             end if ;
                        2cs : if ~ failed2
                               then       skip ; \* the critical section
                                    2l11 : y := 0 ;
                                    2l12 : b[self] := FALSE ;
                               else failed2 := FALSE ;
                             end if ;
                  end if ;
        end while ;
end process
end algorithm

***********************)

\* BEGIN TRANSLATION (chksum(pcal) = "1f4110ad" /\ chksum(tla) = "367cd10c")
VARIABLES pc, x, y, b, j, failed, j2, failed2

vars == << pc, x, y, b, j, failed, j2, failed2 >>

ProcSet == (1..M) \cup ((M+1)..N)

Init == (* Global variables *)
        /\ x = 0
        /\ y = 0
        /\ b = [i \in 1..N |-> FALSE]
        (* Process Proc1 *)
        /\ j = [self \in 1..M |-> 0]
        /\ failed = [self \in 1..M |-> FALSE]
        (* Process Proc2 *)
        /\ j2 = [self \in (M+1)..N |-> 0]
        /\ failed2 = [self \in (M+1)..N |-> FALSE]
        /\ pc = [self \in ProcSet |-> CASE self \in 1..M -> "start"
                                        [] self \in (M+1)..N -> "2start"]

start(self) == /\ pc[self] = "start"
               /\ pc' = [pc EXCEPT ![self] = "l1"]
               /\ UNCHANGED << x, y, b, j, failed, j2, failed2 >>

l1(self) == /\ pc[self] = "l1"
            /\ b' = [b EXCEPT ![self] = TRUE]
            /\ pc' = [pc EXCEPT ![self] = "l2"]
            /\ UNCHANGED << x, y, j, failed, j2, failed2 >>

l2(self) == /\ pc[self] = "l2"
            /\ x' = self
            /\ pc' = [pc EXCEPT ![self] = "l3"]
            /\ UNCHANGED << y, b, j, failed, j2, failed2 >>

l3(self) == /\ pc[self] = "l3"
            /\ IF y # 0
                  THEN /\ pc' = [pc EXCEPT ![self] = "l4"]
                  ELSE /\ pc' = [pc EXCEPT ![self] = "l6"]
            /\ UNCHANGED << x, y, b, j, failed, j2, failed2 >>

l4(self) == /\ pc[self] = "l4"
            /\ b' = [b EXCEPT ![self] = FALSE]
            /\ pc' = [pc EXCEPT ![self] = "l5"]
            /\ UNCHANGED << x, y, j, failed, j2, failed2 >>

l5(self) == /\ pc[self] = "l5"
            /\ y = 0
            /\ TRUE
            /\ pc' = [pc EXCEPT ![self] = "start"]
            /\ UNCHANGED << x, y, b, j, failed, j2, failed2 >>

l6(self) == /\ pc[self] = "l6"
            /\ y' = self
            /\ pc' = [pc EXCEPT ![self] = "l7"]
            /\ UNCHANGED << x, b, j, failed, j2, failed2 >>

l7(self) == /\ pc[self] = "l7"
            /\ IF x # self
                  THEN /\ pc' = [pc EXCEPT ![self] = "l8"]
                  ELSE /\ pc' = [pc EXCEPT ![self] = "cs"]
            /\ UNCHANGED << x, y, b, j, failed, j2, failed2 >>

l8(self) == /\ pc[self] = "l8"
            /\ b' = [b EXCEPT ![self] = FALSE]
            /\ j' = [j EXCEPT ![self] = 1]
            /\ pc' = [pc EXCEPT ![self] = "l9"]
            /\ UNCHANGED << x, y, failed, j2, failed2 >>

l9(self) == /\ pc[self] = "l9"
            /\ IF (j[self] \leq N)
                  THEN /\ ~b[j[self]]
                       /\ j' = [j EXCEPT ![self] = j[self]+1]
                       /\ pc' = [pc EXCEPT ![self] = "l9"]
                  ELSE /\ pc' = [pc EXCEPT ![self] = "l10"]
                       /\ j' = j
            /\ UNCHANGED << x, y, b, failed, j2, failed2 >>

l10(self) == /\ pc[self] = "l10"
             /\ IF y # self
                   THEN /\ y = 0
                        /\ failed' = [failed EXCEPT ![self] = TRUE]
                   ELSE /\ TRUE
                        /\ UNCHANGED failed
             /\ pc' = [pc EXCEPT ![self] = "cs"]
             /\ UNCHANGED << x, y, b, j, j2, failed2 >>

cs(self) == /\ pc[self] = "cs"
            /\ IF ~ failed[self]
                  THEN /\ TRUE
                       /\ pc' = [pc EXCEPT ![self] = "l11"]
                       /\ UNCHANGED failed
                  ELSE /\ failed' = [failed EXCEPT ![self] = FALSE]
                       /\ pc' = [pc EXCEPT ![self] = "start"]
            /\ UNCHANGED << x, y, b, j, j2, failed2 >>

l11(self) == /\ pc[self] = "l11"
             /\ y' = 0
             /\ pc' = [pc EXCEPT ![self] = "l12"]
             /\ UNCHANGED << x, b, j, failed, j2, failed2 >>

l12(self) == /\ pc[self] = "l12"
             /\ b' = [b EXCEPT ![self] = FALSE]
             /\ pc' = [pc EXCEPT ![self] = "start"]
             /\ UNCHANGED << x, y, j, failed, j2, failed2 >>

Proc1(self) == start(self) \/ l1(self) \/ l2(self) \/ l3(self) \/ l4(self)
                  \/ l5(self) \/ l6(self) \/ l7(self) \/ l8(self)
                  \/ l9(self) \/ l10(self) \/ cs(self) \/ l11(self)
                  \/ l12(self)

2start(self) == /\ pc[self] = "2start"
                /\ pc' = [pc EXCEPT ![self] = "2l1"]
                /\ UNCHANGED << x, y, b, j, failed, j2, failed2 >>

2l1(self) == /\ pc[self] = "2l1"
             /\ b' = [b EXCEPT ![self] = TRUE]
             /\ pc' = [pc EXCEPT ![self] = "2l2"]
             /\ UNCHANGED << x, y, j, failed, j2, failed2 >>

2l2(self) == /\ pc[self] = "2l2"
             /\ x' = self
             /\ pc' = [pc EXCEPT ![self] = "2l3"]
             /\ UNCHANGED << y, b, j, failed, j2, failed2 >>

2l3(self) == /\ pc[self] = "2l3"
             /\ IF y # 0
                   THEN /\ pc' = [pc EXCEPT ![self] = "2l4"]
                   ELSE /\ pc' = [pc EXCEPT ![self] = "2l6"]
             /\ UNCHANGED << x, y, b, j, failed, j2, failed2 >>

2l4(self) == /\ pc[self] = "2l4"
             /\ b' = [b EXCEPT ![self] = FALSE]
             /\ pc' = [pc EXCEPT ![self] = "2l5"]
             /\ UNCHANGED << x, y, j, failed, j2, failed2 >>

2l5(self) == /\ pc[self] = "2l5"
             /\ y = 0
             /\ TRUE
             /\ pc' = [pc EXCEPT ![self] = "2start"]
             /\ UNCHANGED << x, y, b, j, failed, j2, failed2 >>

2l6(self) == /\ pc[self] = "2l6"
             /\ y' = self
             /\ pc' = [pc EXCEPT ![self] = "2l7"]
             /\ UNCHANGED << x, b, j, failed, j2, failed2 >>

2l7(self) == /\ pc[self] = "2l7"
             /\ IF x # self
                   THEN /\ pc' = [pc EXCEPT ![self] = "2l8"]
                   ELSE /\ pc' = [pc EXCEPT ![self] = "2cs"]
             /\ UNCHANGED << x, y, b, j, failed, j2, failed2 >>

2l8(self) == /\ pc[self] = "2l8"
             /\ b' = [b EXCEPT ![self] = FALSE]
             /\ j2' = [j2 EXCEPT ![self] = 1]
             /\ pc' = [pc EXCEPT ![self] = "2l9"]
             /\ UNCHANGED << x, y, j, failed, failed2 >>

2l9(self) == /\ pc[self] = "2l9"
             /\ IF (j2[self] \leq N)
                   THEN /\ ~b[j2[self]]
                        /\ j2' = [j2 EXCEPT ![self] = j2[self]+1]
                        /\ pc' = [pc EXCEPT ![self] = "2l9"]
                   ELSE /\ pc' = [pc EXCEPT ![self] = "2l10"]
                        /\ j2' = j2
             /\ UNCHANGED << x, y, b, j, failed, failed2 >>

2l10(self) == /\ pc[self] = "2l10"
              /\ IF y # self
                    THEN /\ y = 0
                         /\ failed2' = [failed2 EXCEPT ![self] = TRUE]
                    ELSE /\ TRUE
                         /\ UNCHANGED failed2
              /\ pc' = [pc EXCEPT ![self] = "2cs"]
              /\ UNCHANGED << x, y, b, j, failed, j2 >>

2cs(self) == /\ pc[self] = "2cs"
             /\ IF ~ failed2[self]
                   THEN /\ TRUE
                        /\ pc' = [pc EXCEPT ![self] = "2l11"]
                        /\ UNCHANGED failed2
                   ELSE /\ failed2' = [failed2 EXCEPT ![self] = FALSE]
                        /\ pc' = [pc EXCEPT ![self] = "2start"]
             /\ UNCHANGED << x, y, b, j, failed, j2 >>

2l11(self) == /\ pc[self] = "2l11"
              /\ y' = 0
              /\ pc' = [pc EXCEPT ![self] = "2l12"]
              /\ UNCHANGED << x, b, j, failed, j2, failed2 >>

2l12(self) == /\ pc[self] = "2l12"
              /\ b' = [b EXCEPT ![self] = FALSE]
              /\ pc' = [pc EXCEPT ![self] = "2start"]
              /\ UNCHANGED << x, y, j, failed, j2, failed2 >>

Proc2(self) == 2start(self) \/ 2l1(self) \/ 2l2(self) \/ 2l3(self)
                  \/ 2l4(self) \/ 2l5(self) \/ 2l6(self) \/ 2l7(self)
                  \/ 2l8(self) \/ 2l9(self) \/ 2l10(self) \/ 2cs(self)
                  \/ 2l11(self) \/ 2l12(self)

Next == (\E self \in 1..M: Proc1(self))
           \/ (\E self \in (M+1)..N: Proc2(self))

Spec == /\ Init /\ [][Next]_vars
        /\ \A self \in 1..M : WF_vars(Proc1(self))
        /\ \A self \in (M+1)..N : WF_vars(Proc2(self))

\* END TRANSLATION

ASSUME Print(<<"ProcSet =" , ProcSet>>, TRUE)
inCS(i) ==  IF i \in 1..M 
              THEN (pc[i] = "cs") /\ (~failed[i])
              ELSE (pc[i] = "2cs") /\ (~failed2[i])

Invariant == \A i, k \in 1..N : (i # k) => ~ (inCS(i) /\ inCS(k))

Liveness == []<> \E i \in 1..N : inCS(i)
=============================================================================
