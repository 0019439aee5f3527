"""``review`` and ``watch``: the harness checker's commands; they need no checkout and no JAX,
and load nothing of the site's rooms."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from harnesscheck import review, watch
from harnesscheck.results import formats
from jaxwaits.errors import JaxwaitsError


def _watch(args: argparse.Namespace) -> int:
    """Run a harness under observation; the report goes to stderr or --output (checked before
    the program starts). A watch stopped by a signal says so in one line, after the partial
    report of what it saw until then (none where it saw nothing), and exits as the signal's."""
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not program:
        raise JaxwaitsError("watch: name the program: script.py ARGS, -m module ARGS or -- CMD")
    if program[0] == "-m" or program[0].endswith(".py"):
        program = [sys.executable, *program]
    if args.output:
        _writable(args.output)
    rules = (args.select or review.selected_rules(Path.cwd())) - (args.ignore or set())
    watched = watch.watch(program, rules)
    found = len(watched.review.findings)
    written = True
    if watched.stopped is None or found:
        report = watch.report(watched, formats.Format(args.format), Path.cwd())
        written = _put_report(report, args.output)
    if watched.stopped is not None:
        seen = "no mistake was seen until then"
        if found:
            where = f"in {args.output}" if args.output and written else "above"
            counted = f"{found} finding{'s' if found > 1 else ''}"
            seen = f"what it saw until then ({counted}) is in the partial report {where}"
        stopped = (
            f"jaxwaits: watch: stopped by {watch.signal_name(watched.stopped)}, and the program "
            f"with it ({watch.ended(watched.returncode)}); {seen}"
        )
        print(stopped, file=sys.stderr)
        return watched.exit_status
    if not written:
        return 2
    if watched.returncode:
        return watched.exit_status
    return 1 if found else 0


def _writable(path: Path) -> None:
    """Fail before the program runs where its report could not be written to ``path``;
    leave no file that was not there."""
    existed = os.path.lexists(path)
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        raise JaxwaitsError(
            f"watch: --output {path}: cannot write the report there ({error.strerror}); name a "
            "writable file in a folder that exists (the program was not started)"
        ) from None
    if not existed:
        path.unlink()


def _put_report(report: str, output: Path | None) -> bool:
    """Write the report to ``output`` or stderr; where ``output`` fails, to stderr, saying why."""
    if output is not None:
        try:
            output.write_text(report + "\n", encoding="utf-8")
            return True
        except OSError as error:
            print(report, file=sys.stderr)
            print(
                f"jaxwaits: watch: --output {output}: cannot write the report there "
                f"({error.strerror}); it is printed above instead",
                file=sys.stderr,
            )
            return False
    print(report, file=sys.stderr)
    return True


def _review(args: argparse.Namespace) -> int:
    """Review harness code; needs no jax-waits checkout and no JAX."""
    root = Path.cwd()
    rules = review.selected_rules(root)
    if args.select:
        rules = args.select
    rules -= args.ignore or set()
    done = review.review(args.paths, rules)
    print(formats.render(done, formats.Format(args.format), root))
    if done.unreadable:
        return 2
    return 1 if done.findings else 0


HANDLERS: dict[str, Callable[..., int]] = {"review": _review, "watch": _watch}
