"""Compute each vendored piece's history from the released ``jax`` wheels.

For every release from the manifest's ``first`` on, the piece's upstream file is read from the
wheel, parsed, and the piece located by its qualified name. Consecutive releases whose text is the
same form a run: identical to the vendored text, different from it (with the diff), or absent.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from packaging.version import Version

from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.report import diff
from jaxwaits.files import write_atomic
from jaxwaits.pieces import manifest, upstream
from jaxwaits.pieces.manifest import Entry, Manifest, TextRun, TextState, sha256
from jaxwaits.project import Project
from jaxwaits.releases import wheels

Target = tuple[str, str]  # (upstream file, qualified name)


@dataclass(frozen=True)
class Found:
    """A piece in one release: its span and text, or None (with whether the file was there)."""

    has_file: bool
    span: upstream.LineSpan | None = None
    text: str | None = None


def scan(wheel_path: Path, targets: list[Target]) -> dict[Target, Found]:
    """Locate every target in one wheel (each file parsed once)."""
    found: dict[Target, Found] = {}
    for file in sorted({file for file, _ in targets}):
        source = wheels.read_member(wheel_path, file)
        tree = upstream.parse(source, f"{wheel_path.name}/{file}") if source is not None else None
        for target in [t for t in targets if t[0] == file]:
            span = upstream.locate(tree, target[1]) if tree else None
            if source is None or span is None:
                found[target] = Found(has_file=source is not None)
            else:
                found[target] = Found(True, span, span.text(source))
    return found


def line_change(old: str, new: str) -> str:
    """How ``new`` differs from ``old``, in lines: ``+added/-removed lines``."""
    matcher = difflib.SequenceMatcher(a=old.splitlines(), b=new.splitlines(), autojunk=False)
    added = removed = 0
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            removed += i2 - i1
            added += j2 - j1
    return f"+{added}/-{removed} lines"


def _state(entry: Entry, found: Found, vendored: str, existed: bool) -> TextRun:
    """A one-release run for ``found`` (the caller merges equal neighbours)."""
    if found.text is None:
        where = entry.file if found.has_file else f"{entry.file} (no such file)"
        change = f"removed from {where}" if existed else f"not yet in {where}"
        successor = entry.successor if existed else ""
        return TextRun("", "", 1, TextState.ABSENT, change=change, succeeded_by=successor)
    if found.text == vendored:
        return TextRun("", "", 1, TextState.IDENTICAL, sha256(vendored))
    return TextRun(
        "", "", 1, TextState.DIFFERS, sha256(found.text), line_change(vendored, found.text)
    )


def history(entry: Entry, releases: list[str], found: dict[str, Found]) -> list[TextRun]:
    """Runs of consecutive releases over which the piece's text is the same."""
    vendored = found[entry.release].text
    assert vendored is not None
    runs: list[TextRun] = []
    existed = False
    for version in releases:
        existed = existed or found[version].text is not None
        run = replace(_state(entry, found[version], vendored, existed), first=version, last=version)
        previous = runs[-1] if runs else None
        if previous and (previous.status, previous.sha256, previous.change) == (
            run.status,
            run.sha256,
            run.change,
        ):
            runs[-1] = replace(previous, last=version, count=previous.count + 1)
        else:
            runs.append(run)
    return [_with_diff(entry, run, vendored, found[run.first]) for run in runs]


def _with_diff(entry: Entry, run: TextRun, vendored: str, found: Found) -> TextRun:
    if run.status != TextState.DIFFERS:
        return run
    assert found.text is not None
    span = run.first if run.first == run.last else f"{run.first} to {run.last}"
    labels = (f"{entry.name} @ jax {entry.release} (vendored)", f"{entry.name} @ jax {span}")
    return replace(run, diff=diff(vendored, found.text, *labels))


def _fetch(
    cache: Path, releases: list[wheels.Release], offline: bool, say: Callable[[str], None]
) -> list[Path]:
    missing = [r for r in releases if not (cache / r.filename).exists()]
    if missing and not offline:
        say(f"fetching {len(missing)} jax wheels the cache lacks into {cache} (about 2 MB each)")

    def fetch(release: wheels.Release) -> Path:
        path = wheels.wheel(cache, release, offline=offline)
        if release in missing:
            say(f"fetched {release.filename}")
        return path

    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(fetch, releases))


def compute(
    project: Project,
    *,
    offline: bool = False,
    refresh: bool = False,
    recorded_only: bool = False,
    say: Callable[[str], None] = lambda _: None,
) -> tuple[Manifest, dict[str, str]]:
    """The manifest with every history recomputed, and each piece's text at its release.

    The release list comes from the wheel cache when it has one (``refresh`` fetches it anew);
    ``offline`` never downloads. With ``recorded_only``, only the releases the manifest lists
    are read (see :func:`unrecorded` for the newer ones). ``say`` is told of each wheel fetched
    and of the scan."""
    old = manifest.load(project.annotated_src)
    cache = wheels.cache_folder(project.root)
    releases = wheels.listed(cache, old.first, offline=offline, refresh=refresh)
    if recorded_only:
        releases = [r for r in releases if r.version in old.releases]
    versions = [r.version for r in releases]
    targets = sorted({(entry.file, entry.qualname) for entry in old.pieces.values()})
    paths = _fetch(cache, releases, offline, say)
    say(f"reading {len(targets)} functions in each of {len(paths)} releases")
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        scans = dict(zip(versions, pool.map(scan, paths, [targets] * len(paths)), strict=True))
    pieces: dict[str, Entry] = {}
    texts: dict[str, str] = {}
    for name, entry in old.pieces.items():
        found = {version: scans[version][(entry.file, entry.qualname)] for version in versions}
        at_release = found.get(entry.release)
        if at_release is None or at_release.text is None or at_release.span is None:
            raise JaxwaitsError(
                f"{name}: {entry.qualname} is not in {entry.file} of jax {entry.release} "
                "(the release it is said to be copied from); fix the piece's head in the manifest"
            )
        span = (at_release.span.start, at_release.span.end)
        runs = history(entry, versions, found)
        pieces[name] = manifest.with_history(entry, span, sha256(at_release.text), runs)
        texts[name] = at_release.text
    yanked = [r.version for r in releases if r.yanked]
    return Manifest(old.first, versions, yanked, pieces), texts


def unrecorded(project: Project, *, offline: bool = False, refresh: bool = False) -> list[str]:
    """The releases on the package index newer than the manifest's newest, oldest first: a new
    JAX the site has not been brought to yet (README, "When JAX releases")."""
    old = manifest.load(project.annotated_src)
    cache = wheels.cache_folder(project.root)
    listed = wheels.listed(cache, old.first, offline=offline, refresh=refresh)
    newest = max((Version(r) for r in old.releases), default=Version(old.first))
    return [r.version for r in listed if r.key > newest]


def summary(entry: Entry) -> list[str]:
    """The piece's history, one line per run."""
    start, end = entry.lines
    lines = [f"{entry.name}: {entry.qualname} in {entry.file}:{start}-{end} at jax {entry.release}"]
    for run in entry.history:
        span = f"{run.first} - {run.last}" if run.first != run.last else run.first
        detail = ", ".join(
            part
            for part in (run.change, run.succeeded_by and f"succeeded by {run.succeeded_by}")
            if part
        )
        state = run.status.value
        lines.append(f"  {span:<20} {run.count:>3} release(s)  {state:<9} {detail}".rstrip())
    return lines


def compare(project: Project, computed: Manifest) -> str | None:
    """The diff from the committed manifest to ``computed``, or None if they are the same."""
    path = project.annotated_src / manifest.FILE
    new, old = manifest.dumps(computed), path.read_text(encoding="utf-8")
    if new == old:
        return None
    return diff(old, new, f"{project.relative(path)} (committed)", "computed now")


def write(project: Project, computed: Manifest, texts: dict[str, str]) -> list[str]:
    """Write ``computed`` as the manifest, and copy in each piece not vendored yet; say what
    was written."""
    path = project.annotated_src / manifest.FILE
    changed = compare(project, computed) is not None
    write_atomic(path, manifest.dumps(computed))
    lines = [f"{project.relative(path)}: {'rewritten' if changed else 'unchanged'}"]
    for name, text in texts.items():
        piece = project.annotated_src / f"{name}.py"
        if not piece.exists():
            write_atomic(piece, text)
            lines.append(f"{project.relative(piece)}: new, copied from upstream; annotate it")
    return lines
