"""No room imports one above it (DESIGN.md: the rooms in the order the data flows); the harness
checker is a package of its own, laid out by layer, that imports nothing of the site."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "jaxwaits"
CHECKER = SRC.parent / "harnesscheck"
# Each room may import the rooms before it; the modules of the package's top level serve all.
ORDER = [
    "evidence",
    "claims",
    "pieces",
    "releases",
    "chain",
    "sphinxext",
    "cli",
    "__main__",
]
SHARED = {"jaxwaits", "errors", "files", "project", "toml_writer"}
RENDERERS = {"sphinxext", "cli", "__main__"}  # the doors: only they may know Sphinx


# The checker's layers, in the order its data flows: what a rule finds and the errors serve all;
# files read as Python; one model of the whole program; its timed regions; the rules; results
# and their formats; the review that runs them; beside them the watch, and the measures.
LAYERS = [
    "errors",
    "findings",
    "sources",
    "model",
    "regions",
    "rules",
    "results",
    "review",
    "watch",
    "measure",
]


def _room(path: Path, top: Path = SRC) -> str:
    parts = path.relative_to(top).parts
    return parts[0].removesuffix(".py")


def _imports(top: Path = SRC) -> dict[tuple[str, str], set[str]]:
    """(room, what it imports: another room, or a package outside) -> the files that do."""
    found: dict[tuple[str, str], set[str]] = {}
    package = top.name
    for path in sorted(top.rglob("*.py")):
        room = _room(path, top)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[0] == package and len(parts) == 1 and isinstance(node, ast.ImportFrom):
                    targets = [alias.name for alias in node.names]  # from package import room
                elif parts[0] == package and len(parts) > 1:
                    targets = [parts[1]]
                else:
                    targets = [parts[0]]
                for target in targets:
                    if target != room:
                        found.setdefault((room, target), set()).add(str(path.relative_to(top)))
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


def test_each_layer_of_the_checker_imports_only_those_before_it() -> None:
    assert {path.name for path in CHECKER.iterdir() if path.name != "__pycache__"} >= {
        f"{layer}.py" if (CHECKER / f"{layer}.py").exists() else layer for layer in LAYERS
    }
    upward = {
        edge: sorted(files)
        for edge, files in _imports(CHECKER).items()
        if edge[1] in LAYERS and LAYERS.index(edge[1]) > LAYERS.index(edge[0])
    }
    assert not upward, f"imports upward: {upward}"
    unknown = {edge for edge in _imports(CHECKER) if edge[0] not in [*LAYERS, "__init__"]}
    assert not unknown, f"a module outside the layers: {unknown}"


def test_the_checker_imports_nothing_of_the_site() -> None:
    """It needs no checkout: the claim links it prints come from the claims index, as data."""
    found = {edge: files for edge, files in _imports(CHECKER).items() if edge[1] == "jaxwaits"}
    assert not found, found


def test_only_the_doors_of_the_site_import_the_checker() -> None:
    found = {
        edge: sorted(files)
        for edge, files in _imports().items()
        if edge[1] == "harnesscheck" and edge[0] not in RENDERERS
    }
    assert not found, found


def test_no_module_is_over_500_lines() -> None:
    long = {
        str(path.relative_to(SRC.parent)): lines
        for path in sorted(SRC.parent.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 500
    }
    assert not long, f"split these by job: {long}"


def test_each_class_name_is_defined_once() -> None:
    """Across the site and the checker together: one name, one class (a reader, a search, a
    traceback never has to ask which)."""
    defined: dict[str, list[str]] = {}
    for path in sorted(SRC.parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                place = f"{path.relative_to(SRC.parent)}:{node.lineno}"
                defined.setdefault(node.name, []).append(place)
    twice = {name: places for name, places in defined.items() if len(places) > 1}
    assert not twice, f"defined more than once: {twice}"
