"""Compare the output of every executed snippet cell with the snippet's recorded output.

myst-nb executes each ``{code-cell}`` that ``:load:``\\ s a snippet and puts its outputs in the
doctree; this module reads the stdout back, compares it with ``snippets/<name>.out`` and warns
(an error under ``-W``) on any difference, naming page, snippet, claims and diff. It also says on
each such page which JAX the evidence ran on.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from jaxwaits import report
from jaxwaits.platform import Platform, probe
from jaxwaits.snippets import read_snippet
from jaxwaits.sphinxext.kernels import kernel_env

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CellResult:
    """One executed snippet cell of this build."""

    docname: str
    anchor: str
    snippet: str
    matched: bool


def cell_results(env: BuildEnvironment) -> list[CellResult]:
    """Every snippet cell executed in this build, on every page."""
    pages: dict[str, list[CellResult]] = getattr(env, "jaxwaits_cells", {})
    return [cell for cells in pages.values() for cell in cells]


def built_on(app: Sphinx) -> Platform:
    """The platform the evidence runs on, asked once per set of installed versions."""
    installed = {name: metadata.version(name) for name in ("jax", "jaxlib")}
    cache = Path(app.doctreedir) / "jaxwaits-platform.json"
    if cache.exists():
        saved = json.loads(cache.read_text())
        if saved.get("installed") == installed:
            return Platform(**saved["platform"])
    found = probe(sys.executable)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"installed": installed, "platform": found.as_dict()}))
    return found


def _stdout(cell: nodes.Element) -> str:
    """What the cell printed on stdout (myst-nb marks stdout blocks ``stream``)."""
    return "".join(
        block.astext() + ("" if block.astext().endswith("\n") else "\n")
        for output in cell.findall(nodes.container)
        if output.get("nb_element") == "cell_code_output"
        for block in output.findall(nodes.literal_block)
        if "stream" in block["classes"]
    )


def _check_cells(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    docname = env.docname
    page = Path(env.doc2path(docname))
    results: list[CellResult] = []
    claimed = report.claims_by_snippet(app.jaxwaits_registry.evidence())
    for cell in list(doctree.findall(nodes.container)):
        load = (cell.get("cell_metadata") or {}).get("load")
        if cell.get("nb_element") != "cell_code" or not load:
            continue
        snippet = read_snippet((page.parent / load).resolve())
        env.note_dependency(str(snippet.path))
        env.note_dependency(str(snippet.recorded_path))
        anchor = f"snippet-{snippet.name}"
        cell["ids"].append(anchor)
        backs = ", ".join(claimed.get(snippet.name, [])) or "no claim"
        kernel, added = kernel_env(app, docname)
        expected, expected_from = snippet.expected(app.jaxwaits_platform.jax)
        printed = _stdout(cell)
        matched = snippet.env == added and printed == expected
        if snippet.env != added:
            logger.warning(
                "snippet %s declares env %s, but this page's kernel %r adds %s; name a kernel "
                "from jaxwaits_kernels in conf.py whose env matches, in the page's front matter",
                snippet.name,
                snippet.env,
                kernel,
                added,
                location=cell,
                type="jaxwaits",
                subtype="evidence",
            )
        elif expected is None:
            logger.warning(
                "snippet %s (backs %s) has no recorded output %s; record it with: %s",
                snippet.name,
                backs,
                expected_from.name,
                report.record_command(snippet.name),
                location=cell,
                type="jaxwaits",
                subtype="evidence",
            )
        elif printed != expected:
            logger.warning(
                "snippet %s (backs %s) printed something other than its recorded output on %s:\n%s",
                snippet.name,
                backs,
                app.jaxwaits_platform.describe(),
                report.diff(
                    expected,
                    printed,
                    report.expected_label(snippet, expected_from),
                    f"{snippet.name} (executed in this build)",
                ),
                location=cell,
                type="jaxwaits",
                subtype="evidence",
            )
        results.append(CellResult(docname, anchor, snippet.name, matched))
    env.jaxwaits_cells = {**getattr(env, "jaxwaits_cells", {}), docname: results}
    if results:
        _stamp(app, doctree)


def _stamp(app: Sphinx, doctree: nodes.document) -> None:
    """Say at the top of the page which platform its evidence ran on."""
    on = app.jaxwaits_platform.describe()
    text = f"The snippets on this page ran while this site was built, on {on}."
    stamp = nodes.paragraph(text, text, classes=["jaxwaits-built-with"])
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is not None:
        title = next(iter(section.findall(nodes.title)))
        section.insert(section.index(title) + 1, stamp)


class evidence_reference(nodes.Inline, nodes.Element):
    """Placeholder for an ``{evidence}`` reference, resolved once every page has run."""


class EvidenceRole(SphinxRole):
    """{evidence}`snippet` or {evidence}`text <snippet>`: a link to the cell that executed it."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        text, _, target = self.text.partition("<")
        name = target.rstrip(">").strip() if target else text.strip()
        node = evidence_reference(snippet=name, label=text.strip() if target else name)
        self.set_source_info(node)
        return [node], []


def _resolve(app: Sphinx, doctree: nodes.document, fromdoc: str) -> None:
    cells = {cell.snippet: cell for cell in cell_results(app.env)}
    for node in list(doctree.findall(evidence_reference)):
        cell = cells.get(node["snippet"])
        if cell is None:
            logger.warning(
                "no page executes snippet %r",
                node["snippet"],
                location=node,
                type="jaxwaits",
                subtype="evidence",
            )
            node.replace_self(nodes.problematic(node["label"], node["label"]))
            continue
        uri = app.builder.get_relative_uri(fromdoc, cell.docname) + f"#{cell.anchor}"
        ref = nodes.reference("", "", internal=True, refuri=uri)
        ref += nodes.literal(node["label"], node["label"])
        node.replace_self(ref)


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    getattr(env, "jaxwaits_cells", {}).pop(docname, None)


def _platform(app: Sphinx) -> None:
    app.jaxwaits_platform = built_on(app)


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", _platform)
    app.connect("doctree-read", _check_cells)
    app.connect("env-purge-doc", _purge)
    app.add_role("evidence", EvidenceRole())
    app.add_node(evidence_reference)
    app.connect("doctree-resolved", _resolve)
