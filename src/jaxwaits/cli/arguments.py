"""The command line's words: every command's arguments, and which module of :mod:`jaxwaits.cli`
handles it (imported, with the rooms it calls, only when the command runs)."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from harnesscheck.results import formats
from harnesscheck.rules import RULES, parse_codes

Commands = argparse._SubParsersAction  # what add_subparsers returns


def parser(description: str) -> argparse.ArgumentParser:
    """Every command, in the order ``--help`` lists them."""
    top = argparse.ArgumentParser(prog="python -m jaxwaits", description=description)
    commands = top.add_subparsers(dest="command", required=True)
    _snippet_commands(commands)
    _claim_commands(commands)
    _release_commands(commands)
    _piece_commands(commands)
    _checker_commands(commands)
    return top


def _handled_in(command: argparse.ArgumentParser, module: str, needs_project: bool = True) -> None:
    """The module of :mod:`jaxwaits.cli` whose ``HANDLERS`` runs ``command``; ``needs_project``:
    it is given the checkout above the working directory."""
    command.set_defaults(handled_in=module, needs_project=needs_project)


def _snippet_commands(commands: Commands) -> None:
    """``run`` and ``record``: the snippets (:mod:`jaxwaits.cli.snippet_commands`)."""
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
    _handled_in(run, "snippet_commands")

    rec = commands.add_parser("record", help="re-run snippets and rewrite their recorded output")
    rec.add_argument("names", nargs="*", help="snippet names (default: all)")
    rec.add_argument(
        "--known",
        action="store_true",
        help="on a release other than the pinned one: record "
        "its output as a known difference for that release",
    )
    _handled_in(rec, "snippet_commands")

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


def _claim_commands(commands: Commands) -> None:
    """``claims``, ``cite`` and ``check-site`` (:mod:`jaxwaits.cli.claim_commands`)."""
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
    _handled_in(lst, "claim_commands", needs_project=False)

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
    _handled_in(cit, "claim_commands", needs_project=False)

    chk = commands.add_parser(
        "check-site",
        help="claim pages, anchors and cite links resolve; no file holds this machine's paths",
    )
    chk.add_argument("html", nargs="?", default="docs/_build/html")
    _handled_in(chk, "claim_commands")


def _release_commands(commands: Commands) -> None:
    """``verify`` to ``summary``: the releases (:mod:`jaxwaits.cli.release_commands`)."""
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
    _handled_in(ver, "release_commands")

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
    _handled_in(mat, "release_commands")

    lat = commands.add_parser("verify-latest", help="verify the newest release if not yet done")
    _handled_in(lat, "release_commands")

    note = commands.add_parser(
        "release-note", help="draft a release's note for docs/changes.md from the ledger"
    )
    note.add_argument("release", help="a JAX release in the ledger, e.g. 0.12.0")
    _handled_in(note, "release_commands")

    summ = commands.add_parser("summary", help="the ledger in Markdown, newest release in full")
    _handled_in(summ, "release_commands")


def _piece_commands(commands: Commands) -> None:
    """``provenance`` and ``drift``: the vendored pieces (:mod:`jaxwaits.cli.piece_commands`)."""
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
    _handled_in(prov, "piece_commands")

    dri = commands.add_parser(
        "drift", help="check the vendored pieces against the installed jax, as the manifest says"
    )
    dri.add_argument(
        "--python",
        type=_interpreter,
        help="interpreter with JAX installed (default: this one, or else the environment that "
        "verify made for the pinned release)",
    )
    _handled_in(dri, "piece_commands")


def _checker_commands(commands: Commands) -> None:
    """``review`` and ``watch``: the harness checker (:mod:`jaxwaits.cli.checker_commands`)."""
    rev = commands.add_parser(
        "review", help="find the review checklist's mistakes in harness code (no JAX needed)"
    )
    rev.add_argument("paths", nargs="+", type=Path, help=".py, .ipynb, .md files or folders")
    rev.add_argument(
        "--format", choices=[f.value for f in formats.Format], default="text", help="output"
    )
    rev.add_argument("--select", type=_rule_codes, help="only these rules: JW101,JW104")
    rev.add_argument("--ignore", type=_rule_codes, help="not these rules")
    _handled_in(rev, "checker_commands", needs_project=False)
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
    _handled_in(wat, "checker_commands", needs_project=False)


def watched_program(argv: list[str]) -> tuple[list[str], list[str]]:
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


def dashed_path(argv: list[str]) -> str | None:
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
