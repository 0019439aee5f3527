"""The program a review reads, modelled up front in two steps before any rule runs: first each
module's own names (the files reviewed, and the modules under the folders reviewed that an
import names, each read once); then each module resolved, the modules it imports first, and
the JAX functions modules hand each other's functions given to them, until nothing more is
handed. A file reviewed alone is a program of its folder. No rule depends on what ran before
it: every question a rule asks has its answer already."""

from __future__ import annotations

import ast
from pathlib import Path

from harnesscheck import sources
from harnesscheck.model.handing import Position, hand
from harnesscheck.model.library import LIBRARIES
from harnesscheck.model.module import Imports, Module

ROUNDS = 8  # of handing JAX functions on through helpers: each round reaches one helper deeper


class Program:
    """The modules under ``roots``, by path: those added, and those their imports name."""

    def __init__(self, roots: list[Path]):
        self.roots = [root.resolve() for root in roots]
        self._modules: dict[Path, Module | None] = {}
        self._chunks: list[Module] = []
        self._found: dict[tuple[Path, str, int], Path | None] = {}

    def add(self, path: Path, tree: ast.Module | None = None, source: str = "") -> Module | None:
        """The first step for the module at ``path`` (read and parsed here unless ``tree`` and
        ``source`` are given): its own names; None when it cannot be read or parsed."""
        path = path.resolve()
        if path in self._modules:
            return self._modules[path]
        if tree is None:
            try:
                source = sources.chunks(path)[0].source
                tree = ast.parse(source)
            except Exception:  # unreadable here (RecursionError too): reviewing it says why
                self._modules[path] = None
                return None
        module = Module(tree, source, self.importer(path), path)
        self._modules[path] = module
        return module

    def resolve(self) -> dict[Module, BaseException]:
        """The second step for every module added, then the JAX functions modules hand the
        functions of others, handed on until nothing more is (or :data:`ROUNDS` deep). What
        went wrong in a module (nested past the recursion limit) is its own, by module."""
        failed: dict[Module, BaseException] = {}
        for module in [*self._modules.values(), *self._chunks]:
            if module is not None:
                try:
                    module.resolve()
                except Exception as error:
                    failed[module] = error
        for _ in range(ROUNDS):
            handed: dict[Module, dict[str, set[Position]]] = {}
            for module in [*self._modules.values(), *self._chunks]:
                for target, name, positions in module.handing if module is not None else []:
                    handed.setdefault(target, {}).setdefault(name, set()).update(positions)
            changed = False
            for target, names in handed.items():
                try:
                    changed = hand(target, names) or changed
                except Exception as error:
                    failed[target] = error
            if not changed:
                break
        return failed

    def chunk(self, path: Path, tree: ast.Module, source: str) -> Module:
        """The first step for a notebook's or a Markdown file's code: a module no import
        names, that imports the program's."""
        module = Module(tree, source, self.importer(path), path.resolve())
        self._chunks.append(module)
        return module

    def importer(self, path: Path) -> Imports:
        """What finds, for the module at ``path``, the facts of the modules it imports."""
        folder = path.resolve().parent

        def imports(name: str, level: int) -> Module | None:
            found = self._find(folder, name, level)
            return self.add(found) if found is not None else None

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
