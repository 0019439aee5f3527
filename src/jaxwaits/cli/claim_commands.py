"""``claims``, ``cite`` and ``check-site``: the claims, from a checkout or the packaged index."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from jaxwaits.chain import cite, facts, packaged
from jaxwaits.chain import problems as chain_problems
from jaxwaits.cli.piece_commands import with_jax
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.processes import children_die_with_us
from jaxwaits.pieces import drift
from jaxwaits.project import NoCheckout, Project, find_project


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
            python = with_jax(found.project, None)
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


HANDLERS: dict[str, Callable[..., int]] = {
    "claims": _claims,
    "cite": _cite,
    "check-site": _check_site,
}
