"""``run`` and ``record``: the snippets run, and their output recorded."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from jaxwaits.chain import facts
from jaxwaits.evidence import record, report
from jaxwaits.evidence.runner import run_on
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.project import Project


def _run(project: Project, args: argparse.Namespace) -> int:
    snippets = load_snippets(project.snippets, args.names)
    backs = facts.registry(project).backs()
    started = time.perf_counter()
    results, platform = run_on(
        snippets, repeat=args.repeat, jobs=args.jobs, python=args.python, fresh=args.fresh
    )
    for result in results:
        print(report.describe(result, platform, backs.get(result.snippet.name, [])))
    print(report.summary(results, time.perf_counter() - started))
    pinned = project.pinned_jax()
    if platform.jax != pinned:
        print(
            f"note: {args.python} has jax {platform.jax}, not the pinned {pinned}: each snippet "
            f"was judged against what jax {platform.jax} is known to print (its recorded output "
            "where nothing else is known)",
            file=sys.stderr,
        )
    return 0 if all(result.outcome.passed for result in results) else 1


def _record_on(
    project: Project, names: list[str], python: str, known: bool, jobs: int | None
) -> int:
    with record.holding(project.root):
        for line in record.remove_left_behind(project.snippets):
            print(line)
        platform, lines, ok = record.record_on(
            load_snippets(project.snippets, names),
            python,
            project.pinned_jax(),
            known=known,
            backs=facts.registry(project).backs(),
            jobs=jobs,
        )
    print(f"recorded on {platform.describe()}")
    print("\n".join(lines))
    return 0 if ok else 1


def _record(project: Project, args: argparse.Namespace) -> int:
    return _record_on(project, args.names, args.python, args.known, args.jobs)


HANDLERS: dict[str, Callable[..., int]] = {"run": _run, "record": _record}
