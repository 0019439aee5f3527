"""The command line: ``python -m jaxwaits <command>``."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

from jaxwaits.claims import cite
from jaxwaits.claims import registry as claims
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import record, report
from jaxwaits.evidence.platform import probe
from jaxwaits.evidence.runner import children_die_with_us, run_on, run_snippets
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.files import write_atomic
from jaxwaits.pieces import drift, manifest, provenance
from jaxwaits.project import Project, find_project
from jaxwaits.releases import environments as jaxenv
from jaxwaits.releases import index as releases
from jaxwaits.releases import ledger, matrix, verify


def _run(project: Project, args: argparse.Namespace) -> int:
    snippets = load_snippets(project.snippets, args.names)
    backs = report.claims_by_snippet(claims.scan(project).evidence())
    started = time.perf_counter()
    results, platform = run_on(snippets, repeat=args.repeat, jobs=args.jobs, python=args.python)
    seconds = time.perf_counter() - started
    for result in results:
        print(report.describe(result, platform, backs.get(result.snippet.name, [])))
    print(report.summary(results, seconds))
    return 0 if all(result.status.passed for result in results) else 1


def _record(project: Project, args: argparse.Namespace) -> int:
    return record_on(project, args.names, args.python, known=args.known, jobs=args.jobs)


def record_on(
    project: Project, names: list[str], python: str, *, known: bool, jobs: int | None = None
) -> int:
    """Re-record ``names`` (all if empty) on ``python``'s JAX; see
    :mod:`jaxwaits.evidence.record`."""
    snippets = load_snippets(project.snippets, names)
    platform = probe(python)
    pinned = project.pinned_jax()
    if (platform.jax == pinned) == known:
        print(
            f"jaxwaits: this interpreter has jax {platform.jax} and the recorded outputs hold for "
            f"the pinned jax {pinned}: "
            + (
                "--known records differences on other releases only"
                if known
                else "to record what this release prints as a known difference, add --known"
            ),
            file=sys.stderr,
        )
        return 2
    print(f"recording on {platform.describe()}")
    results = run_snippets(
        snippets, platform.jax, repeat=record.RECORD_RUNS, jobs=jobs, python=python
    )
    backs = report.claims_by_snippet(claims.scan(project).evidence())
    lines, ok = record.apply(results, platform, project.snippets, known=known, backs=backs)
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


def _cite(project: Project, args: argparse.Namespace) -> int:
    claim = claims.scan(project).resolve(args.id)
    if claim is None:
        print(f"jaxwaits: no claim {args.id!r}; see: python -m jaxwaits claims", file=sys.stderr)
        return 2
    print(cite.markdown(project, claim))
    return 0


def _check_site(project: Project, args: argparse.Namespace) -> int:
    problems = cite.check_site(project, claims.scan(project), Path(args.html))
    print(
        "\n".join(problems) or f"every claim's page, anchor and cite link resolves in {args.html}"
    )
    return 1 if problems else 0


def _verify(project: Project, args: argparse.Namespace) -> int:
    if args.python:
        if args.version:
            raise JaxwaitsError("give a release or --python, not both")
        if args.record_known and record_on(project, args.record_known, args.python, known=True):
            return 1
        verification = verify.verify(project, args.python)
        ledger.save(verification, project.verified)
    else:
        version = releases.require(args.version) if args.version else releases.newest_jax()
        if args.record_known:
            python = jaxenv.ensure(version, project.root)
            if record_on(project, args.record_known, python, known=True):
                return 1
        verification, took = matrix.verify_release(project, version, jobs=None)
        print(f"jax {version}: {took}")
    print(matrix.describe(verification))
    for name, outcome in [*verification.snippets.items(), *verification.pieces.items()]:
        if not outcome.passed:
            print(f"{name}: {outcome.status}\n{outcome.detail}")
    return 0 if verification.passed else 1


def _matrix(project: Project, args: argparse.Namespace) -> int:
    versions = sorted(
        {releases.require(v) for v in args.versions or project.matrix} | {releases.newest_jax()}
    )
    if args.list:
        print(json.dumps([str(v) for v in versions]))
        return 0
    found = matrix.run_matrix(project, versions)
    return 0 if len(found) == len(versions) and all(v.passed for v in found) else 1


def _verify_latest(project: Project, args: argparse.Namespace) -> int:
    newest = releases.newest_jax()
    if any(v.platform.jax == str(newest) for v in ledger.load(project.verified)):
        print(f"jax {newest}, the newest release, is already in the ledger; nothing to do")
        return 0
    verification, took = matrix.verify_release(project, newest, jobs=None)
    print(f"<!-- verified in {took} -->\n{release_note(project, verification)}")
    return 0 if verification.passed else 1


def _summary(project: Project, args: argparse.Namespace) -> int:
    verifications = ledger.load(project.verified)
    for verification in verifications:
        print(f"- jax {verification.platform.jax}: {matrix.describe(verification)}")
    if verifications:
        print(release_note(project, verifications[-1]))
    return 0 if all(v.passed for v in verifications) else 1


def release_note(project: Project, verification: ledger.Verification) -> str:
    """A Markdown summary of one release's verification, for a release note."""
    registry = claims.scan(project)
    by_outcome: dict[str, list[str]] = {}
    for claim in sorted(registry.claims.values(), key=lambda c: c.id):
        outcome = ledger.claim_outcome(verification, claim.evidence, claim.needs)
        by_outcome.setdefault(outcome, []).append(f"[`{claim.id}`]({cite.url(project, claim.id)})")
    lines = [
        f"## jax-waits on jax {verification.platform.jax} ({verification.platform.describe()})"
    ]
    lines += [f"- {outcome} ({len(ids)}): {', '.join(ids)}" for outcome, ids in by_outcome.items()]
    changed = [
        f"`{k}`: {v.status}" for k, v in verification.pieces.items() if v.status != ledger.IDENTICAL
    ]
    lines.append(f"- vendored pieces not identical upstream: {', '.join(changed) or 'none'}")
    return "\n".join(lines)


def _provenance(project: Project, args: argparse.Namespace) -> int:
    started = time.perf_counter()
    computed, texts = provenance.compute(project, offline=args.offline, refresh=args.refresh)
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
    write_atomic(path, new)
    print(f"{project.relative(path)}: {'unchanged' if new == old else 'rewritten'}")
    for name, text in texts.items():
        piece = project.annotated_src / f"{name}.py"
        if not piece.exists():
            write_atomic(piece, text)
            print(f"{project.relative(piece)}: new, copied from upstream; annotate it")
    return 0


def _drift(project: Project, args: argparse.Namespace) -> int:
    started = time.perf_counter()
    jax, verdicts = drift.check(project, args.python)
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
    run.add_argument(
        "--repeat", type=_positive, default=1, help="runs per snippet; varying = flaky"
    )
    run.set_defaults(handler=_run)

    rec = commands.add_parser("record", help="re-run snippets and rewrite their recorded output")
    rec.add_argument("names", nargs="*", help="snippet names (default: all)")
    rec.add_argument(
        "--known",
        action="store_true",
        help="on a release other than the pinned one: record "
        "its output as a known difference for that release",
    )
    rec.set_defaults(handler=_record)

    for sub in (run, rec):
        sub.add_argument(
            "--jobs", type=_positive, default=None, help="processes at once (default: cores)"
        )
        sub.add_argument(
            "--python",
            default=sys.executable,
            type=_interpreter,
            help="interpreter with JAX installed",
        )

    lst = commands.add_parser("claims", help="list the claims, and any broken link in the chain")
    lst.set_defaults(handler=_claims)

    cit = commands.add_parser("cite", help="a Markdown link to a claim, for a code review")
    cit.add_argument("id")
    cit.set_defaults(handler=_cite)

    chk = commands.add_parser("check-site", help="claim pages, anchors and cite links resolve")
    chk.add_argument("html", nargs="?", default="docs/_build/html")
    chk.set_defaults(handler=_check_site)

    ver = commands.add_parser("verify", help="verify one JAX release and write its ledger file")
    ver.add_argument("version", nargs="?", help="a JAX release (default: the newest)")
    ver.add_argument(
        "--python", type=_interpreter, help="verify this interpreter's JAX instead of making an env"
    )
    ver.add_argument(
        "--record-known",
        nargs="+",
        metavar="NAME",
        default=[],
        help="first record what these snippets print on this release as known differences",
    )
    ver.set_defaults(handler=_verify)

    mat = commands.add_parser("matrix", help="verify many releases (default: tool.jaxwaits.matrix)")
    mat.add_argument("versions", nargs="*")
    mat.add_argument("--list", action="store_true", help="only print the releases, as JSON")
    mat.set_defaults(handler=_matrix)

    lat = commands.add_parser("verify-latest", help="verify the newest release if not yet done")
    lat.set_defaults(handler=_verify_latest)

    summ = commands.add_parser("summary", help="the ledger in Markdown, newest release in full")
    summ.set_defaults(handler=_summary)

    prov = commands.add_parser(
        "provenance", help="recompute the vendored pieces' history from the released jax wheels"
    )
    prov.add_argument("--offline", action="store_true", help="use only the cached wheels")
    prov.add_argument(
        "--refresh", action="store_true", help="fetch the release list anew (and new wheels)"
    )
    prov.add_argument("--check", action="store_true", help="fail if the manifest is out of date")
    prov.set_defaults(handler=_provenance)

    dri = commands.add_parser(
        "drift", help="check the vendored pieces against the installed jax, as the manifest says"
    )
    dri.add_argument(
        "--python", default=sys.executable, type=_interpreter, help="interpreter with JAX installed"
    )
    dri.set_defaults(handler=_drift)
    return top


def _interpreter(text: str) -> str:
    """An interpreter named on the command line, as an absolute path (snippets run elsewhere)."""
    found = shutil.which(text)
    if found is None:
        raise argparse.ArgumentTypeError(f"no interpreter {text!r} (not a runnable file)")
    return str(Path(found).absolute())


def _positive(text: str) -> int:
    """An argument that must be a whole number of at least 1."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"needs a whole number of at least 1, got {text!r}")
    return number


def main(argv: list[str] | None = None) -> int:
    """Run one command: 0 success, 1 a check failed, 2 bad input (the message names it)."""
    args = parser().parse_args(argv)
    try:
        with children_die_with_us():
            return args.handler(find_project(), args)
    except JaxwaitsError as error:
        print(f"jaxwaits: {error}", file=sys.stderr)
        return 2
