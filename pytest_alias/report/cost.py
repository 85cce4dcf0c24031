"""The cost of a run: the estimate made before generating (``run.estimate``) as lines, and the usage
the records say was actually spent, per model, so the two can be set side by side."""

from __future__ import annotations

from typing import Any, Iterable, Mapping


def _dollars(value: float | None) -> str:
    return "no price" if value is None else f"${value:,.4f}"


def _tokens(value: float | None) -> str:
    return "?" if value is None else f"{round(value):,}"


def estimate_lines(estimate: Mapping[str, Any]) -> list[str]:
    """The estimate as terminal lines: per model, requests, tokens and dollars (list and batch)."""
    lines = [f"alias dry run: nothing is sent (generation store mode {estimate['store']})"]
    for entry in estimate["models"]:
        mode = {True: "batch", False: "direct calls", None: "local"}.get(entry.get("batch"), "local")
        lines.append(f"model {entry['model']} ({entry['identity']}): {entry['to_send']} request(s) to send, "
                     f"{entry['stored']} already stored (of {entry['requests']})")
        if estimate["store"] == "ro" and entry["to_send"]:
            lines.append("  (store mode ro: a real run would stop at these missing outputs)")
        lines.append(f"  input tokens ~{_tokens(entry['input_tokens'])} ({entry['input_source']})")
        per = entry["output_tokens_per_request"]
        lines.append(f"  output tokens ~{_tokens(entry['output_tokens'])} "
                     f"({_tokens(per)} per request: {entry['output_source']})")
        if entry["price"] is None:
            lines.append("  cost: no price for this model (local, or set price=IN,OUT in its spec)")
        else:
            lines.append(f"  cost: {_dollars(entry['cost_usd'])} at list price "
                         f"(${entry['price']['input_per_mtok']:g}/${entry['price']['output_per_mtok']:g} per million "
                         f"input/output tokens), {_dollars(entry['cost_batch_usd'])} with the batch discount "
                         f"(x{entry['batch_discount']:g}); this run would use {mode}")
    return lines


def actual_usage(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per model, what the records' generations spent: requests answered by the model in this run
    (stored ones counted apart), their reported input and output tokens and their cost in dollars
    (None when no generation was priced)."""
    out: dict[str, dict[str, Any]] = {}
    for record in records:
        generation = record.get("generation") or {}
        entry = out.setdefault(record["model"], {"sent": 0, "stored": 0, "failed": 0, "input_tokens": 0,
                                                 "output_tokens": 0, "cost_usd": None})
        if generation.get("error") is not None:
            entry["failed"] += 1
        elif generation.get("from_store"):
            entry["stored"] += 1
            continue
        else:
            entry["sent"] += 1
        usage = generation.get("usage") or {}
        entry["input_tokens"] += int(usage.get("input_tokens") or 0)
        entry["output_tokens"] += int(usage.get("output_tokens") or 0)
        if generation.get("cost_usd") is not None:
            entry["cost_usd"] = (entry["cost_usd"] or 0.0) + float(generation["cost_usd"])
    return dict(sorted(out.items()))


#: The cost table's header and caption (every format).
COST_HEADER = ["model", "estimated (list)", "estimated (batch)", "requests to send", "spent", "sent", "stored", "failed"]
COST_CAPTION = "Cost per priced model: the estimate made before generating beside what was spent (metadata.cost)."


def cost_rows(estimate: Mapping[str, Any] | None, actual: Mapping[str, Mapping[str, Any]]) -> list[list[str]]:
    """Per priced model, the estimate made before generating beside what was spent."""
    rows = []
    for entry in (estimate or {}).get("models", []):
        spent = actual.get(entry["model"])
        if entry["price"] is None or spent is None:
            continue
        rows.append([entry["model"], _dollars(entry["cost_usd"]), _dollars(entry["cost_batch_usd"]),
                     str(entry["to_send"]), _dollars(spent["cost_usd"]), str(spent["sent"]), str(spent["stored"]),
                     str(spent["failed"])])
    return rows


def spent_lines(estimate: Mapping[str, Any] | None, actual: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The cost table as the terminal summary prints it: one line per priced model."""
    return [f"cost of {model}: estimated {listed} at list price, {batch} with the batch discount, for {to_send} "
            f"request(s); spent {spent} on {sent} ({stored} stored, {failed} failed; metadata.cost in the run's JSON)"
            for model, listed, batch, to_send, spent, sent, stored, failed in cost_rows(estimate, actual)]
