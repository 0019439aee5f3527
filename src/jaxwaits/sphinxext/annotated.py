"""Sphinx directives that render a vendored piece and its history.

In a MyST page::

    ```{annotated-source} api.block_until_ready
    ```

    ```{annotated-history} api.block_until_ready
    ```

``annotated-source`` shows the piece's upstream lines beside their notes (the note above its lines
on narrow screens), each line with the permanent anchor ``#<piece>-L<n>``, ``n`` being its line
number in the upstream file at the copied release, and a link to those lines on GitHub.
``annotated-history`` shows the manifest's history as a timeline, with the diffs.

Notes are parsed as MyST, so roles in them (``{claim}`` included) work as in the page. A piece's
page is ``<piece>.md``; a successor is linked as the page of that name beside it. The folder of
pieces is ``annotated_source_dir`` in ``conf.py``, relative to the source folder (default:
``annotated_src/`` of the checkout that holds the source folder).
"""

from __future__ import annotations

import html
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from pygments.lexers import PythonLexer
from pygments.token import STANDARD_TYPES, _TokenType
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective, SphinxTranslator
from sphinx.writers.html5 import HTML5Translator

from jaxwaits.errors import JaxwaitsError
from jaxwaits.pieces import manifest, vendored
from jaxwaits.pieces.manifest import Entry, Manifest, TextRun, TextState
from jaxwaits.pieces.vendored import anchor
from jaxwaits.project import find_project

DASH = "\N{EN DASH}"
STATIC = Path(__file__).resolve().parent.parent / "static"
CSS = "annotated-source.css"
GITHUB = "https://github.com/jax-ml/jax/blob/jax-v{release}/{file}"
LICENCE_URL = "https://www.apache.org/licenses/LICENSE-2.0"


class details(nodes.General, nodes.Element):
    """A collapsible block: ``<details>`` with a ``<summary>``, in HTML."""


def _visit_details(translator: HTML5Translator, node: details) -> None:
    translator.body.append(f'<details class="{" ".join(node["classes"])}">')
    translator.body.append(f"<summary>{html.escape(node['summary'])}</summary>")


def _depart_details(translator: HTML5Translator, node: details) -> None:
    translator.body.append("</details>")


def _pass(translator: SphinxTranslator, node: nodes.Node) -> None:
    """Other builders show the contents of a ``details`` block as they are."""


def _css_class(ttype: _TokenType) -> str:
    while ttype not in STANDARD_TYPES:
        ttype = ttype.parent
    return STANDARD_TYPES[ttype]


def highlighted_lines(text: str) -> list[str]:
    """``text`` highlighted as Python, as one HTML fragment per line (tokens split at newlines)."""
    lines: list[str] = [""]
    for ttype, value in PythonLexer(stripnl=False, ensurenl=False).get_tokens(text):
        css = _css_class(ttype)
        for i, part in enumerate(value.split("\n")):
            if i:
                lines.append("")
            if part:
                escaped = html.escape(part, quote=False)
                lines[-1] += f'<span class="{css}">{escaped}</span>' if css else escaped
    return lines[:-1] if text.endswith("\n") else lines


def history_id(piece: str) -> str:
    return f"{piece}-history"


def github_url(entry: Entry) -> str:
    start, end = entry.lines
    return GITHUB.format(release=entry.release, file=entry.file) + f"#L{start}-L{end}"


class _PieceDirective(SphinxDirective):
    required_arguments = 1
    has_content = False

    def folder(self) -> Path:
        configured = self.config.annotated_source_dir
        if configured:
            return Path(self.env.srcdir, configured).resolve()
        try:
            return find_project(Path(self.env.srcdir)).annotated_src
        except JaxwaitsError as missing:
            raise self.error(f"{missing}; set annotated_source_dir in conf.py") from None

    def load(self) -> tuple[Manifest, Entry, vendored.Piece]:
        """The manifest, the piece's entry and the piece; an unreadable one is a directive error
        naming its file."""
        folder = self.folder()
        name = self.arguments[0]
        path = folder / f"{name}{vendored.SUFFIX}"
        self.env.note_dependency(str(folder / manifest.FILE))
        self.env.note_dependency(str(path))
        try:
            recorded = manifest.load(folder)
            if name not in recorded.pieces:
                raise self.error(f"no piece {name!r} in {folder / manifest.FILE}")
            return recorded, recorded.pieces[name], vendored.read(path)
        except JaxwaitsError as error:
            raise self.error(str(error)) from None

    def myst(self, text: str, source: Path, classes: list[str]) -> nodes.container:
        """``text`` parsed as MyST (the page's parser), in a container."""
        box = nodes.container(classes=classes)
        self.state.nested_parse(StringList(text.splitlines(), str(source)), 0, box)
        return box

    def piece_link(self, name: str) -> addnodes.pending_xref:
        """A link to the page of piece ``name``, beside the current page."""
        ref = addnodes.pending_xref(
            "",
            refdomain="std",
            reftype="doc",
            reftarget=name,
            refexplicit=True,
            refdoc=self.env.docname,
            refwarn=True,
        )
        ref += nodes.literal(name, name)
        return ref


class AnnotatedSource(_PieceDirective):
    """The piece's lines and notes, side by side, with per-line anchors."""

    def run(self) -> list[nodes.Node]:
        recorded, entry, piece = self.load()
        path = piece.path
        root = nodes.container(classes=["annotated-source"])
        root += self.head(recorded, entry)
        code = highlighted_lines(piece.upstream)
        section: list[vendored.Line] = []
        for line in piece.lines:
            if line.note and section:
                root += self.section(entry, section, code, path)
                section = []
            section.append(line)
        if section:
            root += self.section(entry, section, code, path)
        return [root]

    def head(self, recorded: Manifest, entry: Entry) -> nodes.paragraph:
        """One line: where the text comes from, how widely it holds, and its licence."""
        start, end = entry.lines
        identical = sum(run.count for run in entry.history if run.status == TextState.IDENTICAL)
        para = nodes.paragraph(classes=["as-head"])
        para += nodes.literal(entry.file, entry.file)
        para += nodes.Text(f" lines {start}{DASH}{end}, jax {entry.release}")
        para += nodes.inline("", " · ", classes=["as-sep"])
        para += nodes.reference("", "view on GitHub", refuri=github_url(entry))
        para += nodes.inline("", " · ", classes=["as-sep"])
        para += nodes.reference(
            "",
            f"identical in {identical} of {len(recorded.releases)} releases",
            refuri=f"#{history_id(entry.name)}",
        )
        para += nodes.inline("", " · ", classes=["as-sep"])
        para += nodes.Text("code © The JAX Authors, ")
        para += nodes.reference("", "Apache-2.0", refuri=LICENCE_URL)
        return para

    def section(
        self, entry: Entry, lines: list[vendored.Line], code: list[str], path: Path
    ) -> nodes.container:
        first = entry.lines[0] + lines[0].index
        # claims cited in the note are cited from this line (see jaxwaits.sphinxext.claim_pages)
        box = nodes.container(
            classes=["as-section"], cite_anchor=anchor(entry.name, first), cite_label=f"L{first}"
        )
        note = lines[0].note
        box += self.myst(note.text if note else "", path, ["as-note"])
        rows = []
        for line in lines:
            number = entry.lines[0] + line.index
            target = anchor(entry.name, number)
            rows.append(
                f'<span class="as-line" id="{html.escape(target)}">'
                f'<a class="as-ln" href="#{html.escape(target)}" title="link to this line">'
                f"{number}</a>{code[line.index] or ' '}</span>"
            )
        box += nodes.raw(
            "",
            '<div class="as-code highlight"><pre>' + "".join(rows) + "</pre></div>",
            format="html",
        )
        return box


class AnnotatedHistory(_PieceDirective):
    """The piece's history over every release in the manifest, as a timeline."""

    def run(self) -> list[nodes.Node]:
        recorded, entry, piece = self.load()
        path = piece.path
        timeline = nodes.container(classes=["as-timeline"], ids=[history_id(entry.name)])
        for run in entry.history:
            timeline += self.run_item(recorded, entry, run, path)
        return [timeline]

    def run_item(
        self, recorded: Manifest, entry: Entry, run: TextRun, path: Path
    ) -> nodes.container:
        state = run.status.value
        item = nodes.container(classes=["as-run", f"as-{state}"])
        head = nodes.paragraph(classes=["as-run-head"])
        span = run.first if run.first == run.last else f"{run.first} {DASH} {run.last}"
        head += nodes.strong(span, span)
        head += nodes.inline(
            "", f"{run.count} release{'s' * (run.count > 1)}", classes=["as-count"]
        )
        head += nodes.inline("", state, classes=["as-badge", f"as-badge-{state}"])
        item += head
        item += self.description(entry, run)
        yanked = [v for v in recorded.yanked if run.covers(v, recorded.releases)]
        if yanked:
            item += nodes.paragraph(
                "", f"Includes {', '.join(yanked)}, yanked from PyPI.", classes=["as-yanked"]
            )
        if run.why:
            item += self.myst(run.why, path.parent / manifest.FILE, ["as-why"])
        if run.diff:
            summary = f"Diff from the text above (jax {entry.release}) to jax {span}"
            box = details(summary=summary, classes=["as-diff"])
            box += nodes.literal_block(run.diff, run.diff, language="diff")
            item += box
        return item

    def description(self, entry: Entry, run: TextRun) -> nodes.paragraph:
        para = nodes.paragraph(classes=["as-run-text"])
        if run.status == TextState.IDENTICAL:
            para += nodes.Text("Identical to the text above.")
        elif run.status == TextState.DIFFERS:
            para += nodes.Text(f"Differs from the text above: {run.change}.")
        else:
            assert run.status == TextState.ABSENT
            para += nodes.Text(f"Absent: {run.change}.")
            if run.succeeded_by:
                para += nodes.Text(" Succeeded by ")
                para += self.piece_link(run.succeeded_by)
                para += nodes.Text(".")
        return para


def _add_static_path(app: Sphinx) -> None:
    app.config.html_static_path.append(str(STATIC))


def setup(app: Sphinx) -> None:
    """Register the directives, the collapsible node and the stylesheet."""
    app.add_config_value("annotated_source_dir", "", "env", types=[str])
    app.add_directive("annotated-source", AnnotatedSource)
    app.add_directive("annotated-history", AnnotatedHistory)
    app.add_node(
        details,
        html=(_visit_details, _depart_details),
        latex=(_pass, _pass),
        text=(_pass, _pass),
        man=(_pass, _pass),
        texinfo=(_pass, _pass),
    )
    app.connect("builder-inited", _add_static_path)
    app.add_css_file(CSS)
