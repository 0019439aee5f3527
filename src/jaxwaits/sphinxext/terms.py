"""The site's own words, defined in one place (``{site-terms}``, on the glossary page), and links
to their definitions from every mark and status word the other pages show; and the one way a
page links another page by name, shown as code (:func:`page_link`).

The words and meanings are the judge's (:mod:`jaxwaits.chain.marks`); this module renders them.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective, SphinxRole

from jaxwaits.chain.marks import (
    MARKS,
    MEANING,
    PIECE_MARKS,
    PIECE_MEANING,
    SCOPE_MEANING,
    STANDING_MEANING,
    piece_id,
    scope_id,
    standing_id,
    verdict_id,
)
from jaxwaits.chain.standing import SHAPES, Standing
from jaxwaits.chain.verdicts import Verdict
from jaxwaits.claims.scope import AXES, Axis

GLOSSARY = "glossary"  # the page that holds {site-terms}
GPU = "gpu"  # the page that says what carries over to a GPU, where there is one


def css(verdict: Verdict) -> str:
    """The class of a verdict's mark, from its stored code: ``jaxwaits-v-holds``,
    ``jaxwaits-v-does-not-hold`` …"""
    return f"jaxwaits-v-{verdict.value}"


def link(app: Sphinx, fromdoc: str, anchor: str, *shown: nodes.Node) -> nodes.Element:
    """``shown``, as a link to the definition at ``anchor`` (as it is, on a site that has no
    glossary page)."""
    if GLOSSARY not in app.env.found_docs:
        return nodes.inline("", "", *shown)
    uri = app.builder.get_relative_uri(fromdoc, GLOSSARY) + f"#{anchor}"
    return nodes.reference("", "", *shown, internal=True, refuri=uri, classes=["jaxwaits-term"])


def scope_words(
    app: Sphinx, fromdoc: str, axis: Axis, values: tuple[str, ...], joiner: str = " or "
) -> list[nodes.Node]:
    """The words for ``values`` of a scope axis, each linked to its definition; the backend's
    words link instead to the page on what carries over to a GPU, where there is one."""
    words = [axis.values[value] for value in values]
    if axis.name == "backend" and GPU in app.env.found_docs:
        uri = app.builder.get_relative_uri(fromdoc, GPU)
        shown = nodes.Text(_joined(words, joiner))
        return [nodes.reference("", "", shown, internal=True, refuri=uri, classes=["jaxwaits-gpu"])]
    out: list[nodes.Node] = []
    for i, (value, word) in enumerate(zip(values, words, strict=True)):
        out += [nodes.Text(_separator(i, len(words), joiner))] if i else []
        out.append(link(app, fromdoc, scope_id(axis.name, value), nodes.Text(word)))
    return out


def _separator(i: int, count: int, joiner: str) -> str:
    """What goes before the ``i``-th of ``count`` words: a comma, or ``joiner`` before the last."""
    return joiner if i == count - 1 else ", "


def _joined(words: list[str], joiner: str) -> str:
    return "".join(
        f"{_separator(i, len(words), joiner) if i else ''}{w}" for i, w in enumerate(words)
    )


def page_link(here: str, target: str, text: str) -> addnodes.pending_xref:
    """``text`` as code, linking page ``target`` (``/claim/<id>``, ``/source/<piece>``) from the
    page ``here``; resolved, and checked, when every page is known."""
    return addnodes.pending_xref(
        "",
        nodes.literal(text, text),
        refdomain="std",
        reftype="doc",
        reftarget=target,
        refexplicit=True,
        refdoc=here,
    )


STANDING_WORDS = {
    Standing.VERIFIED: "verified in this build",
    Standing.FAILING: "failing",
    Standing.NEEDS_BACKEND: "needs gpu (or another backend)",
}


class SiteTermsDirective(SphinxDirective):
    """``{site-terms}``: every verdict, standing and piece outcome with its mark and meaning."""

    def run(self) -> list[nodes.Node]:
        verdicts = [(verdict_id(v), mark, css(v), v.words, MEANING[v]) for v, mark in MARKS.items()]
        standings = [
            (standing_id(s), SHAPES[s], "", STANDING_WORDS[s], STANDING_MEANING[s])
            for s in Standing
        ]
        pieces = [
            (piece_id(o), mark, "", o.words, PIECE_MEANING[o]) for o, mark in PIECE_MARKS.items()
        ]
        scopes = [
            (scope_id(axis.name, value), "", "", words, SCOPE_MEANING[axis.name, value])
            for axis in AXES
            for value, words in axis.values.items()
        ]
        out: list[nodes.Node] = []
        for intro, terms in (
            ("What a claim is on one JAX release (the matrix, each claim's page):", verdicts),
            ("What this build of the site showed about a claim (its badge):", standings),
            ("What a vendored piece's upstream source was on one JAX release:", pieces),
            (
                "What a claim's snippets tried, along each scope axis (the words after "
                '"limited to" on a status line, and in the note before a page\'s first claim):',
                scopes,
            ),
        ):
            out.append(nodes.paragraph(text=intro))
            items = nodes.definition_list(classes=["jaxwaits-terms"])
            for anchor, mark, classes, words, meaning in terms:
                term = nodes.term("", "", ids=[anchor])
                if mark:
                    term += nodes.inline(
                        mark, mark, classes=["jaxwaits-mark", *filter(None, [classes])]
                    )
                term += nodes.Text(f" {words}" if mark else words)
                said = f"{meaning[0].upper()}{meaning[1:]}."
                definition = nodes.definition("", nodes.paragraph(text=said))
                items += nodes.definition_list_item("", term, definition)
            out.append(items)
        return out


class StandingRole(SphinxRole):
    """{standing}`verified` (or `failing`, `needs`): a standing as the site shows it, its mark
    and words, linked to its definition; for prose that explains the marks."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        known = {s.value: s for s in Standing}
        if self.text not in known:
            message = self.inliner.reporter.error(
                f"{{standing}} takes one of {', '.join(known)}, not {self.text!r}",
                line=self.lineno,
            )
            return [nodes.problematic(self.rawtext, self.rawtext)], [message]
        shown = known[self.text]
        words = f"{SHAPES[shown]} {STANDING_WORDS[shown]}"
        needs = "-gpu" if shown is Standing.NEEDS_BACKEND else ""
        badge = nodes.inline(
            words, words, classes=["jaxwaits-badge", f"jaxwaits-{shown.value}{needs}"]
        )
        return [link(self.env.app, self.env.docname, standing_id(shown), badge)], []


def setup(app: Sphinx) -> None:
    app.add_directive("site-terms", SiteTermsDirective)
    app.add_role("standing", StandingRole())
