"""``{review-rules}``: each rule of ``jaxwaits review`` as its module documents it (the
docstring, in MyST), under a heading that the findings' links name (``#rule-jw101``)."""

from __future__ import annotations

import inspect

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from harnesscheck.rules import RULES


class ReviewRulesDirective(SphinxDirective):
    """Every rule, in the order of its code."""

    def run(self) -> list[nodes.Node]:
        text = StringList()
        for rule in RULES.values():
            path = inspect.getsourcefile(rule.check) or rule.code
            self.env.note_dependency(path)  # a docstring changed: the page is read again
            for number, line in enumerate(
                [
                    f"(rule-{rule.code.lower()})=",
                    f"### {rule.code} {rule.name}",
                    "",
                    *rule.doc.splitlines(),
                    "",
                ]
            ):
                text.append(line, path, number)
        holder = nodes.Element()
        self.state.nested_parse(text, 0, holder, match_titles=True)
        return holder.children


def setup(app: Sphinx) -> None:
    app.add_directive("review-rules", ReviewRulesDirective)
