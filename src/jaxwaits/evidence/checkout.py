"""The checkout a snippet run must leave as it found it: a snapshot of its files before and after
each run, and what changed in between that the tools did not write themselves.

A snippet runs in a scratch folder of its own, so nothing it writes by a relative path lands in
the checkout; this catches what it does by any other path (``chdir("..")``, ``__file__``). A
change made while several snippets ran at once is laid at each of them, naming the others.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from jaxwaits import files
from jaxwaits.project import is_checkout

# Folders whose files the tools and the build rewrite as they go (caches, environments, builds).
SKIPPED = {
    ".git",
    ".nox",
    ".cache",
    ".venv",
    "venv",
    "_build",
    "_readthedocs",  # Read the Docs' output ($READTHEDOCS_OUTPUT), inside the checkout it builds
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    ".mypy_cache",
    "node_modules",
}


@dataclass(frozen=True)
class Snapshot:
    """Every file below ``root`` (outside :data:`SKIPPED` folders) with its size, modification
    time and inode: a file rewritten, appended to, replaced or touched looks different."""

    root: Path
    files: dict[str, tuple[int, int, int]]


def snapshot(root: Path) -> Snapshot:
    found: dict[str, tuple[int, int, int]] = {}
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED)
        for name in names:
            path = os.path.join(folder, name)
            try:
                stat = os.lstat(path)
            except OSError:
                continue  # removed meanwhile: seen as gone
            found[os.path.relpath(path, root)] = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
    return Snapshot(root, found)


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """What changed between two snapshots, as ``deleted docs/glossary.md``, ``changed …``,
    ``added …``; files the tools wrote or removed themselves (:mod:`jaxwaits.files`) are left
    out."""
    found = []
    for name in sorted(before.files.keys() | after.files.keys()):
        old, new = before.files.get(name), after.files.get(name)
        if old == new or files.written_by_us(before.root / name):
            continue
        verb = "deleted" if new is None else "added" if old is None else "changed"
        found.append(f"{verb} {name}")
    return found


def guarded_root(snippets_folder: Path) -> Path:
    """The folder a run must leave unchanged: the checkout the snippets folder is in, or the
    snippets folder alone outside a checkout."""
    parent = snippets_folder.resolve().parent
    return parent if is_checkout(parent) else snippets_folder.resolve()
