"""Local generation speed of ``smollm2`` on CPU (batched vs one prompt at a time) and a store hit.

    HF_HUB_OFFLINE=1 python benchmarks/bench_models.py [--prompts 4] [--tokens 64] [--threads 1]

Tokens per second count the tokens each generation actually wrote (a sample may stop early at a
closing ``====`` line or end-of-sequence). The store hit is timed on a store that already holds the
generation, against the cost of generating one sample.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

from pytest_alias.models import DecodingParams, GenerationRequest, GenerationStore
from pytest_alias.models.local import create_smollm2
from pytest_alias.models.prompts import frontier_prompt

DESCRIPTIONS = ["An hour clock that ticks from 1 to 12.", "A bounded FIFO queue of capacity N.",
                "Dining philosophers with five forks.", "A barrier for N processes."]


def tokens_per_second(model, requests: list[GenerationRequest], params: DecodingParams) -> tuple[float, float]:
    """Generated tokens per second and wall seconds for ``requests`` in one ``generate`` call."""
    start = time.perf_counter()
    outs = model.generate(requests, params)
    seconds = time.perf_counter() - start
    return sum(o.usage["output_tokens"] for o in outs) / seconds, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=int, default=4)
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--threads", type=int, default=None, help="torch CPU threads (default: torch's)")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    start = time.perf_counter()
    model = create_smollm2(batch_size=args.prompts, threads=args.threads)
    print(f"load smollm2: {time.perf_counter() - start:.1f} s")
    requests = [GenerationRequest("bench", "original", i, frontier_prompt(DESCRIPTIONS[i % len(DESCRIPTIONS)]), 0)
                for i in range(args.prompts)]
    params = DecodingParams(max_new_tokens=args.tokens)
    model.generate(requests[:1], DecodingParams(max_new_tokens=4))  # warm-up

    single_rates = [tokens_per_second(model, [request], params) for request in requests]
    single_tokens = sum(rate * secs for rate, secs in single_rates)
    single_seconds = sum(secs for _, secs in single_rates)
    batched_rate, batched_seconds = tokens_per_second(model, requests, params)
    single_rate = single_tokens / single_seconds
    print(f"one at a time: {single_rate:.1f} tok/s ({single_seconds:.1f} s for {args.prompts} prompts)")
    print(f"batch of {args.prompts}: {batched_rate:.1f} tok/s ({batched_seconds:.1f} s), "
          f"x{batched_rate / single_rate:.2f} throughput")

    with tempfile.TemporaryDirectory() as scratch:
        store = GenerationStore(scratch)
        store.generate(model, requests[:1], params)
        start = time.perf_counter()
        rounds = 200
        for _ in range(rounds):
            [hit] = store.generate(model, requests[:1], params)
        hit_seconds = (time.perf_counter() - start) / rounds
        assert hit.from_store
    per_sample = single_seconds / args.prompts
    print(f"store hit: {hit_seconds * 1e3:.2f} ms; a fresh sample costs {per_sample:.1f} s "
          f"(x{per_sample / hit_seconds:,.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
