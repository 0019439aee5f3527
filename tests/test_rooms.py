"""No room imports one above it (DESIGN.md: the rooms in the order the data flows)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "jaxwaits"
# Each room may import the rooms before it; the modules of the package's top level serve all.
ORDER = [
    "evidence",
    "claims",
    "pieces",
    "releases",
    "chain",
    "review",
    "sphinxext",
    "cli",
    "__main__",
]
SHARED = {"jaxwaits", "errors", "files", "project", "toml_writer"}
RENDERERS = {"sphinxext", "cli", "__main__"}  # the doors: only they may know Sphinx


def _room(path: Path) -> str:
    parts = path.relative_to(SRC).parts
    return parts[0].removesuffix(".py")


def _imports() -> dict[tuple[str, str], set[str]]:
    """(room, what it imports: another room, or a package outside) -> the files that do."""
    found: dict[tuple[str, str], set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        room = _room(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                target = parts[1] if parts[0] == "jaxwaits" and len(parts) > 1 else parts[0]
                if target != room:
                    found.setdefault((room, target), set()).add(str(path.relative_to(SRC)))
    return found


def test_no_room_imports_one_above_it() -> None:
    upward = {
        edge: sorted(files)
        for edge, files in _imports().items()
        if edge[1] in ORDER
        and edge[1] not in SHARED
        and (edge[0] in SHARED or ORDER.index(edge[1]) > ORDER.index(edge[0]))
    }
    assert not upward, f"imports upward: {upward}"


def test_the_claims_and_the_releases_know_nothing_of_each_other() -> None:
    """The judge (chain/) joins them; neither room reads the other."""
    found = _imports()
    edges = {("claims", "releases"), ("releases", "claims")}
    assert not {edge: found[edge] for edge in edges if edge in found}


def test_only_the_doors_import_sphinx_or_docutils() -> None:
    found = {
        edge: sorted(files)
        for edge, files in _imports().items()
        if edge[1] in {"sphinx", "docutils"} and edge[0] not in RENDERERS
    }
    assert not found, f"Sphinx below the doors: {found}"
