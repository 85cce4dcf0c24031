"""Outputs shared by the name-rule tests of both doors (issue 50: appendix H's literal rule)."""

#: An HourClock with no TypeOK and no NoonRecurs, whose one other operator is the state predicate Good:
#: appendix H's rule checks Good in their place, the refined rule does not.
HOUR_CLOCK_GOOD = """---- MODULE HourClock ----
EXTENDS Naturals
VARIABLE hr
Good == hr \\in 1..12
Init == hr \\in 1..12
Next == hr' = IF hr = 12 THEN 1 ELSE hr + 1
Spec == Init /\\ [][Next]_hr /\\ WF_hr(Next)
====
"""
