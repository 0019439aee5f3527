"""Code as a reader sees it: a snippet cell's code folded (``:tags: [hide-input]``), its toggle
named by its own words; and the comments that tell the linters what to leave alone
(``# jaxwaits: ignore[JW104] why``, ``# noqa: B023``) are for the tools, and are not shown in
the pages' Python blocks. Only what is rendered changes: the snippet files and the pages keep
them, and the tools read those. (Lines are read as text, not tokens: a string holding such a
marker would be cut too; no page has one.)"""

from __future__ import annotations

import re
from html import escape

from docutils import nodes
from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput
from sphinx.application import Sphinx
from sphinx.writers.html5 import HTML5Translator

# a suppression of the review tool runs to the end of its line (the rest is its reason); a noqa
# comment is only its codes: what follows them stays, as a comment of its own
_IGNORE = re.compile(r"[ \t]*#[ \t]*jaxwaits:[ \t]*ignore(?:-file)?\b.*$")
_NOQA = re.compile(r"[ \t]*#[ \t]*noqa\b(?::[ \t]*[A-Z]+[0-9]+(?:[ \t]*,[ \t]*[A-Z]+[0-9]+)*)?")
PYTHON = {"python", "python3", "ipython", "ipython3", "py", "default", "none", ""}


def _line(line: str) -> str:
    line = _IGNORE.sub("", line)
    found = _NOQA.search(line)
    if found is None:
        return line
    rest = line[found.end() :].strip()
    if not rest:
        return line[: found.start()]
    return f"{line[: found.start()]}  {rest if rest.startswith('#') else '# ' + rest}"


def shown(code: str) -> str:
    """``code`` without its suppression comments."""
    return "\n".join(_line(line) for line in code.split("\n"))


def _strip(app: Sphinx, doctree: nodes.document) -> None:
    for block in list(doctree.findall(nodes.literal_block)):
        text = block.astext()
        if block.get("language", "") not in PYTHON or block.rawsource != text:
            continue  # another language, or a parsed literal with markup of its own
        cleaned = shown(text)
        if cleaned != text:
            block.rawsource = cleaned
            block[:] = [nodes.Text(cleaned)]


def _visit_fold(self: HTML5Translator, node: HideCodeCellNode) -> None:
    """myst-nb's fold, but the toggle's accessible name is the words it shows (myst-nb labels
    every toggle "Toggle hidden content", which axe-core reports as a serious mismatch)."""
    classes = " ".join(node["classes"])
    self.body.append(f'<details class="admonition hide {classes}">\n<summary>\n')
    self.body.append(f'<p class="collapsed admonition-title">{escape(node["prompt_show"])}</p>\n')
    self.body.append(f'<p class="expanded admonition-title">{escape(node["prompt_hide"])}</p>\n')
    self.body.append("</summary>\n")


def setup(app: Sphinx) -> None:
    app.connect("doctree-read", _strip)
    app.add_node(HideCodeCellNode, override=True, html=(_visit_fold, depart_HideCellInput))
