"""The command line: ``python -m jaxwaits <command>``. It parses, calls the rooms and prints; the
work is theirs. Exit codes: 0 all is well, 1 a check failed, 2 bad input (the message names it)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

from packaging.version import Version

from harnesscheck import review, watch
from harnesscheck.errors import ReviewError
from harnesscheck.results import formats
from harnesscheck.rules import RULES, parse_codes
from jaxwaits.chain import cite, facts, notes, packaged, verdicts
from jaxwaits.chain import problems as chain_problems
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import record, report
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.processes import children_die_with_us
from jaxwaits.evidence.runner import run_on
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.pieces import drift
from jaxwaits.project import NoCheckout, Project, find_project
from jaxwaits.releases import (
    environments,
    index,
    ledger,
    matrix,
    observed,
    provenance,
    universe,
    verify,
)


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


def _unclassified(project: Project) -> list[str]:
    """Each known output still waiting for a maintainer's verdict (it fails verify and claims)."""
    judge = verdicts.judge_for(load_snippets(project.snippets))
    return verdicts.unclassified(judge, facts.registry(project).claims.values())


def _index() -> tuple[packaged.Index, facts.Facts | None]:
    """The claims index of the checkout above the working directory, with its facts; outside a
    checkout, the index this jaxwaits was built with (and no facts)."""
    try:
        project = find_project()
    except NoCheckout as missing:
        index = packaged.carried()
        if index is None:
            raise NoCheckout(
                f"{missing}, and this jaxwaits carries no claims index (a wheel built from a "
                "checkout does)"
            ) from None
        here = Path.cwd().resolve()
        print(
            f"jaxwaits: from the claims index packaged with jaxwaits {index.version}: no "
            f"checkout above {here}",
            file=sys.stderr,
        )
        return index, None
    found = facts.load(project)
    return packaged.of(found), found


def _claims(args: argparse.Namespace) -> int:
    """Every claim, then every problem the facts show: the same list the build reports, less
    what only a build can know (outside a checkout, the claims alone). Where this Python has no
    JAX to check the vendored pieces against, it says so and exits 2."""
    index, found = _index()
    for claim in sorted(index.registry.claims.values(), key=lambda c: c.id):
        print(f"{claim.id}: {claim.statement}")
    if found is None:
        return 0
    python: str | None = sys.executable
    unchecked = ""
    if found.project.annotated_src.is_dir():
        try:
            python = _with_jax(found.project, None)
        except drift.NoJax as missing:
            python = None  # every other link is still checked, and this one is said unchecked
            folder = found.project.relative(found.project.annotated_src)
            unchecked = f"the vendored pieces in {folder}/ were not checked against JAX: {missing}"
    with children_die_with_us():
        problems = [*chain_problems.links(found), *chain_problems.evidence(found, python)]
    for problem in problems:
        print(problem, file=sys.stderr)
    if unchecked:  # the chain is not known to hold: an error, not "all is well"
        print(f"jaxwaits: {unchecked}", file=sys.stderr)
        return 2
    return 1 if problems else 0


def _cite(args: argparse.Namespace) -> int:
    index, _ = _index()
    claim = index.registry.resolve(args.id)
    if claim is None:
        raise JaxwaitsError(f"no claim {args.id!r}; see: python -m jaxwaits claims")
    target = cite.pinned(index.site(latest=args.latest), claim.id)
    print(cite.link(claim, index.verdicts[claim.id], target, index.elsewhere[claim.id]))
    if index.release_url is None and not args.latest:
        print(
            f"jaxwaits: this link is to the newest build, whose page moves: jaxwaits "
            f"{index.version} was not made from its release's tag, so no link pinned to a "
            "release is published for it",
            file=sys.stderr,
        )
    return 0


def _check_site(project: Project, args: argparse.Namespace) -> int:
    problems = cite.check_site(project, facts.registry(project), Path(args.html))
    print(
        "\n".join(problems)
        or f"every claim's page, anchor and cite link resolves in {args.html}, and no file "
        "there holds a path of this machine's"
    )
    return 1 if problems else 0


def _verify(project: Project, args: argparse.Namespace) -> int:
    backs = facts.registry(project).backs()
    if args.observed:
        return _verify_observed(project, args, backs)
    if args.python and args.version:
        raise JaxwaitsError("give a release or --python, not both")
    if args.observe and not args.python:
        raise JaxwaitsError("--observe runs on the interpreter given with --python")
    if args.fresh and not args.observe:
        raise JaxwaitsError("--fresh goes with --observe")
    if args.observe:
        return _observe(project, args, backs)
    if args.python:
        python = args.python
    else:
        version = index.require(args.version) if args.version else index.newest_jax()
        python = environments.ensure(version, project.root)
    started = time.perf_counter()
    verification = verify.verify(
        project, python, backs, args.jobs, record_known=set(args.record_known or ()), say=print
    )
    said = f"jax {verification.platform.jax}: verified in {time.perf_counter() - started:.0f} s"
    return _saved(project, verification, said)


def _saved(project: Project, verification: ledger.Verification, said: str) -> int:
    """Save a verification into the ledger and report it: its counts, each failure, and each
    known output still waiting for a verdict."""
    ledger.save(verification, project.verified)
    print(said)
    print(verify.counts(verification))
    unexplained = _unclassified(project)
    print("\n".join([*verify.failures(verification), *unexplained]))
    return 0 if verification.passed and not unexplained else 1


def _observe(project: Project, args: argparse.Namespace, backs: verify.Backs) -> int:
    """Run every snippet both ways on a machine the checks do not run on, and save what it
    showed; the ledger file is judged from that file (``verify --observed``)."""
    command = " ".join(["python -m jaxwaits", *sys.argv[1:]])
    found = observed.observe(project, args.python, args.jobs, command, fresh=args.fresh)
    observed.save(found, Path(args.observe))
    verification = verify.judge_observed(project, found, backs)
    print(
        f"{found.platform.describe()}: observed in {found.seconds:.0f} s, saved in {args.observe}"
    )
    print(verify.counts(verification))
    return 0


def _verify_observed(project: Project, args: argparse.Namespace, backs: verify.Backs) -> int:
    if args.python or args.version or args.observe:
        raise JaxwaitsError("--observed judges a file: give no release, --python or --observe")
    found = observed.read(Path(args.observed))
    verification = verify.judge_observed(
        project, found, backs, set(args.record_known or ()), say=print
    )
    said = f"{found.platform.describe()}: judged from {args.observed}, observed {found.made_on}"
    return _saved(project, verification, said)


def _matrix(project: Project, args: argparse.Namespace) -> int:
    if args.versions:
        asked: dict[str, frozenset[str] | None] = dict.fromkeys(args.versions)
    else:
        asked = matrix.plan(project, ledger.read(project.verified)[0], stale=args.stale)
    if args.record_known:
        named = {s.name for s in load_snippets(project.snippets, args.record_known)}
        asked = matrix.only(asked, named)
    releases = {index.require(v): names for v, names in asked.items()}
    if args.list:
        print(json.dumps([str(v) for v in sorted(releases)]))
        return 0
    found = matrix.run_matrix(
        project, releases, facts.registry(project).backs(), record_known=set(args.record_known)
    )
    unexplained = _unclassified(project)
    print("\n".join(unexplained))
    return 0 if found.passed and not unexplained else 1


def _verify_latest(project: Project, args: argparse.Namespace) -> int:
    """Verify the newest JAX on the index unless its ledger entry is current, then say what to
    do next: each failure's fix, the pin, and a draft release note."""
    newest = str(index.newest_jax())
    kept = next(
        (
            v
            for v in ledger.load(project.verified)
            if (v.platform.jax, v.platform.backend) == (newest, "cpu")
        ),
        None,
    )
    again = _to_verify_again(project, kept) if kept is not None else None
    found = facts.registry(project)
    if kept is not None and again is None:
        print(f"jax {newest}, the newest release, is in the ledger and current: nothing to verify")
        verification = kept
    else:
        if again is not None:
            what = f"{len(again)} snippet(s) and its" if again else "its"
            print(
                f"jax {newest} is in the ledger, but stale or failing: verifying {what} "
                "vendored pieces again",
                flush=True,
            )
        else:
            print(f"jax {newest}: verifying (an environment, then every snippet twice)", flush=True)
        done = verify.verify_release(project, Version(newest), found.backs(), None, again)
        print(f"jax {newest}: {verify.counts(done.verification)} ({done.took()})")
        verification = done.verification
    print("\n".join(verify.failures(verification)))
    print("\n".join(_next_steps(project, verification)))
    return 0 if verification.passed else 1


def _to_verify_again(project: Project, kept: ledger.Verification) -> frozenset[str] | None:
    """What of a release's entry to verify again: the stale snippets and the failed ones (a
    failure may have been mended, or may not happen again), with the pieces; None: nothing."""
    stale = matrix.stale(project, kept)
    failed = frozenset(n for n, e in kept.snippets.items() if not e.outcome.passed)
    failed_pieces = any(not e.outcome.passed for e in kept.pieces.values())
    if stale is None and not failed and not failed_pieces:
        return None
    return (stale or frozenset()) | failed


def _next_steps(project: Project, verification: ledger.Verification) -> list[str]:
    """What a maintainer does next with a verified release, each step its command."""
    release = verification.platform.jax
    if release not in universe.load(project).releases:
        mend = "" if verification.passed else "; then mend each snippet's failure as it says"
        return [
            f"next: first record jax {release} in the manifest (python -m jaxwaits provenance "
            f"--refresh), then run nox -s verify-latest again{mend} (README, 'When JAX "
            "releases', steps 2 and 3)"
        ]
    if not verification.passed:
        return [
            "next: mend each failure above as it says, then run nox -s verify-latest again (it "
            "verifies again only what is stale); the README's 'When JAX releases' has the rest"
        ]
    steps = []
    pinned = project.pinned_jax()
    if Version(release) > Version(pinned):
        outcomes = {entry.outcome for entry in verification.snippets.values()}
        if outcomes <= {Outcome.MATCHED}:
            steps.append(
                f"pin: every snippet printed its recorded output on jax {release}: move the pin "
                f"in pyproject.toml from jax=={pinned} to jax=={release} (and jaxlib); nothing "
                "to re-record"
            )
        else:
            steps.append(
                f"pin: some snippets print on jax {release} what is recorded as its known "
                "output: move the pin only if that output is right for the releases to come "
                "(README, 'When JAX releases')"
            )
    steps.append(notes.draft(facts.load(project), release))
    return steps


def _release_note(project: Project, args: argparse.Namespace) -> int:
    found = facts.load(project)
    if args.release not in found.releases:
        raise JaxwaitsError(
            f"{args.release!r} is not a release the manifest or the ledger knows (from "
            f"{found.releases[0]} to {found.releases[-1]}); python -m jaxwaits summary lists them"
        )
    print(notes.draft(found, args.release))
    return 0


def _summary(project: Project, args: argparse.Namespace) -> int:
    verifications = ledger.load(project.verified)
    for verification in verifications:
        backend = verification.platform.backend
        on = "" if backend == "cpu" else f" on {verification.platform.describe()}"
        print(f"- jax {verification.platform.jax}{on}: {verify.counts(verification)}")
    cpu = [v for v in verifications if v.platform.backend == "cpu"]
    if cpu:
        print(notes.release_note(project, facts.registry(project), cpu[-1]))
    return 0 if all(v.passed for v in verifications) else 1


def _progress(message: str) -> None:
    """A line of progress in a long step, shown as it happens."""
    print(message, file=sys.stderr, flush=True)


def _provenance(project: Project, args: argparse.Namespace) -> int:
    started = time.perf_counter()
    computed, texts = provenance.compute(
        project,
        offline=args.offline,
        refresh=args.refresh,
        recorded_only=args.check,
        say=_progress,
    )
    for entry in computed.pieces.values():
        print("\n".join(provenance.summary(entry)))
    print(
        f"{len(computed.pieces)} pieces over {len(computed.releases)} releases "
        f"({computed.releases[0]} to {computed.releases[-1]}) in "
        f"{time.perf_counter() - started:.1f} s"
    )
    if args.check:
        difference = provenance.compare(project, computed)
        if difference:
            print(difference)
            print("the manifest is out of date; rewrite it with: python -m jaxwaits provenance")
        newer = provenance.unrecorded(project, offline=True)
        if newer:  # news from upstream, not a fault of the checkout: verify-latest's job
            print(
                f"jax {', '.join(newer)} is on the package index but not yet in the manifest "
                "(checked: the releases it lists); to bring the site to it, follow the README's "
                "'When JAX releases', starting with: nox -s verify-latest"
            )
        return 1 if difference else 0
    print("\n".join(provenance.write(project, computed, texts)))
    stale = ledger.disagreements(computed, ledger.read(project.verified)[0], "docs/verified")
    if stale:  # entries judged against the manifest as it was: the next step is to judge again
        print("\n".join(stale))
        print(f"{len(stale)} ledger entries judged against the manifest as it was; verify again:")
        print("  the newest release: nox -s verify-latest; all stale: nox -s matrix -- --stale")
    return 0


def _with_jax(project: Project, python: str | None) -> str:
    """``python``, or else this interpreter if it has JAX, or else the environment that verify
    made for the pinned release (said on stderr); raises :class:`drift.NoJax` naming the way
    to one."""
    if python is not None:
        return python
    try:
        drift.installed(sys.executable)
        return sys.executable
    except drift.NoJax as missing:
        pinned = project.pinned_jax()
        envs = project.root / ".cache" / "jax-envs"
        made = sorted(envs.glob(f"jax-{pinned}-py*/.jaxwaits-made"))
        if not made:
            raise drift.NoJax(
                f"{missing}; or make the pinned release's environment once, which is then "
                f"used: nox -s verify -- {pinned}"
            ) from None
        found = str(made[-1].parent / "bin" / "python")
        print(f"jaxwaits: this Python has no JAX; using jax {pinned}'s: {found}", file=sys.stderr)
        return found


def _drift(project: Project, args: argparse.Namespace) -> int:
    started = time.perf_counter()
    python = _with_jax(project, args.python)
    jax, verdicts = drift.check(project, python)
    print(f"installed: jax {jax.version} in {jax.root} (for {python})")
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
    run.add_argument(
        "--fresh",
        action="store_true",
        help="a new interpreter per run, instead of a child of a template that imported JAX",
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

    packaged_too = (
        "In a checkout it reads the checkout; outside one (pip install jaxwaits), the claims "
        "index this jaxwaits was built with, which prints the same."
    )
    lst = commands.add_parser(
        "claims",
        help="list the claims, and any broken link in the chain",
        description="List the claims, and any broken link in the chain (checked in a checkout "
        "only; the vendored pieces against this Python's JAX: without one it says they were not "
        f"checked, and exits 2). {packaged_too}",
    )
    lst.set_defaults(handler=_claims, needs_project=False)

    cit = commands.add_parser(
        "cite",
        help="a Markdown link to a claim, for a code review",
        description="A Markdown link to a claim, for a code review: to this site release's "
        "page when this jaxwaits was made from the release's tag, else to the newest build's "
        f"(its page moves), said on stderr. {packaged_too}",
    )
    cit.add_argument("id")
    cit.add_argument(
        "--latest", action="store_true", help="link to the newest build, not this site release"
    )
    cit.set_defaults(handler=_cite, needs_project=False)

    chk = commands.add_parser(
        "check-site",
        help="claim pages, anchors and cite links resolve; no file holds this machine's paths",
    )
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
        help="record what these snippets print on this release as known differences",
    )
    ver.add_argument(
        "--observe",
        metavar="FILE",
        help="on a machine the checks do not run on (a GPU): run every snippet both ways on "
        "--python and save what it showed in FILE, for --observed",
    )
    ver.add_argument(
        "--observed",
        metavar="FILE",
        help="judge a file that --observe saved, and write the ledger file of its release and "
        "backend",
    )
    ver.add_argument(
        "--fresh",
        action="store_true",
        help="with --observe: run each snippet twice in a fresh interpreter, no template",
    )
    ver.add_argument(
        "--jobs", type=_positive, default=None, help="processes at once (default: cores)"
    )
    ver.set_defaults(handler=_verify)

    mat = commands.add_parser(
        "matrix", help="verify many releases (default: every release but tool.jaxwaits.skip)"
    )
    mat.add_argument("versions", nargs="*")
    mat.add_argument(
        "--stale", action="store_true", help="only releases with no or stale ledger entries"
    )
    mat.add_argument("--list", action="store_true", help="only print the releases, as JSON")
    mat.add_argument(
        "--record-known",
        nargs="+",
        metavar="NAME",
        default=[],
        help="verify only these snippets, recording what they print on each release as its "
        "known difference",
    )
    mat.set_defaults(handler=_matrix)

    lat = commands.add_parser("verify-latest", help="verify the newest release if not yet done")
    lat.set_defaults(handler=_verify_latest)

    note = commands.add_parser(
        "release-note", help="draft a release's note for docs/changes.md from the ledger"
    )
    note.add_argument("release", help="a JAX release in the ledger, e.g. 0.12.0")
    note.set_defaults(handler=_release_note)

    summ = commands.add_parser("summary", help="the ledger in Markdown, newest release in full")
    summ.set_defaults(handler=_summary)

    prov = commands.add_parser(
        "provenance", help="recompute the vendored pieces' history from the released jax wheels"
    )
    prov.add_argument("--offline", action="store_true", help="use only the cached wheels")
    prov.add_argument(
        "--refresh", action="store_true", help="fetch the release list anew (and new wheels)"
    )
    prov.add_argument(
        "--check",
        action="store_true",
        help="fail if the manifest is out of date for the releases it lists (newer ones named)",
    )
    prov.set_defaults(handler=_provenance)

    dri = commands.add_parser(
        "drift", help="check the vendored pieces against the installed jax, as the manifest says"
    )
    dri.add_argument(
        "--python",
        type=_interpreter,
        help="interpreter with JAX installed (default: this one, or else the environment that "
        "verify made for the pinned release)",
    )
    dri.set_defaults(handler=_drift)
    rev = commands.add_parser(
        "review", help="find the review checklist's mistakes in harness code (no JAX needed)"
    )
    rev.add_argument("paths", nargs="+", type=Path, help=".py, .ipynb, .md files or folders")
    rev.add_argument(
        "--format", choices=[f.value for f in formats.Format], default="text", help="output"
    )
    rev.add_argument("--select", type=_rule_codes, help="only these rules: JW101,JW104")
    rev.add_argument("--ignore", type=_rule_codes, help="not these rules")
    rev.set_defaults(handler=_review, needs_project=False)
    wat = commands.add_parser(
        "watch",
        help="run a harness and report the checklist's mistakes it makes as it runs",
        description="Run a harness unchanged and report the mistakes seen while it ran, on "
        "standard error (or --output). The exit status is the program's when it failed "
        "(128 + n when signal n killed it); otherwise 1 when a mistake was seen, 0 when none "
        "was. A SIGTERM, SIGHUP or Ctrl-C stops the program too; the exit status is then the "
        "signal's (128 + n).",
    )
    wat.add_argument(
        "--format", choices=[f.value for f in formats.Format], default="text", help="output"
    )
    wat.add_argument("--select", type=_rule_codes, help="only these rules: JW101,JW102")
    wat.add_argument("--ignore", type=_rule_codes, help="not these rules")
    wat.add_argument("--output", type=Path, help="write the report here, not to standard error")
    wat.add_argument(
        "program",
        nargs=argparse.REMAINDER,
        help="script.py ARGS, -m module ARGS, or -- a command line (python bench.py ARGS)",
    )
    wat.set_defaults(handler=_watch, needs_project=False)
    return top


def _watched_program(argv: list[str]) -> tuple[list[str], list[str]]:
    """``watch``'s own arguments, and the program's: from ``--``, ``-m`` or the first word
    that is not one of watch's options or their values."""
    valued = {"--format", "--select", "--ignore", "--output"}
    i = 1
    while i < len(argv):
        word = argv[i]
        if word in ("--", "-m") or not word.startswith("-"):
            return argv[:i], argv[i:]
        i += 2 if word in valued else 1
    return argv, []


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


def _dashed_path(argv: list[str]) -> str | None:
    """The first word of ``review`` before ``--`` that starts with ``-`` but is none of its
    options (``-rf.py``), which argparse would take for an option and refuse in a usage text."""
    options = {"-h", "--help", "--format", "--select", "--ignore"}
    for word in argv[1 : argv.index("--") if "--" in argv else None]:
        name = word.partition("=")[0]
        abbreviated = name.startswith("--") and any(o.startswith(name) for o in options)
        if word.startswith("-") and word != "-" and name not in options and not abbreviated:
            return word
    return None


def _rule_codes(text: str) -> set[str]:
    try:
        return parse_codes(text)
    except ValueError:
        known = ", ".join(RULES)
        raise argparse.ArgumentTypeError(f"{text!r} names no rule (rules: {known})") from None


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
    """Run one command: 0 success, 1 a check failed, 2 bad input (the message names it); 141
    when whatever read the output stopped reading."""
    argv = sys.argv[1:] if argv is None else argv
    program: list[str] = []
    if argv[:1] == ["watch"]:  # what names the program is the program's: argparse never sees it
        argv, program = _watched_program(argv)
    dashed = _dashed_path(argv) if argv[:1] == ["review"] else None
    if dashed is not None:
        print(
            f"jaxwaits: review: {dashed!r} is not an option of review; put -- before paths "
            f"that start with -: jaxwaits review [options] -- {dashed!r}",
            file=sys.stderr,
        )
        return 2
    args = parser().parse_args(argv)
    if program:
        args.program = program
    try:
        if not getattr(args, "needs_project", True):
            code = args.handler(args)
        else:
            with children_die_with_us():
                code = args.handler(find_project(), args)
        sys.stdout.flush()  # here, where a reader that went away (`| head`) can be caught
        return code
    except (JaxwaitsError, ReviewError) as error:
        print(f"jaxwaits: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader stopped reading: the rest is not wanted, and no flush at exit may fail
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a shell reports a program that SIGPIPE stopped
