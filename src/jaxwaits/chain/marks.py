"""The verdicts as readers see them: a mark and a meaning per claim verdict, a mark per vendored
piece outcome, used by the matrix, the claim pages and their legends. Shown words, never stored:
the stored codes are the enums' values (:class:`~jaxwaits.chain.verdicts.Verdict`,
:class:`~jaxwaits.pieces.drift.PieceOutcome`)."""

from __future__ import annotations

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
    Verdict.NOT_OBSERVABLE: "this release or backend cannot show it",
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
