"""The claims registry: every ``{claim}`` declared in ``docs/``, every reference to one, and the
checks that keep the chain of evidence whole.

A claim is declared once, in prose::

    ```{claim} returns-self
    :evidence: method_returns_self
    The method returns the array itself.
    ```

Options: ``evidence`` (snippet names, space-separated; required), ``needs`` (a backend such as
``gpu`` when the claim can only be observed there), ``rests-on`` (what such a claim rests on
instead; required with ``needs``), ``renamed-from`` (old IDs that keep resolving to this one).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from jaxwaits import myst
from jaxwaits.project import Project

ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
OPTIONS = {"evidence", "needs", "rests-on", "renamed-from"}


@dataclass(frozen=True)
class Claim:
    """A fact the site states, with its permanent ID and the snippets that back it."""

    id: str
    statement: str
    evidence: tuple[str, ...]
    needs: str | None
    rests_on: str | None
    renamed_from: tuple[str, ...]
    file: Path
    line: int


@dataclass(frozen=True)
class Problem:
    """A broken link in the chain, located."""

    file: Path
    line: int
    message: str

    @property
    def where(self) -> str:
        """``file:line``, the file relative to the working directory when it lies below it."""
        return f"{os.path.relpath(self.file) if self.file.is_absolute() else self.file}:{self.line}"

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class Registry:
    claims: dict[str, Claim]
    references: tuple[myst.RoleUse, ...]
    snippet_cells: tuple[myst.Block, ...]  # code cells that load a snippet
    problems: tuple[Problem, ...]  # found while reading

    def resolve(self, claim_id: str) -> Claim | None:
        """The claim with this ID, or the one it was renamed to."""
        if claim_id in self.claims:
            return self.claims[claim_id]
        return next((c for c in self.claims.values() if claim_id in c.renamed_from), None)

    def evidence(self) -> dict[str, tuple[str, ...]]:
        """Claim ID -> the snippets that back it."""
        return {claim.id: claim.evidence for claim in self.claims.values()}


def _claim(block: myst.Block) -> tuple[Claim, list[Problem]]:
    problems = [
        Problem(block.file, block.line, f"claim {block.argument!r}: unknown option :{key}:")
        for key in block.options
        if key not in OPTIONS
    ]
    claim = Claim(
        id=block.argument,
        statement=" ".join(block.body.split()),
        evidence=tuple(block.options.get("evidence", "").replace(",", " ").split()),
        needs=block.options.get("needs") or None,
        rests_on=block.options.get("rests-on") or None,
        renamed_from=tuple(block.options.get("renamed-from", "").replace(",", " ").split()),
        file=block.file,
        line=block.line,
    )
    return claim, problems


def scan(project: Project) -> Registry:
    """Read every page in ``docs/`` and every vendored piece in ``annotated_src/``."""
    claims: dict[str, Claim] = {}
    problems: list[Problem] = []
    references: list[myst.RoleUse] = []
    cells: list[myst.Block] = []
    pages = sorted(p for p in project.docs.rglob("*.md") if "_build" not in p.parts)
    for page in pages:
        for block in myst.blocks(page):
            if block.name == "code-cell" and "load" in block.options:
                cells.append(block)
            if block.name != "claim":
                continue
            claim, found = _claim(block)
            problems += found
            if claim.id in claims:
                first = claims[claim.id]
                problems.append(
                    Problem(
                        block.file,
                        block.line,
                        f"claim ID {claim.id!r} is declared twice (first at "
                        f"{Problem(first.file, first.line, '').where}); an ID names exactly one "
                        "claim",
                    )
                )
                continue
            claims[claim.id] = claim
        references += myst.role_uses(page)
    for piece in sorted(project.annotated_src.glob("*.py")):
        references += myst.role_uses(piece)
    return Registry(claims, tuple(references), tuple(cells), tuple(problems))


def check(registry: Registry, snippet_names: set[str]) -> list[Problem]:
    """Every broken link between claims, references and snippets, all at once."""
    problems = list(registry.problems)
    retired: dict[str, Claim] = {}
    for claim in registry.claims.values():
        at = (claim.file, claim.line)
        if not ID.match(claim.id):
            problems.append(Problem(*at, f"claim ID {claim.id!r} is not kebab-case"))
        if not claim.statement:
            problems.append(Problem(*at, f"claim {claim.id!r} states nothing"))
        if not claim.evidence:
            problems.append(Problem(*at, f"claim {claim.id!r} has no :evidence: snippet"))
        for name in claim.evidence:
            if name not in snippet_names:
                problems.append(
                    Problem(
                        *at,
                        f"claim {claim.id!r}: evidence snippet {name!r} does not exist "
                        f"(no snippets/{name}.py)",
                    )
                )
        if claim.needs and not claim.rests_on:
            problems.append(
                Problem(
                    *at,
                    f"claim {claim.id!r} needs {claim.needs} but does not say what it "
                    "rests on here (:rests-on:)",
                )
            )
        for old in claim.renamed_from:
            if old in registry.claims or old in retired:
                problems.append(
                    Problem(*at, f"old claim ID {old!r} is reused; IDs are never reused")
                )
            retired[old] = claim
    for ref in registry.references:
        if registry.resolve(ref.target) is None:
            problems.append(
                Problem(ref.file, ref.line, f"reference to unknown claim {ref.target!r}")
            )
    backed = {name for claim in registry.claims.values() for name in claim.evidence}
    shown = {_snippet_name(cell) for cell in registry.snippet_cells}
    for name in sorted(snippet_names - backed):
        problems.append(
            Problem(Path("snippets") / f"{name}.py", 1, f"snippet {name!r} backs no claim")
        )
    for name in sorted(snippet_names - shown):
        problems.append(
            Problem(
                Path("snippets") / f"{name}.py",
                1,
                f"snippet {name!r} is not executed by any page (no code-cell :load:s it)",
            )
        )
    for cell in registry.snippet_cells:
        target = (cell.file.parent / cell.options["load"]).resolve()
        if not target.exists():
            problems.append(
                Problem(cell.file, cell.line, f"code-cell loads a missing file: {target}")
            )
    return problems


def _snippet_name(cell: myst.Block) -> str:
    return Path(cell.options["load"]).stem
