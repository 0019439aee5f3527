"""The command line: ``python -m jaxwaits <command>``."""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from jaxwaits import claims, drift, manifest, provenance, record, report, upstream, wheels
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


def _provenance(project: Project, args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        computed, texts = provenance.compute(project, offline=args.offline)
    except (upstream.UnreadableSource, wheels.CacheMissing) as error:
        raise SystemExit(f"jaxwaits: {error}") from None
    for entry in computed.pieces.values():
        print("\n".join(provenance.summary(entry)))
    seconds = time.perf_counter() - started
    path = project.annotated_src / manifest.FILE
    new, old = manifest.dumps(computed), path.read_text(encoding="utf-8")
    print(
        f"{len(computed.pieces)} pieces over {len(computed.releases)} releases "
        f"({computed.releases[0]} to {computed.releases[-1]}) in {seconds:.1f} s"
    )
    if args.check:
        if new != old:
            print(report.diff(old, new, f"{project.relative(path)} (committed)", "computed now"))
            print("the manifest is out of date; rewrite it with: python -m jaxwaits provenance")
        return int(new != old)
    path.write_text(new, encoding="utf-8")
    print(f"{project.relative(path)}: {'unchanged' if new == old else 'rewritten'}")
    for name, text in texts.items():
        piece = project.annotated_src / f"{name}.py"
        if not piece.exists():
            piece.write_text(text, encoding="utf-8")
            print(f"{project.relative(piece)}: new, copied from upstream; annotate it")
    return 0


def _drift(project: Project, args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        jax, verdicts = drift.check(project, args.python)
    except upstream.UnreadableSource as error:
        raise SystemExit(f"jaxwaits: {error}") from None
    print(f"installed: jax {jax.version} in {jax.root} (for {args.python})")
    for verdict in verdicts:
        print(("ok    " if verdict.ok else "FAIL  ") + verdict.message)
    failed = sum(not verdict.ok for verdict in verdicts)
    print(
        f"{len(verdicts)} pieces: {len(verdicts) - failed} as recorded, {failed} unrecorded "
        f"difference(s), in {time.perf_counter() - started:.1f} s"
    )
    return 1 if failed else 0


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
        sub.add_argument("--jobs", type=int, default=None, help="processes at once (default: cores)")
        sub.add_argument("--python", default=sys.executable, help="interpreter with JAX installed")

    lst = commands.add_parser("claims", help="list the claims, and any broken link in the chain")
    lst.set_defaults(handler=_claims)

    prov = commands.add_parser(
        "provenance", help="recompute the vendored pieces' history from the released jax wheels"
    )
    prov.add_argument("--offline", action="store_true", help="use only the cached wheels")
    prov.add_argument("--check", action="store_true", help="fail if the manifest is out of date")
    prov.set_defaults(handler=_provenance)

    dri = commands.add_parser(
        "drift", help="check the vendored pieces against the installed jax, as the manifest says"
    )
    dri.add_argument("--python", default=sys.executable, help="interpreter with JAX installed")
    dri.set_defaults(handler=_drift)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return args.handler(find_project(), args)
