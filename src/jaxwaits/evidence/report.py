"""Messages about snippet results that name the snippet, its claims, the versions and the fix.

Every text shown to a person is capped (:func:`jaxwaits.evidence.output.cap`): a snippet that prints
megabytes gives a message of a few hundred lines that says how much it left out.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from pathlib import Path

from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.output import cap
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.runner import Result
from jaxwaits.evidence.snippets import Snippet

_TAIL_LINES = 25


def diff(expected: str, printed: str, expected_label: str, printed_label: str) -> str:
    """A unified diff of two outputs (capped), with a note when they differ only at the end."""
    lines = difflib.unified_diff(
        expected.splitlines(keepends=True),
        printed.splitlines(keepends=True),
        expected_label,
        printed_label,
    )
    text = "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end\n" for line in lines
    )
    return cap(text) if text else "(the outputs differ only in whitespace at the end)\n"


def tail(text: str, lines: int = _TAIL_LINES) -> str:
    """The last ``lines`` lines of ``text``, indented, each cut to a readable length."""
    kept = text.rstrip().splitlines()
    cut = f"    [... {len(kept) - lines} earlier lines cut ...]\n" if len(kept) > lines else ""
    shown = [line if len(line) <= 500 else line[:500] + " [...]" for line in kept[-lines:]]
    return cut + "\n".join("    " + line for line in shown) if shown else "    (nothing)"


def expected_label(snippet: Snippet, source: Path) -> str:
    """Name the file an expected output came from: recorded, or a known difference."""
    kind = "recorded" if source == snippet.recorded_path else "known difference on this release"
    return f"{source.relative_to(snippet.path.parent.parent)} ({kind})"


def record_command(name: str) -> str:
    return (
        f"nox -s record -- {name}   (in a prepared environment: python -m jaxwaits record {name})"
    )


def describe(
    result: Result,
    platform: Platform | None,
    claims: Sequence[str] = (),
    fix: str | None = None,
) -> str:
    """Explain a result that did not pass; a passing result gets one line.

    ``fix`` is the command that records a new output if it is right (default: re-record it
    on the pinned release).
    """
    snippet = result.snippet
    outcome = result.outcome
    where = f"snippets/{snippet.path.name}"
    backs = f"backs {', '.join(claims)}" if claims else "backs no claim"
    on = f" on {platform.describe()}" if platform else ""
    ran = result.runs[0] if result.runs else None
    way = f", in {ran.via.value}" if ran else ""
    if ran and ran.why_fresh:
        way += f" ({ran.why_fresh})"
    head = f"snippet {snippet.name} ({where}; {backs}): {outcome.words}{on}{way}"
    if outcome.passed:
        return head
    if outcome is Outcome.INVALID:
        problems = [f"{where}:{line}: {message}" for line, message in snippet.problems]
        return head + "\nnot run:\n" + "\n".join(problems)
    run = result.failed_run
    assert run is not None
    body = []
    if outcome is Outcome.DIFFERS:
        assert result.expected is not None
        label = expected_label(snippet, result.expected_from)
        body.append(diff(result.expected, run.stdout, label, f"{snippet.name} (printed now)"))
    elif outcome is Outcome.NO_RECORDING:
        body.append(f"no recorded output ({where[:-3]}.out); it printed:\n{tail(run.stdout)}")
    elif outcome is Outcome.FLAKY:
        outputs = sorted({r.stdout for r in result.runs})
        body.append(f"its output varied over {len(result.runs)} runs ({len(outputs)} versions):")
        body.append(diff(outputs[0], outputs[1], "one run", "another run"))
    elif outcome is Outcome.CHANGED_CHECKOUT:
        body.append(
            "while it ran, the checkout changed (a snippet runs in a scratch folder of its own and "
            "must leave the checkout as it found it; `git status` shows what to restore):"
        )
        body.append("\n".join(f"    {change}" for change in run.changed))
    elif outcome is Outcome.LEFT_RUNNING:
        body.append(
            f"it left {len(run.left)} process{'es' if len(run.left) > 1 else ''} running when it "
            "ended, killed then (a snippet waits for what it starts):"
        )
        body.append("\n".join(f"    {process}" for process in run.left))
    elif outcome is Outcome.TIMED_OUT:
        body.append(f"killed after its {snippet.timeout:g} s timeout; it had printed:")
        body.append(tail(run.stdout))
    elif outcome is Outcome.CRASHED:
        body.append(f"the interpreter was killed by {run.signal_name}; stdout so far:")
        body.append(tail(run.stdout))
    elif outcome is Outcome.NOT_UTF8:
        body.append(
            f"byte {run.bad_byte} of its stdout is not UTF-8 (shown as \\x escapes); a snippet "
            f"prints text:\n{tail(run.stdout)}"
        )
    else:
        body.append(f"exited with status {run.returncode}")
    if run.left and outcome is not Outcome.LEFT_RUNNING:
        body.append("it also left running, killed when it ended:")
        body.append("\n".join(f"    {process}" for process in run.left))
    if run.stderr.strip() and outcome is not Outcome.FLAKY:
        body.append(f"stderr (last lines):\n{tail(run.stderr)}")
    if outcome in (Outcome.DIFFERS, Outcome.NO_RECORDING):
        fix = fix or f"re-record it: {record_command(snippet.name)}"
        body.append(f"if the new output is right, {fix}")
    return head + "\n" + "\n".join(part.rstrip("\n") for part in body)


def summary(results: Sequence[Result], seconds: float) -> str:
    """One line: how many snippets had each outcome, the wall time, and which way they ran."""
    counts: dict[str, int] = {}
    for result in results:
        counts[result.outcome.words] = counts.get(result.outcome.words, 0) + 1
    parts = ", ".join(f"{n} {outcome}" for outcome, n in sorted(counts.items()))
    ways: dict[str, int] = {}
    for result in results:
        for run in result.runs[:1]:
            ways[run.via.value] = ways.get(run.via.value, 0) + 1
    ran = "; ".join(f"{n} in {way}" for way, n in sorted(ways.items()))
    snippets = "snippet" if len(results) == 1 else "snippets"
    return f"{len(results)} {snippets}: {parts} in {seconds:.1f} s" + (f" ({ran})" if ran else "")
