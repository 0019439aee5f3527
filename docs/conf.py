"""Sphinx configuration for jax-waits."""

from __future__ import annotations

import datetime
from pathlib import Path

import jaxwaits
from jaxwaits.chain import cite
from jaxwaits.project import Project
from jaxwaits.sphinxext.kernels import execution_cache_key

project = "jax-waits"
author = "the jax-waits authors"
copyright = "2026, the jax-waits authors"
# The site release (``[project] version``): said in every footer, and what `cite` and each
# claim's "copy link" link to in a build made from the release's tag (cite.from_tag); any other
# build links to the newest build, and its footer says so.
PROJECT = Project(Path(__file__).parent.parent)
version = release = PROJECT.version
TAGGED = cite.from_tag(PROJECT)
BUILT = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")

extensions = ["myst_nb", "autodoc2", "sphinx_copybutton", "jaxwaits.sphinxext"]

exclude_patterns = ["_build", "**.ipynb_checkpoints", "README.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# Every snippet cell runs while the site is built, in a process of its own started by the kernel
# (jaxwaits.evidence.kernel: a child of a template), and is judged as the tests judge it. A
# snippet that fails is reported by the jaxwaits extension, with the others still run: so
# execution errors are recorded, not raised.
jaxwaits_kernels = {
    "jaxwaits-four-cpus": {"XLA_FLAGS": "--xla_force_host_platform_device_count=4"},
}
nb_execution_mode = "cache"
nb_execution_cache_path = str(
    Path(__file__).parent / "_build" / ".jupyter_cache" / execution_cache_key(jaxwaits_kernels)
)
nb_execution_raise_on_error = False
nb_execution_allow_errors = True
nb_execution_timeout = 300
nb_merge_streams = True
nb_execution_show_tb = True
# A snippet cell shows what its snippet shows (the first line of its docstring) and what it
# printed; its code opens on demand, in place.
nb_code_prompt_show = "Show the snippet's code"
nb_code_prompt_hide = "Hide the snippet's code"

# The package's own API, read from source (nothing is imported).
autodoc2_packages = [
    {"path": "../src/jaxwaits", "auto_mode": True},
    {"path": "../src/harnesscheck", "auto_mode": True},
]
autodoc2_hidden_objects = ["private", "dunder", "inherited"]
# A review rule's docstring is its documentation, in MyST (the review-tool page shows it too).
autodoc2_docstring_parser_regexes = [(r"harnesscheck\.rules\.jw\d{3}_\w+", "myst")]
# autodoc2 says "= None" for every value it cannot read; this renderer leaves those out.
autodoc2_render_plugin = "jaxwaits.sphinxext.apidocs.Renderer"
# docutils node classes inherit attributes autodoc2 lists twice; nothing is lost by muting it.
suppress_warnings = ["autodoc2.dup_item"]

html_theme = "sphinx_book_theme"
html_title = "jax-waits"
html_theme_options = {
    "repository_url": "https://github.com/jax-waits/jax-waits",
    "use_repository_button": True,
    "show_toc_level": 2,
    "extra_footer": (
        f"<p>Site release v{release}, built {BUILT} (UTC).</p>"
        if TAGGED
        else f"<p>Built {BUILT} (UTC) from version {release}, not from its release's tag: "
        "links to claims go to the newest build, whose pages change.</p>"
    ),
}
# Search ranks the site's pages above the package's API documentation (apidocs/).
html_search_scorer = str(Path(jaxwaits.__file__).parent / "static" / "search-scorer.js")
copybutton_exclude = ".linenos, .gp"
