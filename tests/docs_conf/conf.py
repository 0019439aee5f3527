"""Sphinx configuration that builds ``docs/source/`` (the annotated-source pages) on their own.

The site's own configuration is ``docs/conf.py``; this one lets ``tests/test_annotated_pages.py``
build the pages without the rest of the site. Its ``claim`` and ``changed-in`` roles are
stand-ins for the site's.
"""

from docutils import nodes

project = "jax-waits"
author = "jax-waits authors"
extensions = ["myst_parser", "jaxwaits.sphinxext.annotated"]
root_doc = "index"
html_theme = "sphinx_book_theme"
html_title = "jax-waits"


def claim_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """Stand-in for the site's ``{claim}`` role: a link to the claim's anchor."""
    link = nodes.reference(rawtext, "", refuri=f"../claims.html#claim-{text}", classes=["claim"])
    link += nodes.literal(text, text)
    return [link], []


def changed_in_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """Stand-in for the site's ``{changed-in}`` role: the release, as text."""
    return [nodes.Text(text.partition("<")[0].strip())], []


def setup(app):
    app.add_role("claim", claim_role)
    app.add_role("changed-in", changed_in_role)
