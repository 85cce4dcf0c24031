"""Controls that ask a model something other than a specification (paper appendices L and R).

* :mod:`.propose` — meaningful names proposed by a model, applied and re-verified like CIR;
* :mod:`.continuation` — file continuation: how much of a published file a model reproduces.

Both send their requests through the generation store, so a rerun asks the model nothing twice.
"""
