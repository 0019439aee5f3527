"""The rules of ``jaxwaits review``: one per item of the site's review checklist, each with a
stable code, the checklist anchor that states it, and the claims whose snippets prove it."""

from __future__ import annotations

import enum
from dataclasses import dataclass


@dataclass(frozen=True)
class RuleInfo:
    name: str
    anchor: str  # the checklist item on review.html that states the rule
    claims: tuple[str, ...]
    summary: str


class Rule(enum.Enum):
    """A mistake in code that times or waits on JAX work."""

    TIMER_BEFORE_WAIT = "JW101"
    COMPILE_TIMED = "JW102"
    ONE_OUTPUT_BLOCKED = "JW103"
    BLOCK_IN_TRACE = "JW104"
    NOTHING_TO_BLOCK = "JW105"
    BARRIER_IN_TRACE = "JW106"
    HOST_INPUT_TIMED = "JW107"
    EFFECTS_AFTER_BLOCK = "JW108"
    DISPATCH_MADE_SYNCHRONOUS = "JW109"
    ERROR_AT_THE_CALL = "JW110"
    BLOCK_ONE_BY_ONE = "JW112"
    DONATED_THEN_USED = "JW113"

    @property
    def info(self) -> RuleInfo:
        return RULES[self]


RULES = {
    Rule.TIMER_BEFORE_WAIT: RuleInfo(
        "timer-before-wait",
        "review-timing-without-blocking",
        ("is-ready-never-waits", "returns-self", "dispatch-is-paced"),
        "the timer stops before the timed JAX work is waited on, so it measures the dispatch",
    ),
    Rule.COMPILE_TIMED: RuleInfo(
        "compile-timed",
        "review-compile-in-the-measurement",
        ("compile-before-polling",),
        "the first call of a jitted function is timed: it compiles before it runs",
    ),
    Rule.ONE_OUTPUT_BLOCKED: RuleInfo(
        "one-output-blocked",
        "review-one-output-of-several",
        ("waits-on-own-buffers", "block-does-not-drain-later-work", "block-the-whole-step"),
        "only some results of separately dispatched work are waited on before the timer stops",
    ),
    Rule.BLOCK_IN_TRACE: RuleInfo(
        "block-in-trace",
        "review-block-inside-jit",
        ("block-under-jit-is-noop", "tracer-raises-attributeerror"),
        "a block inside a traced function waits for nothing",
    ),
    Rule.NOTHING_TO_BLOCK: RuleInfo(
        "nothing-to-block",
        "review-nothing-to-block",
        ("wrapper-passes-non-arrays", "wrapper-no-arrays-is-silent"),
        "jax.block_until_ready is given something that holds no JAX array: it waits for nothing",
    ),
    Rule.BARRIER_IN_TRACE: RuleInfo(
        "barrier-in-trace",
        "review-effects-not-arrays",
        ("barrier-under-jit",),
        "jax.effects_barrier() inside a traced function runs once, at tracing, and waits for "
        "nothing when the computation runs",
    ),
    Rule.HOST_INPUT_TIMED: RuleInfo(
        "host-input-timed",
        "review-block-is-not-fetch",
        ("three-waits", "block-does-not-fetch"),
        "a NumPy array is passed to a jitted function inside the timed region: it is copied to "
        "the device on every call, and the copy is timed as compute",
    ),
    Rule.EFFECTS_AFTER_BLOCK: RuleInfo(
        "effects-after-block",
        "review-effects-not-arrays",
        ("barrier-for-callbacks", "barrier-waits-on-tokens", "barrier-is-per-thread"),
        "what a host callback changed is read after a block on arrays, with no "
        "jax.effects_barrier(): on an accelerator the callback need not have run",
    ),
    Rule.DISPATCH_MADE_SYNCHRONOUS: RuleInfo(
        "dispatch-made-synchronous",
        "review-synchronous-only-in-testing",
        ("dispatch-made-synchronous", "cpu-callbacks-run-at-dispatch"),
        "timing code runs with dispatch made synchronous (or tries to, through an environment "
        "variable that does nothing): a missing block does not show",
    ),
    Rule.ERROR_AT_THE_CALL: RuleInfo(
        "error-at-the-call",
        "review-errors-at-the-wait",
        ("errors-surface-at-the-wait", "barrier-reports-latest-failures"),
        "a runtime error is caught around a JAX call that is not waited on: a failure while "
        "the computation runs is raised at the wait, outside the try",
    ),
    Rule.BLOCK_ONE_BY_ONE: RuleInfo(
        "block-one-by-one",
        "review-many-arrays",
        ("wrapper-batches", "wrapper-batching-pays-on-accelerators"),
        "a Python loop blocks array by array: jax.block_until_ready(arrays) waits for the "
        "same in one batched call",
    ),
    Rule.DONATED_THEN_USED: RuleInfo(
        "donated-then-used",
        "review-deleted-or-donated",
        ("checks-deleted-first",),
        "an array donated to a jitted call is used after it: the call deleted it",
    ),
}


def parse_codes(text: str) -> set[Rule]:
    """Rule codes separated by commas (``JW101,JW104``); an unknown code raises ValueError."""
    found = set()
    for code in (part.strip() for part in text.split(",")):
        if code:
            found.add(Rule(code.upper()))
    return found
