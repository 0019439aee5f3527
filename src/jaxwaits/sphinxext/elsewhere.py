"""Verdicts on backends the checks do not run on (a GPU lent for a while, its runs committed as
observations and judged like any ledger entry): a table on each claim's page, a column per run on
the matrix page, what each snippet printed there below its cell, and a page per run,
``run/<backend>-<release>``, that says where and how it ran, why each claim that does not simply
hold there does not, and what its snippets printed otherwise."""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from jaxwaits.chain.marks import MARKS, verdict_id
from jaxwaits.chain.verdicts import BACKEND_WORDS, Verdict
from jaxwaits.claims.registry import Claim
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.files import write_folder
from jaxwaits.releases import observed
from jaxwaits.releases.ledger import Verification
from jaxwaits.sphinxext import release_pages, terms
from jaxwaits.sphinxext.state import Inputs, inputs
from jaxwaits.sphinxext.verification_matrix import MATRIX, claim_link, grid, why_nodes

RUNS = "run"  # docs/run/<backend>-<release>.md, generated for every run on another backend


def page(backend: str, release: str) -> str:
    """The page of one run: ``run/gpu-0.11.2``."""
    return f"{RUNS}/{backend}-{release}"


def _runs(found: Inputs) -> list[Verification]:
    return sorted(
        (v for v in found.ledger if v.platform.backend != "cpu" and not v.not_installable),
        key=lambda v: (v.platform.backend, v.platform.jax),
    )


def _to_section(
    app: Sphinx, fromdoc: str, backend: str, release: str, *shown: nodes.Node
) -> nodes.reference:
    uri = app.builder.get_relative_uri(fromdoc, page(backend, release))
    return nodes.reference("", "", *shown, internal=True, refuri=uri)


def _mark(verdict: Verdict) -> nodes.inline:
    return nodes.inline(MARKS[verdict], MARKS[verdict], classes=[terms.css(verdict)])


def claim_rows(app: Sphinx, fromdoc: str, claim: Claim) -> list[list[nodes.Node]]:
    """On a claim's page: its verdict on each run on another backend (where, verdict, why)."""
    rows = []
    for other in inputs(app).facts.elsewhere[claim.id]:
        where = _to_section(app, fromdoc, other.backend, other.release, nodes.Text(other.where))
        verdict = other.verdict.verdict
        word = terms.link(
            app, fromdoc, verdict_id(verdict), _mark(verdict), nodes.Text(f" {verdict.words}")
        )
        why = nodes.inline("", "", *why_nodes(other.verdict.why))
        rows.append([where, word, why])
    return rows


def printed_elsewhere(found: Inputs, name: str) -> list[nodes.Node]:
    """Below a snippet's cell: what its run on each other backend printed, where that was not
    the recorded output (or that it was), as the ledger judged it."""
    shown: list[nodes.Node] = []
    snippets = found.facts.judge.snippets
    for run in _runs(found):
        entry = run.snippets.get(name)
        platform = run.platform
        where = f"{BACKEND_WORDS.get(platform.backend)} ({platform.device}, jax {platform.jax})"
        if entry is None or name not in snippets:
            continue
        fingerprint = found.facts.judge.fingerprint(name, platform.jax, platform.backend)
        if entry.fingerprint != fingerprint:
            said = f"On {where} it ran before it was last changed: run it there again."
        elif entry.outcome is Outcome.MATCHED:
            said = f"On {where}, a recorded run printed the same."
        elif entry.outcome is Outcome.MATCHED_KNOWN:
            said = f"On {where}, a recorded run printed:"
        else:
            said = f"On {where}, a recorded run: {entry.outcome.words}."
        shown.append(nodes.paragraph(text=said, classes=["jaxwaits-elsewhere"]))
        if entry.outcome is Outcome.MATCHED_KNOWN and entry.fingerprint == fingerprint:
            text, _ = snippets[name].expected(platform.jax, backend=platform.backend)
            text = text or ""
            shown.append(
                nodes.literal_block(
                    text, text, language="none", classes=["output", "jaxwaits-elsewhere"]
                )
            )
    return shown


class ElsewhereDirective(SphinxDirective):
    """``{verification-elsewhere}``: on the matrix page, after the CPU grid."""

    def run(self) -> list[nodes.Node]:
        return matrix_nodes(self.env.app, self.env.docname, inputs(self.env.app))


class RunDirective(SphinxDirective):
    """``{run-section} <backend> <release>``: one run on another backend, on its own page."""

    required_arguments = 2

    def run(self) -> list[nodes.Node]:
        found = inputs(self.env.app)
        backend, release = self.arguments
        for run in _runs(found):
            if (run.platform.backend, run.platform.jax) == (backend, release):
                return [_section(self.env.app, self.env.docname, found, run)]
        return [nodes.paragraph(text=f"No run on {backend} with jax {release} is in the ledger.")]


def _write_pages(app: Sphinx) -> None:
    """Write ``run/<backend>-<release>.md`` for every run (unchanged files stay put)."""
    wanted = {}
    matrix = (Path(app.srcdir) / f"{MATRIX}.md").is_file()
    named = f"[verification matrix](/{MATRIX}.md)" if matrix else "verification matrix"
    for run in _runs(inputs(app)):
        platform = run.platform
        where = f"{BACKEND_WORDS.get(platform.backend)}: {platform.device}, jax {platform.jax}"
        lines = ["---", "orphan: true", "---", "", f"# {where}", ""]
        lines += [f"One column of the {named}, on its own page: why each claim that does not"]
        lines += ["simply hold there does not, and what its snippets printed otherwise."]
        lines += ["", f"```{{run-section}} {platform.backend} {platform.jax}", "```"]
        wanted[f"{platform.backend}-{platform.jax}.md"] = "\n".join([*lines, ""])
    write_folder(Path(app.srcdir) / RUNS, wanted)


def matrix_nodes(app: Sphinx, docname: str, found: Inputs) -> list[nodes.Node]:
    """On the matrix page: a grid of every claim on each run on another backend, then a section
    per run."""
    runs = _runs(found)
    if not runs:
        return []
    title = nodes.rubric(text="On other backends")
    intro = nodes.paragraph(
        text="Runs made on a machine CI does not have, with every snippet run twice there (in a "
        "template's child and in a fresh interpreter) and saved as it printed; the verdicts are "
        "judged from those observations against today's snippets and known outputs, like the "
        "CPU releases above. A snippet changed since a run has no verdict there until it runs "
        "there again."
    )
    header: list[nodes.Node] = [nodes.Text("claim")]
    for run in runs:
        shown = nodes.Text(f"{BACKEND_WORDS.get(run.platform.backend)} {run.platform.jax}")
        header.append(_to_section(app, docname, run.platform.backend, run.platform.jax, shown))
    rows = []
    for claim_id in sorted(found.verdicts):
        row: list[nodes.Node] = [claim_link(docname, claim_id)]
        by_run = {(o.backend, o.release): o for o in found.facts.elsewhere[claim_id]}
        for run in runs:
            other = by_run[run.platform.backend, run.platform.jax]
            mark = _mark(other.verdict.verdict)
            linked = _to_section(app, docname, other.backend, other.release, mark)
            row.append(mark if other.verdict.verdict is Verdict.HOLDS else linked)
        rows.append(row)
    return [title, intro, grid(header, rows)]


def _section(app: Sphinx, docname: str, found: Inputs, run: Verification) -> nodes.container:
    platform = run.platform
    box = nodes.container()
    path = observed.folder(found.project) / run.filename
    made = observed.read(path) if path.is_file() else None
    said = f"Run on {platform.describe()}"
    if made is not None:
        said += f", on {made.made_on} ({made.seconds:.0f} s): "
    para = nodes.paragraph(text=said)
    if made is not None:
        para += nodes.literal(made.command, made.command)
        para += nodes.Text("; what each run printed is in ")
        shown = found.project.relative(path)
        para += nodes.literal(shown, shown)
    para += nodes.Text(".")
    box += para
    notable = nodes.bullet_list()
    for claim_id in sorted(found.verdicts):
        other = next(
            o
            for o in found.facts.elsewhere[claim_id]
            if (o.backend, o.release) == (platform.backend, platform.jax)
        )
        verdict = other.verdict.verdict
        if verdict is Verdict.HOLDS:
            continue
        item = nodes.paragraph()
        item += terms.link(app, docname, verdict_id(verdict), _mark(verdict))
        item += [nodes.Text(" "), claim_link(docname, claim_id), nodes.Text(": ")]
        item += terms.link(app, docname, verdict_id(verdict), nodes.Text(verdict.words))
        item += nodes.Text(". " if other.verdict.why else "")
        item += why_nodes(other.verdict.why)
        notable += nodes.list_item("", item)
    box += notable if len(notable) else nodes.paragraph(text="Every claim holds as recorded.")
    box += release_pages.differences(app, docname, run, None, {})
    return box


def setup(app: Sphinx) -> None:
    app.add_directive("verification-elsewhere", ElsewhereDirective)
    app.add_directive("run-section", RunDirective)
    app.connect("builder-inited", _write_pages)
