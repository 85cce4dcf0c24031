"""Text similarity of an output to its reference: BLEU-4 and ROUGE-L (paper, Appendix V).

Both scores compare an output with the reference of its own condition after the comments of
both texts are removed, so a model is not credited for copying (or blamed for omitting) prose.

Tokenization matters for TLA+: the default tokenizers of both libraries are built for English.
``rouge-score`` lowercases and drops every non-alphanumeric character, which would erase
``/\\``, ``\\/``, ``'``, ``=>`` and make ``x' = 1`` equal to ``x = 1``.  We therefore split the
code ourselves into identifier, number, string and operator tokens (:func:`tla_tokens`) and feed
the same tokens to both metrics:

* ``sacrebleu.sentence_bleu`` gets the tokens joined by single spaces with ``tokenize="none"``
  (sacrebleu then only splits on whitespace, so our tokens reach it unchanged); its defaults are
  kept otherwise: 4-gram BLEU, exponential smoothing, effective order, brevity penalty.
* ROUGE-L is the F-measure of the longest common token subsequence (precision over the output's
  tokens, recall over the reference's), as ``rouge-score``'s ``rougeL`` computes it with our
  tokenizer; the subsequence's length comes from ``rapidfuzz`` (bit-parallel, in C++), because
  ``rouge-score`` fills its table in Python: about 0.1 s per record on the built-in tasks, most of a
  run's grading time outside SANY and TLC. The tests check both give the same scores.

Tokens keep their case: ``Next`` and ``next`` are different TLA+ identifiers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sacrebleu
from rapidfuzz.distance import LCSseq

from ..tla.specfiles import strip_comments

__all__ = ["Similarity", "rouge_l", "similarity", "strip_tla_comments", "tla_tokens", "TlaTokenizer"]

# Order matters: longer operators must be tried before their prefixes (``<=>`` before ``<=``).
_TOKEN = re.compile(
    r"""
      "(?:[^"\\\n]|\\.)*"                 # string literal, kept whole
    | \\[A-Za-z]+                         # \in, \E, \union, \leq ...
    | [A-Za-z0-9_]*[A-Za-z_][A-Za-z0-9_]* # identifier or keyword (WF_ included)
    | \d+(?:\.\d+)?                       # number
    | -{4,} | ={4,}                       # module header and footer rules
    | <=>|\|->|->|<-|=>|==|>>_|<<|>>|\[\]|<>|~>|\.\.|::=|:=|>=|<=|=<|/=|/\\|\\/|\]_|\(\+\)|\(-\)|\+\+|--|\*\*|\|\|
    | \S                                  # any other single character
    """,
    re.VERBOSE,
)


@dataclass(frozen=True)
class Similarity:
    """BLEU-4 and ROUGE-L (F-measure) of an output against a reference, in percent (0-100)."""

    bleu4: float
    rouge_l: float


def strip_tla_comments(text: str) -> str:
    """``text`` without TLA+ comments (``(* ... *)``, nested, and ``\\*`` to end of line)."""
    return strip_comments(text)


def tla_tokens(text: str) -> list[str]:
    """Split TLA+ code into identifier, number, string and operator tokens (case kept)."""
    # A string literal holding whitespace would be cut apart by sacrebleu's whitespace split;
    # encode its spaces so that it stays one token for both metrics.
    return [re.sub(r"\s", "\u2423", tok) for tok in _TOKEN.findall(text)]


class TlaTokenizer:
    """A ``rouge-score`` tokenizer (it only needs ``tokenize``) that uses :func:`tla_tokens`."""

    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text``."""
        return tla_tokens(text)


def rouge_l(reference_tokens: list[str], output_tokens: list[str]) -> float:
    """ROUGE-L's F-measure (0-1) of ``output_tokens`` against ``reference_tokens``."""
    common = LCSseq.similarity(reference_tokens, output_tokens) if reference_tokens and output_tokens else 0
    if not common:
        return 0.0
    precision, recall = common / len(output_tokens), common / len(reference_tokens)
    return 2 * precision * recall / (precision + recall)


def similarity(output_text: str, reference_text: str) -> Similarity:
    """BLEU-4 and ROUGE-L of ``output_text`` against ``reference_text``, comments removed from both."""
    out_tokens = tla_tokens(strip_tla_comments(output_text))
    ref_tokens = tla_tokens(strip_tla_comments(reference_text))
    if not out_tokens or not ref_tokens:
        # Both libraries would score this 0 anyway; say so without relying on their edge cases.
        return Similarity(0.0, 0.0)
    bleu = sacrebleu.sentence_bleu(" ".join(out_tokens), [" ".join(ref_tokens)], tokenize="none")
    return Similarity(_percent(bleu.score), _percent(rouge_l(ref_tokens, out_tokens) * 100.0))


def _percent(value: float) -> float:
    # sacrebleu's exp/log round trip can give 100.00000000000004 for identical texts.
    return min(100.0, max(0.0, float(value)))
