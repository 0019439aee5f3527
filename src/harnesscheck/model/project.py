"""The project a review reads: the Python modules an import can name, found under the folders
reviewed (a file reviewed alone: its own folder), each read once and only when a module being
checked imports it. What one module jits, dispatches, waits on or times is then known in the
modules that import it, and the JAX functions a module hands another module's helper are known
there (:attr:`Module.handing <harnesscheck.model.facts.Module.handing>`)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from harnesscheck import sources
from harnesscheck.model.facts import Imports, Module

# Imports that name libraries, never the project's own modules, are not looked for: the
# standard library's (a package's own typing.py is not what `import typing` imports) and these.
LIBRARIES = {"jax", "jaxlib", "numpy", "flax", "optax", "equinox", "haiku"} | set(
    sys.stdlib_module_names
)


class Project:
    """The modules under ``roots``, by path, read as they are asked for; ``handed`` holds, by
    path, the parameters of a module's functions that other modules hand JAX functions."""

    def __init__(self, roots: list[Path], handed: dict[Path, dict[str, set[int]]] | None = None):
        self.roots = [root.resolve() for root in roots]
        self.handed = handed or {}
        self._facts: dict[Path, Module | None] = {}
        self._found: dict[tuple[Path, str, int], Path | None] = {}

    def facts(self, path: Path, tree: ast.Module | None = None, source: str = "") -> Module | None:
        """The facts of the module at ``path`` (read and parsed here unless ``tree`` and
        ``source`` are given), None when it cannot be read or parsed; a module still being
        read, which an import cycle leads back to, is None as well."""
        path = path.resolve()
        if path in self._facts:
            return self._facts[path]
        self._facts[path] = None  # an import cycle back to it finds nothing
        if tree is None:
            try:
                source = sources.pieces(path)[0].source
                tree = ast.parse(source)
            except Exception:  # unreadable here (RecursionError too): reviewing it says why
                return None
        module = Module(tree, source, self.importer(path), self.handed.get(path), path)
        self._facts[path] = module
        return module

    def importer(self, path: Path) -> Imports:
        """What finds, for the module at ``path``, the facts of the modules it imports."""
        folder = path.resolve().parent

        def imports(name: str, level: int) -> Module | None:
            found = self._find(folder, name, level)
            return self.facts(found) if found is not None else None

        return imports

    def _find(self, folder: Path, name: str, level: int) -> Path | None:
        """The file an import of ``name`` at ``level`` from a module in ``folder`` names: a
        relative import from the package it is in; an absolute one from that folder or a
        folder above it, within the root it was found under."""
        if not level and name.partition(".")[0] in LIBRARIES:
            return None
        key = (folder, name, level)
        if key not in self._found:
            self._found[key] = self._search(folder, name, level)
        return self._found[key]

    def _search(self, folder: Path, name: str, level: int) -> Path | None:
        parts = [part for part in name.split(".") if part]
        if not parts:
            return None
        root = next((r for r in self.roots if folder.is_relative_to(r)), None)
        if root is None:
            return None
        if level:
            bases = [folder.parents[level - 2] if level > 1 else folder]
        else:
            bases = [folder, *(p for p in folder.parents if p.is_relative_to(root))]
            bases += [root / "src"]
        for base in bases:
            if not base.is_relative_to(root):
                continue
            stem = base.joinpath(*parts)
            for candidate in (stem.with_name(stem.name + ".py"), stem / "__init__.py"):
                if candidate.is_file():
                    return candidate
        return None
