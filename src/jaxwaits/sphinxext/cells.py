"""Judge every executed snippet cell exactly as the tests judge a snippet, and show its output.

myst-nb executes each ``{code-cell}`` that ``:load:``\\ s a snippet in a kernel that runs the
snippet in a fresh interpreter (:mod:`jaxwaits.evidence.kernel`) and leaves one record of that run
as the cell's output. This module reads the record back, judges it with
:func:`jaxwaits.evidence.runner.judge` against the recorded output, warns (an error under ``-W``)
with the tests' own message when it did not pass, and replaces the cell's outputs with what the
snippet printed, in canonical form. It also says on each such page which JAX the evidence ran on.

A page that loads a snippet file that does not exist has that cell replaced by an error box
before myst-nb reads it (the claims check names the page and line), so the build goes on.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from jaxwaits.claims import reader
from jaxwaits.evidence import report
from jaxwaits.evidence.kernel import MARK
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.output import cap
from jaxwaits.evidence.platform import Platform, probe
from jaxwaits.evidence.runner import Result, Run, judge
from jaxwaits.evidence.snippets import load_snippets, read_snippet
from jaxwaits.files import write_atomic
from jaxwaits.sphinxext import elsewhere
from jaxwaits.sphinxext.kernels import kernel_env
from jaxwaits.sphinxext.state import CellResult, inputs, site

logger = logging.getLogger(__name__)


def built_on(app: Sphinx) -> Platform:
    """The platform the evidence runs on, asked once per set of installed versions."""
    installed = {name: metadata.version(name) for name in ("jax", "jaxlib")}
    cache = Path(app.doctreedir) / "jaxwaits-platform.json"
    if cache.exists():
        saved = json.loads(cache.read_text())
        if saved.get("installed") == installed:
            return Platform(**saved["platform"])
    found = probe(sys.executable)
    write_atomic(cache, json.dumps({"installed": installed, "platform": found.as_dict()}))
    return found


FILE_CLASS = "jaxwaits-cell-file"


def what_it_shows(path: Path) -> str:
    """The first sentence of a snippet's docstring (what a reader sees above its output, its
    code folded); empty when it has none or cannot be read."""
    try:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return ""
    paragraph = " ".join(doc.split("\n\n")[0].split())
    sentence = re.match(r"(.+?[.?!])(\s|$)", paragraph)
    return sentence.group(1) if sentence else paragraph


def _output_box(cell: nodes.Element) -> nodes.Element | None:
    return next((c for c in cell.children if c.get("nb_element") == "cell_code_output"), None)


def _outputs(cell: nodes.Element) -> tuple[list[dict[str, Any]], int]:
    """The run records among the cell's outputs, and how many other outputs it has."""
    box = _output_box(cell)
    records, others = [], 0
    for output in box.children if box is not None else ():
        try:
            data = json.loads(output.astext())
        except ValueError:
            data = None
        if isinstance(data, dict) and data.get(MARK) == 1:
            records.append(data)
        else:
            others += 1
    return records, others


def _judge(app: Sphinx, cell: nodes.Element, load: str, page: Path) -> tuple[Result | None, str]:
    """The cell's run, judged; or None and why there is nothing to judge."""
    snippet = read_snippet((page.parent / load).resolve())
    records, others = _outputs(cell)
    if len(records) != 1 or others:
        found = f"{len(records)} run records and {others} other outputs"
        return None, f"it did not run through the jaxwaits kernel in this build ({found})"
    run = records[0]["run"]
    runs = (Run.from_dict(run),) if run is not None else ()
    return judge(snippet, runs, inputs(app).platform.jax), ""


def _show(cell: nodes.Element, result: Result | None, message: str) -> None:
    """Replace the cell's outputs with what the snippet printed (and why it failed, if it did)."""
    box = _output_box(cell)
    if box is None:
        box = nodes.container(nb_element="cell_code_output", classes=["cell_output"])
        cell += box
    box.children = []
    run = result.failed_run if result else None
    if run is not None and run.stdout:
        text = cap(run.stdout)
        box += nodes.literal_block(text, text, language="none", classes=["output", "stream"])
    if result is None or not result.outcome.passed:
        box += nodes.literal_block(
            message, message, language="none", classes=["output", "jaxwaits-cell-failed"]
        )


def judge_page(app: Sphinx, doctree: nodes.document) -> list[CellResult]:
    """Judge every snippet cell of the page being read, warn about each that did not pass, and
    show what each printed."""
    env = app.env
    docname = env.docname
    page = Path(env.doc2path(docname))
    found = inputs(app)
    backs = found.registry.backs()
    results: list[CellResult] = []
    for cell in list(doctree.findall(nodes.container)):
        load = (cell.get("cell_metadata") or {}).get("load")
        if cell.get("nb_element") != "cell_code" or not load:
            continue
        path = (page.parent / load).resolve()
        name = path.stem
        env.note_dependency(str(path))
        env.note_dependency(str(path.with_suffix(".out")))
        anchor = f"snippet-{name}"
        file = f"snippets/{path.name}"  # which file this is, for a reader who wants to run it
        head = nodes.paragraph("", "", nodes.literal(file, file), classes=[FILE_CLASS])
        head["ids"].append(anchor)
        shows = what_it_shows(path)
        if shows:
            head += nodes.Text(f": {shows}")
        # above the cell, not in it: myst-nb folds a cell's code only when the code comes first
        cell.parent.insert(cell.parent.index(cell), head)
        kernel, added = kernel_env(app, docname)
        result, why = _judge(app, cell, load, page)
        if result is None:
            outcome = Outcome.NOT_RUN
            told = ", ".join(backs.get(name, []))
            message = f"snippet {name} (snippets/{path.name}; backs {told}): {why}"
        elif result.snippet.env != added:
            outcome = Outcome.ENV_MISMATCH
            message = (
                f"snippet {name} declares env {result.snippet.env}, but this page's kernel "
                f"{kernel!r} adds {added}; name a kernel from jaxwaits_kernels in conf.py whose "
                "env matches, in the page's front matter"
            )
        else:
            outcome = result.outcome
            message = report.describe(result, found.platform, backs.get(name, []))
        if not outcome.passed:
            logger.warning(message, location=cell, type="jaxwaits", subtype="evidence")
        _show(cell, result, message)
        differences = path.parent / "known" / f"{name}.toml"
        if differences.is_file():  # a missing one would make the page outdated in every build
            env.note_dependency(str(differences))
        for shown in reversed(elsewhere.printed_elsewhere(found, name)):
            cell.parent.insert(cell.parent.index(cell) + 1, shown)
        results.append(CellResult(docname, anchor, name, outcome, message))
    if results:
        _stamp(app, doctree)
    return results


def _stamp(app: Sphinx, doctree: nodes.document) -> None:
    """Say at the top of the page which platform its evidence ran on."""
    on = inputs(app).platform.describe()
    text = f"The snippets on this page ran while this site was built, on {on}."
    stamp = nodes.paragraph(text, text, classes=["jaxwaits-built-with"])
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is not None:
        title = next(iter(section.findall(nodes.title)))
        section.insert(section.index(title) + 1, stamp)


def _replace_missing_loads(app: Sphinx, docname: str, source: list[str]) -> None:
    """Turn a code cell that loads a missing file into an error box, so that myst-nb (which
    would stop the whole build on it) reads the page; the claims check reports the cell."""
    folder = Path(app.env.doc2path(docname)).parent
    lines = source[0].split("\n")
    page = reader.read_text(source[0], folder / "page.md")
    for block in reversed(list(reader.directives_named(page, "code-cell"))):
        load = block.options.get("load")
        if not load or (folder / load).exists():
            continue
        box = ["```{error}", f"This cell loads `{load}`, which does not exist.", "```"]
        lines[block.line - 1 : block.end] = box
    source[0] = "\n".join(lines)


def _check_timeouts(app: Sphinx) -> None:
    """The kernel's own limit per cell must leave each snippet its whole timeout."""
    limit = app.config.nb_execution_timeout
    for snippet in load_snippets(inputs(app).project.snippets):
        if limit and limit > 0 and snippet.timeout + 30 > limit:
            logger.warning(
                "snippet %s has a %g s timeout, but nb_execution_timeout is %s s; raise it to at "
                "least %g",
                snippet.name,
                snippet.timeout,
                limit,
                snippet.timeout + 30,
                location=f"{inputs(app).project.relative(snippet.path)}:1",
                type="jaxwaits",
                subtype="evidence",
            )


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
    cells = {cell.snippet: cell for cell in site(app.env).cells()}
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


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", _check_timeouts)
    app.connect("source-read", _replace_missing_loads)
    app.add_role("evidence", EvidenceRole())
    app.add_node(evidence_reference)
    app.connect("doctree-resolved", _resolve)
