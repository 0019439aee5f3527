"""The site's own words as readers see them: a mark and a meaning per claim verdict, per vendored
piece outcome and per standing of a claim in a build, and the anchor of each one's definition
(the glossary's "site's own words"), for the matrix, the claim pages and their legends. Shown
words, never stored: the stored codes are the enums' values
(:class:`~jaxwaits.chain.verdicts.Verdict`, :class:`~jaxwaits.pieces.drift.PieceOutcome`)."""

from __future__ import annotations

from jaxwaits.chain.standing import Standing
from jaxwaits.chain.verdicts import Verdict
from jaxwaits.pieces.drift import PieceOutcome

MARKS = {
    Verdict.HOLDS: "✓",
    Verdict.HOLDS_OUTPUT_DIFFERS: "✓*",
    Verdict.DOES_NOT_HOLD: "✗",
    Verdict.NOT_OBSERVABLE: "○",
    Verdict.ABSENT: "–",
    Verdict.NOT_VERIFIED: "?",
    Verdict.STALE: "↻",
    Verdict.FAILS: "!",
}
MEANING = {
    Verdict.HOLDS: "every snippet behind the claim printed its recorded output",
    Verdict.HOLDS_OUTPUT_DIFFERS: "it printed something else, which leaves the claim true",
    Verdict.DOES_NOT_HOLD: "what it printed contradicts the claim; what holds instead is said",
    Verdict.NOT_OBSERVABLE: (
        "its snippets cannot show, on this release or backend, whether the claim holds there (the "
        "reason is given each time): nothing is known either way, which is not to say that the "
        "claim does not apply"
    ),
    Verdict.ABSENT: "the API the claim is about does not exist in that release",
    Verdict.NOT_VERIFIED: "no ledger entry, or the release does not install here",
    Verdict.STALE: "verified with another snippet or recorded output than today's",
    Verdict.FAILS: "the release printed what nobody has explained yet",
}
PIECE_MARKS = {
    PieceOutcome.IDENTICAL: "✓",
    PieceOutcome.DIFFERS_AS_RECORDED: "≠",
    PieceOutcome.ABSENT_AS_RECORDED: "–",
    PieceOutcome.UNRECORDED_CHANGE: "!",
}
PIECE_MEANING = {
    PieceOutcome.IDENTICAL: "the release's source of the function is the vendored text, as is",
    PieceOutcome.DIFFERS_AS_RECORDED: (
        "the release's source differs from the vendored text, as the manifest records"
    ),
    PieceOutcome.ABSENT_AS_RECORDED: "the function is not in that release, as the manifest records",
    PieceOutcome.UNRECORDED_CHANGE: (
        "the release's source differs in a way the manifest does not record: the site must not "
        "be published"
    ),
}
STANDING_MEANING = {
    Standing.VERIFIED: (
        "every snippet behind the claim ran while this site was built and printed its recorded "
        "output"
    ),
    Standing.FAILING: (
        "a snippet behind the claim did not run in this build, or printed something else: the "
        "site must not be published"
    ),
    Standing.NEEDS_BACKEND: (
        "only another backend (a GPU, say) can show it, and the snippets run on CPU here: the "
        "claim says what a recorded run there showed (or, with none, what it rests on), and is "
        "never shown as verified in this build"
    ),
}


# What each value of a scope axis (:mod:`jaxwaits.claims.scope`) means where a status line or a
# page's note names it: what the claim's snippets did, not what JAX does.
SCOPE_MEANING = {
    ("backend", "cpu"): (
        "the snippets ran on JAX's CPU backend, as every build of this site runs them"
    ),
    ("backend", "gpu"): "a recorded run of the snippets on a GPU showed it",
    ("backend", "tpu"): "a recorded run of the snippets on a TPU showed it",
    ("threads", "one"): (
        "every computation the snippets wait on was dispatched from the one Python thread that "
        "waits"
    ),
    ("threads", "several"): (
        "the snippets dispatch work from more than one Python thread, and wait in one of them"
    ),
    ("devices", "single"): "each array the snippets make lives on one device, in one buffer",
    ("devices", "sharded"): (
        "arrays split over several devices, each device holding a part in a buffer of its own"
    ),
    ("devices", "replicated"): "arrays with a whole copy on each of several devices",
    ("failures", "none"): (
        "no computation the snippets dispatched had failed: there was no error still to be raised"
    ),
    ("failures", "one"): (
        "one computation the snippets dispatched had failed, and its error had not been raised "
        "yet when they waited"
    ),
    ("failures", "several"): (
        "more than one computation the snippets dispatched had failed, none of their errors "
        "raised yet when they waited"
    ),
    (
        "dtype",
        "wide",
    ): "arrays of numeric dtypes one byte wide or wider: float32, int8 and the like",
    ("dtype", "sub-byte"): "arrays of dtypes narrower than a byte, such as int4",
    ("dtype", "key"): (
        "typed key arrays, made by jax.random.key: a jax.Array of another class than numeric arrays"
    ),
    ("context", "eager"): (
        "JAX functions called from ordinary Python, not while jit, vmap or grad trace a function"
    ),
    ("context", "traced"): (
        "calls made while jit, vmap or grad trace a function, on the tracers that stand in for "
        "its arguments"
    ),
}


def verdict_id(verdict: Verdict) -> str:
    """The anchor of a verdict's definition, from its stored code."""
    return f"verdict-{verdict.value}"


def piece_id(outcome: PieceOutcome) -> str:
    return f"piece-{outcome.value}"


def standing_id(standing: Standing) -> str:
    return f"standing-{standing.value}"


def scope_id(axis: str, value: str) -> str:
    """The anchor of a scope value's definition, from its stored codes."""
    return f"scope-{axis}-{value}"
