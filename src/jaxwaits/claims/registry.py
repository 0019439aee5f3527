"""The claims registry: every ``{claim}`` declared in ``docs/``, every reference to one, and the
checks that keep the chain of evidence whole.

A claim is declared once, in prose (the options may also be a YAML block between ``---`` lines)::

    ```{claim} returns-self
    :evidence: method_returns_self
    The method returns the array itself.
    ```

The pages are read once, by :mod:`jaxwaits.claims.reader`; the Sphinx directive looks the typed
claim up here rather than reading its options again.

Options: ``evidence`` (snippet names, space-separated; required); one per scope axis (required,
:mod:`jaxwaits.claims.scope`: ``backend``, ``threads``, ``devices``, ``failures``, ``dtype``,
``context``), the values the evidence exercises (for ``backend``, those the ledger shows it
holding on: :mod:`jaxwaits.chain.backends`); ``rests-on`` (for a claim whose ``backend`` is one
these checks do not run on, what it rests on there while no run there is in the ledger),
``renamed-from`` (old IDs that keep resolving to this one),
``source`` (the annotated upstream lines whose notes cite the claim, as their anchors, e.g.
``api.block_until_ready-L2790``), ``since`` and ``until`` (the first and the last JAX release on
which the claim holds as worded, for a claim that does not hold on every release; the ledger must
agree). A citation is a link with two ends: a note that cites a claim the claim does not list, or
a listed line whose note no longer cites it, is a problem.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from jaxwaits.claims import reader, scope
from jaxwaits.claims.scope import Scope
from jaxwaits.project import Project

ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # whole IDs only: ID.fullmatch
ID_RULE = "lower-case ASCII letters and digits in words joined by single hyphens"
OPTIONS = {"evidence", "rests-on", "renamed-from", "source", "since", "until", *scope.NAMES}
CHECKED_ON = "cpu"  # the backend the snippets run on in CI and in the build


@dataclass(frozen=True)
class Claim:
    """A fact the site states, with its permanent ID and the snippets that back it."""

    id: str
    statement: str
    evidence: tuple[str, ...]
    rests_on: str | None
    renamed_from: tuple[str, ...]
    file: Path
    line: int
    sources: tuple[str, ...] = ()
    since: str | None = None  # the first release it holds on, if not every one
    until: str | None = None  # the last release it holds on, if not every one
    scope: Scope = field(default_factory=Scope)  # the values its evidence exercises, per axis

    @property
    def needs(self) -> str | None:
        """The backend the claim can be observed on only, when it is not the one the snippets
        run on here (its ``backend`` lists no ``cpu``); None otherwise."""
        backends = self.scope.of("backend")
        return backends[0] if backends and CHECKED_ON not in backends else None

    @property
    def releases(self) -> str:
        """The releases it declares it holds on, in words ("from jax 0.5.1"); empty when it
        declares none (every release)."""
        if self.since and self.until:
            return f"from jax {self.since} up to {self.until}"
        if self.since:
            return f"from jax {self.since}"
        return f"up to jax {self.until}" if self.until else ""


@dataclass(frozen=True)
class BrokenLink:
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
class PieceCitation:
    """A claim cited in a vendored piece's note: the anchor of the upstream line the note sits
    on, and the file and line that hold the role (read by :mod:`jaxwaits.pieces.cited`)."""

    claim: str
    anchor: str
    file: Path
    at: int


@dataclass(frozen=True)
class Registry:
    claims: dict[str, Claim]
    references: tuple[reader.RoleUse, ...]  # claim references in the pages
    snippet_cells: tuple[reader.Directive, ...]  # code cells that load a snippet
    problems: tuple[BrokenLink, ...]  # found while reading
    citations: tuple[PieceCitation, ...] = ()  # the vendored pieces' notes', when given

    def resolve(self, claim_id: str) -> Claim | None:
        """The claim with this ID, or the one it was renamed to."""
        if claim_id in self.claims:
            return self.claims[claim_id]
        return next((c for c in self.claims.values() if claim_id in c.renamed_from), None)

    def evidence(self) -> dict[str, tuple[str, ...]]:
        """Claim ID -> the snippets that back it."""
        return {claim.id: claim.evidence for claim in self.claims.values()}

    def backs(self) -> dict[str, list[str]]:
        """Snippet name -> the IDs of the claims it backs."""
        found: dict[str, list[str]] = {}
        for claim in self.claims.values():
            for name in claim.evidence:
                found.setdefault(name, []).append(claim.id)
        return found


def _words(value: str) -> tuple[str, ...]:
    return tuple(value.replace(",", " ").split())


def _claim(block: reader.Directive) -> tuple[Claim | None, list[BrokenLink]]:
    """The claim a block declares, or None when its ID is not one (no page, link or file is ever
    made from it)."""
    if not ID.fullmatch(block.argument):
        why = f"claim ID {block.argument!r} is not kebab-case ({ID_RULE}); the claim is not read"
        return None, [BrokenLink(block.file, block.line, why)]
    problems = [
        BrokenLink(block.file, block.line, f"claim {block.argument!r}: unknown option :{key}:")
        for key in block.options
        if key not in OPTIONS
    ]
    renamed_from = _words(block.options.get("renamed-from", ""))
    problems += [
        BrokenLink(
            block.file,
            block.line,
            f"claim {block.argument!r}: old ID {old!r} in :renamed-from: is not kebab-case "
            f"({ID_RULE}); it is ignored",
        )
        for old in renamed_from
        if not ID.fullmatch(old)
    ]
    axes, unclear = scope.read(block.options)
    problems += [
        BrokenLink(block.file, block.line, f"claim {block.argument!r} {p}") for p in unclear
    ]
    claim = Claim(
        id=block.argument,
        statement=" ".join(block.body.split()),
        evidence=_words(block.options.get("evidence", "")),
        rests_on=block.options.get("rests-on") or None,
        renamed_from=tuple(old for old in renamed_from if ID.fullmatch(old)),
        file=block.file,
        line=block.line,
        sources=_words(block.options.get("source", "")),
        since=block.options.get("since") or None,
        until=block.options.get("until") or None,
        scope=axes,
    )
    return claim, problems


def pages(project: Project) -> list[Path]:
    """Every MyST page in ``docs/`` (not the build)."""
    return sorted(p for p in project.docs.rglob("*.md") if "_build" not in p.parts)


def scan(project: Project) -> Registry:
    """Read every page in ``docs/`` (the vendored pieces' citations are added by
    :func:`jaxwaits.chain.facts.registry`, which reads both)."""
    claims: dict[str, Claim] = {}
    problems: list[BrokenLink] = []
    references: list[reader.RoleUse] = []
    cells: list[reader.Directive] = []
    for path in pages(project):
        page = reader.read(path)
        problems += [BrokenLink(p.file, p.line, p.message) for p in page.problems]
        references += page.claim_references()
        cells += [d for d in page.directives if d.name == "code-cell" and "load" in d.options]
        for block in reader.directives_named(page, "claim"):
            claim, found = _claim(block)
            problems += found
            if claim is None:
                continue
            if claim.id in claims:
                first = claims[claim.id]
                problems.append(
                    BrokenLink(
                        block.file,
                        block.line,
                        f"claim ID {claim.id!r} is declared twice (first at "
                        f"{BrokenLink(first.file, first.line, '').where}); an ID names exactly one "
                        "claim",
                    )
                )
                continue
            claims[claim.id] = claim
    return Registry(claims, tuple(references), tuple(cells), tuple(problems))


def check(registry: Registry, snippet_names: set[str]) -> list[BrokenLink]:
    """Every broken link between claims, references and snippets, all at once."""
    problems = list(registry.problems)
    retired: dict[str, Claim] = {}
    for claim in registry.claims.values():
        at = (claim.file, claim.line)
        if not claim.statement:
            problems.append(BrokenLink(*at, f"claim {claim.id!r} states nothing"))
        if not claim.evidence:
            problems.append(BrokenLink(*at, f"claim {claim.id!r} has no :evidence: snippet"))
        for name in claim.evidence:
            if name not in snippet_names:
                problems.append(
                    BrokenLink(
                        *at,
                        f"claim {claim.id!r}: evidence snippet {name!r} does not exist "
                        f"(no snippets/{name}.py)",
                    )
                )
        for old in claim.renamed_from:
            if old in registry.claims or old in retired:
                problems.append(
                    BrokenLink(*at, f"old claim ID {old!r} is reused; IDs are never reused")
                )
            retired[old] = claim
    for ref in registry.references:
        if registry.resolve(ref.target) is None:
            problems.append(
                BrokenLink(ref.file, ref.line, f"reference to unknown claim {ref.target!r}")
            )
    for place in registry.citations:
        if registry.resolve(place.claim) is None:
            problems.append(
                BrokenLink(
                    place.file,
                    place.at,
                    f"reference to unknown claim {place.claim!r}",
                )
            )
    problems += _two_ended(registry)
    backed = {name for claim in registry.claims.values() for name in claim.evidence}
    shown = {_snippet_name(cell) for cell in registry.snippet_cells}
    for name in sorted(snippet_names - backed):
        problems.append(
            BrokenLink(Path("snippets") / f"{name}.py", 1, f"snippet {name!r} backs no claim")
        )
    for name in sorted(snippet_names - shown):
        problems.append(
            BrokenLink(
                Path("snippets") / f"{name}.py",
                1,
                f"snippet {name!r} is not executed by any page (no code-cell :load:s it)",
            )
        )
    for cell in registry.snippet_cells:
        target = (cell.file.parent / cell.options["load"]).resolve()
        if not target.exists():
            problems.append(
                BrokenLink(cell.file, cell.line, f"code-cell loads a missing file: {target}")
            )
    return problems


def _snippet_name(cell: reader.Directive) -> str:
    return Path(cell.options["load"]).stem


def _two_ended(registry: Registry) -> list[BrokenLink]:
    """A note citing a claim and the claim's ``:source:`` must name each other."""
    problems = []
    cited: dict[str, set[str]] = {}
    for place in registry.citations:
        claim = registry.resolve(place.claim)
        if claim is None:
            continue  # an unknown claim: reported with the references
        cited.setdefault(claim.id, set()).add(place.anchor)
        if place.anchor not in claim.sources:
            problems.append(
                BrokenLink(
                    place.file,
                    place.at,
                    f"this note (on {place.anchor}) cites claim {claim.id!r}, whose "
                    f":source: does not list {place.anchor}; add it there "
                    f"({BrokenLink(claim.file, claim.line, '').where})",
                )
            )
    for claim in registry.claims.values():
        for source in claim.sources:
            if source not in cited.get(claim.id, set()):
                problems.append(
                    BrokenLink(
                        claim.file,
                        claim.line,
                        f"claim {claim.id!r} lists {source} in :source:, but no note on that "
                        "line cites it (was the note or its link removed?)",
                    )
                )
    return problems
