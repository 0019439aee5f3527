"""The command line: ``python -m jaxwaits <command>``."""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from jaxwaits import claims, record, report
from jaxwaits.platform import probe
from jaxwaits.project import Project, find_project
from jaxwaits.runner import run_snippets
from jaxwaits.snippets import load_snippets


def _run(project: Project, args: argparse.Namespace) -> int:
    snippets = load_snippets(project.snippets, args.names)
    backs = report.claims_by_snippet(claims.scan(project).evidence())
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=1) as side:
        platform = side.submit(probe, args.python)  # import jax once more, alongside the snippets
        results = run_snippets(snippets, repeat=args.repeat, jobs=args.jobs, python=args.python)
    seconds = time.perf_counter() - started
    for result in results:
        print(report.describe(result, platform.result(), backs.get(result.snippet.name, [])))
    print(report.summary(results, seconds))
    return 0 if all(result.status.passed for result in results) else 1


def _record(project: Project, args: argparse.Namespace) -> int:
    snippets = load_snippets(project.snippets, args.names)
    platform = probe(args.python)
    print(f"recording on {platform.describe()}")
    results = run_snippets(snippets, repeat=record.RECORD_RUNS, jobs=args.jobs, python=args.python)
    lines, ok = record.apply(results, platform, project.snippets)
    print("\n".join(lines))
    return 0 if ok else 1


def _claims(project: Project, args: argparse.Namespace) -> int:
    registry = claims.scan(project)
    for claim in sorted(registry.claims.values(), key=lambda c: c.id):
        print(f"{claim.id}: {claim.statement}")
    problems = claims.check(registry, {s.name for s in load_snippets(project.snippets)})
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m jaxwaits", description=__doc__)
    commands = top.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run snippets and compare with their recorded output")
    run.add_argument("names", nargs="*", help="snippet names (default: all)")
    run.add_argument("--repeat", type=int, default=1, help="runs per snippet; varying = flaky")
    run.set_defaults(handler=_run)

    rec = commands.add_parser("record", help="re-run snippets and rewrite their recorded output")
    rec.add_argument("names", nargs="*", help="snippet names (default: all)")
    rec.set_defaults(handler=_record)

    for sub in (run, rec):
        sub.add_argument(
            "--jobs", type=int, default=None, help="processes at once (default: cores)"
        )
        sub.add_argument("--python", default=sys.executable, help="interpreter with JAX installed")

    lst = commands.add_parser("claims", help="list the claims, and any broken link in the chain")
    lst.set_defaults(handler=_claims)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return args.handler(find_project(), args)
