#!/usr/bin/env bash
# The exposure experiment on a GPU for a 7B–14B base (paper Experiment 2), as a GPU run would execute it.
#
#   BASE=/models/Qwen2.5-Coder-14B-Instruct TEST=tlabench:/data/TLA-Bench POOL=tlabench:/data/TLA-Bench-train \
#     bash benchmarks/exposure_gpu.sh [OUT]
#
# BASE is a local Hugging Face model folder (nothing is downloaded); TEST is the test suite and POOL
# the training pool (the paper: 111 test tasks, 292 pool tasks). Every setting is the paper's unless
# said here: fp16 base weights with LoRA in fp32 on top (appendix E; DTYPE=bf16 LORA_LAYERS=text for
# Gemma 4, appendix F), no weight decay, no prefill (the answer is the model's alone).
# Every step resumes: rerun the script after an interruption.
set -euo pipefail
: "${BASE:?set BASE to a local model folder}"
TEST="${TEST:-builtin}"
POOL="${POOL:-}"
OUT="${1:-exposure-gpu}"
SAMPLES="${SAMPLES:-5}"
DTYPE="${DTYPE:-fp16}"
LORA_LAYERS="${LORA_LAYERS:-all}"
mkdir -p "$OUT"

if [ ! -f "$OUT/split.json" ]; then
  tla-alias split "$TEST" ${POOL:+--pool "$POOL"} --seed 20260926 --out "$OUT/split.json"
fi
for ARM in task-pair spec-only; do
  for HALF in A B; do
    tla-alias finetune --base "hf:$BASE" --split "$OUT/split.json" --half "$HALF" --arm "$ARM" --out "$OUT/$ARM-$HALF" \
      --dtype "$DTYPE" --lora-layers "$LORA_LAYERS"
    [ -f "$OUT/likelihood-$ARM-$HALF.jsonl" ] || tla-alias likelihood --model "hf:$BASE?lora=$OUT/$ARM-$HALF" \
      --suite "$TEST" --batch-size 8 --out "$OUT/likelihood-$ARM-$HALF.jsonl"
  done
  # Correctness: both models of the arm side by side in one run, graded by name and by behavior.
  pytest -p no:cacheprovider --alias-suite="$TEST" \
    --alias-model="hf:$BASE?lora=$OUT/$ARM-A" --alias-model="hf:$BASE?lora=$OUT/$ARM-B" \
    --alias-samples="$SAMPLES" --alias-max-new-tokens=1024 --alias-prefill=none --alias-grade=all --alias-no-fail -n 8 \
    --alias-report "$OUT/records-$ARM.json" -q
done
tla-alias exposure "$OUT"/records-*.json "$OUT"/likelihood-*.jsonl --split "$OUT/split.json" \
  --markdown "$OUT/exposure.md" --json "$OUT/exposure.json" --html "$OUT/exposure.html"
