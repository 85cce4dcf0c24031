"""The exposure experiment (paper Experiment 2): split, LoRA fine-tuning, likelihoods, analysis.

* :mod:`.split` — halves A and B of the test tasks and the shared training pool;
* :mod:`.data` — the training examples of the task-pair and spec-only arms, with the loss mask;
* :mod:`.finetune` / :mod:`.training` — appendix E's LoRA fine-tuning, resumable;
* :mod:`.doses` — named exposure doses: appendix E's, and a strong one that makes a small model
  reproduce what it saw;
* :mod:`.likelihood` — mean token log-likelihood of each reference, inside and outside renamed names,
  and the membership signals (Min-K%, Min-K%++, zlib ratio);
* :mod:`.analysis` / :mod:`.tables` — exposure effect, DiD and unseen cost (Table 2, F.1, O.1, appendix N);
* :mod:`.signals` / :mod:`.detection` — every contamination signal's per-task values, and how well
  each tells seen from unseen tasks (AUROC with a task bootstrap, flag counts at a fixed rule).

torch, transformers and peft are imported only by the functions that train or score.
"""
