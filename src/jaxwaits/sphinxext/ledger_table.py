"""The verification matrix: claims and vendored pieces against every verified JAX release.

Reads the ledger (``docs/verified/*.json``, written by ``nox -s verify`` and ``nox -s matrix``);
each cell that is not a plain pass links to the diff or reason below the tables.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from jaxwaits.claims.cite import PAGES
from jaxwaits.evidence.runner import Outcome
from jaxwaits.pieces.drift import PieceOutcome
from jaxwaits.releases import ledger
from jaxwaits.releases.verdicts import Verdict, claim_verdict
from jaxwaits.sphinxext.state import inputs

MARKS = {
    Verdict.HOLDS: "✓",
    Verdict.KNOWN_DIFFERENCE: "≈",
    Verdict.FAILS: "✗",
    Verdict.NOT_RUN: "·",
    Verdict.NOT_OBSERVABLE: "n/a",
}
PIECE_MARKS = {
    PieceOutcome.IDENTICAL: "✓",
    PieceOutcome.DIFFERS_AS_RECORDED: "≈",
    PieceOutcome.ABSENT_AS_RECORDED: "–",
    PieceOutcome.UNRECORDED_CHANGE: "✗",
}


class verification_matrix(nodes.General, nodes.Element):
    """Placeholder for the matrix, filled in once every claim is known."""


class MatrixDirective(SphinxDirective):
    """The matrix; the page is re-read whenever the ledger changes (see ``claims``)."""

    def run(self) -> list[nodes.Node]:
        return [verification_matrix()]


def anchor(verification: ledger.Verification, name: str) -> str:
    return nodes.make_id(f"v-{verification.platform.jax}-{verification.platform.backend}-{name}")


def _table(header: list[str], rows: list[list[nodes.Node]], first: int = 4) -> nodes.table:
    table = nodes.table(classes=["jaxwaits-matrix"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for i in range(len(header)):
        group += nodes.colspec(colwidth=first if i == 0 else 1)
    head = nodes.thead()
    group += head
    body = nodes.tbody()
    group += body
    for target, cells in ((head, [[nodes.Text(h)] for h in header]), *((body, r) for r in rows)):
        row = nodes.row()
        for content in cells:
            entry = nodes.entry()
            para = nodes.paragraph()
            para += content
            entry += para
            row += entry
        target += row
    return table


def _mark(symbol: str, title: str, target: str | None) -> list[nodes.Node]:
    if target is None:
        return [nodes.inline(symbol, symbol, classes=["jaxwaits-mark"])]
    ref = nodes.reference(symbol, symbol, refid=target, reftitle=title, classes=["jaxwaits-mark"])
    return [ref]


def build(app: Sphinx, fromdoc: str) -> list[nodes.Node]:
    found = inputs(app)
    verifications, claims = found.ledger, found.registry.claims
    if not verifications:
        return [nodes.paragraph(text="No release has been verified yet: run nox -s matrix.")]
    header = [v.platform.jax for v in verifications]
    pythons: list[list[nodes.Node]] = [[nodes.emphasis("Python", "Python")]]
    pythons += [[nodes.Text(v.platform.python)] for v in verifications]
    claim_rows = [pythons]
    for claim_id in sorted(claims):
        evidence = claims[claim_id].evidence
        uri = app.builder.get_relative_uri(fromdoc, f"{PAGES}/{claim_id}")
        link = nodes.reference("", "", nodes.literal(claim_id, claim_id), refuri=uri)
        row: list[list[nodes.Node]] = [[link]]
        for v in verifications:
            verdict = claim_verdict(v, evidence, claims[claim_id].needs)
            notable = [
                n for n in evidence if n in v.snippets and v.snippets[n].outcome != Outcome.MATCHED
            ]
            target = anchor(v, notable[0]) if notable else None
            row.append(_mark(MARKS[verdict], f"{verdict.value} on {v.platform.jax}", target))
        claim_rows.append(row)
    pieces = sorted({name for v in verifications for name in v.pieces})
    piece_rows = []
    for piece in pieces:
        row = [[nodes.literal(piece, piece)]]
        for v in verifications:
            entry = v.pieces.get(piece)
            if entry is None:
                row.append(_mark("·", "not checked", None))
                continue
            target = None if entry.outcome is PieceOutcome.IDENTICAL else anchor(v, piece)
            row.append(_mark(PIECE_MARKS[entry.outcome], entry.outcome.value, target))
        piece_rows.append(row)
    out: list[nodes.Node] = [
        nodes.paragraph(
            text="Claims: ✓ holds · ≈ differs as recorded for that release · "
            "✗ fails · blank dot: verified before the claim's snippet existed · n/a: the claim "
            "needs another backend (it is not observable on this one)."
        ),
        _table(["claim", *header], claim_rows),
    ]
    if piece_rows:
        out += [
            nodes.paragraph(
                text="Vendored pieces: ✓ identical upstream · ≈ differs as the manifest records · "
                "– absent, as the manifest records · ✗ an unrecorded change."
            ),
            _table(["piece", *header], piece_rows),
        ]
    out += _details(verifications)
    return out


def _details(verifications: list[ledger.Verification]) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for v in verifications:
        notable: dict[str, ledger.SnippetEntry | ledger.PieceEntry] = {
            **{k: e for k, e in v.snippets.items() if e.outcome is not Outcome.MATCHED},
            **{k: e for k, e in v.pieces.items() if e.outcome is not PieceOutcome.IDENTICAL},
        }
        if not notable:
            continue
        out.append(nodes.rubric(text=v.platform.describe()))
        for name, entry in sorted(notable.items()):
            para = nodes.paragraph(ids=[anchor(v, name)])
            para += nodes.literal(name, name)
            para += nodes.Text(f": {entry.outcome.value}")
            out.append(para)
            if entry.detail:
                out.append(nodes.literal_block(entry.detail, entry.detail, language="diff"))
    return out


def setup(app: Sphinx) -> None:
    app.add_directive("verification-matrix", MatrixDirective)
    app.add_node(verification_matrix)
