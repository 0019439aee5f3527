"""``provenance`` and ``drift``: the vendored pieces' history over the released wheels, and
the pieces against an installed JAX."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from jaxwaits.pieces import drift
from jaxwaits.project import Project
from jaxwaits.releases import ledger, provenance


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


def with_jax(project: Project, python: str | None) -> str:
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
    python = with_jax(project, args.python)
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


HANDLERS: dict[str, Callable[..., int]] = {"provenance": _provenance, "drift": _drift}
