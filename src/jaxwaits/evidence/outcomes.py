"""What a snippet's runs showed: the one vocabulary for it, in the runner, the tests, the build
and the ledger.

Each outcome's value is its **stored code**, written in the ledger and pinned by a test: it never
changes meaning and is never reworded. What a person reads is :attr:`Outcome.words`, which may
change freely.
"""

from __future__ import annotations

import enum


class Outcome(enum.Enum):
    """Only the two ``MATCHED`` outcomes pass."""

    CHANGED_CHECKOUT = "changed-checkout"  # wrote, removed or added a file in it
    LEFT_RUNNING = "left-running"  # left a process running, killed when the snippet ended
    MATCHED = "matched"  # printed its recorded output
    MATCHED_KNOWN = "known-difference"  # printed the output recorded for this release
    DIFFERS = "differs"
    NO_RECORDING = "no-recording"
    RAISED = "raised"
    CRASHED = "crashed"
    TIMED_OUT = "timed-out"
    NOT_UTF8 = "not-utf8"
    FLAKY = "flaky"
    INVALID = "invalid"
    SPLIT = "fresh-differs"  # a fresh interpreter printed otherwise than a template's child
    ENV_MISMATCH = "env-mismatch"  # the build only: the page's kernel sets another env
    NOT_RUN = "not-run"  # the build only: the cell did not run the snippet

    @property
    def words(self) -> str:
        """What the outcome is called where a person reads it."""
        return _WORDS[self]

    @property
    def passed(self) -> bool:
        return self in (Outcome.MATCHED, Outcome.MATCHED_KNOWN)

    @property
    def recordable(self) -> bool:
        """Whether a run with this outcome may be recorded: it ran cleanly and steadily."""
        return self.passed or self in (Outcome.DIFFERS, Outcome.NO_RECORDING)


_WORDS = {
    Outcome.CHANGED_CHECKOUT: "changed the checkout",
    Outcome.LEFT_RUNNING: "left a process running",
    Outcome.MATCHED: "matched",
    Outcome.MATCHED_KNOWN: "known difference",
    Outcome.DIFFERS: "differs",
    Outcome.NO_RECORDING: "no recorded output",
    Outcome.RAISED: "raised",
    Outcome.CRASHED: "crashed",
    Outcome.TIMED_OUT: "timed out",
    Outcome.NOT_UTF8: "printed bytes that are not UTF-8",
    Outcome.FLAKY: "flaky",
    Outcome.INVALID: "invalid settings",
    Outcome.SPLIT: "printed otherwise in a fresh interpreter",
    Outcome.ENV_MISMATCH: "environment mismatch",
    Outcome.NOT_RUN: "not run in this build",
}
