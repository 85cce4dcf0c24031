"""The exposure experiment (paper Experiment 2): split, LoRA fine-tuning, likelihoods, analysis.

* :mod:`.split` — halves A and B of the test tasks and the shared training pool;
* :mod:`.data` — the training examples of the task-pair and spec-only arms, with the loss mask;
* :mod:`.finetune` / :mod:`.training` — appendix E's LoRA fine-tuning, resumable;
* :mod:`.likelihood` — mean token log-likelihood of each reference, inside and outside renamed names,
  and the membership signals (Min-K%, Min-K%++, zlib ratio);
* :mod:`.analysis` / :mod:`.tables` — exposure effect, DiD and unseen cost (Table 2, F.1, O.1, appendix N);
* :mod:`.detection` — each membership signal's AUROC of seen versus unseen tasks.

torch, transformers and peft are imported only by the functions that train or score.
"""
