"""The build's side of a snippet cell: an IPython extension loaded into the Jupyter kernel that
myst-nb drives (see :mod:`jaxwaits.sphinxext.kernels`).

A cell whose source is a snippet file is not executed in the kernel. It runs the snippet in a
process of its own through :func:`jaxwaits.evidence.runner.run_once`, exactly as the tests do (a
child of a template, same environment, timeout, and crash and hang handling), and publishes one
record of that run as the cell's only output. The build reads the record back and judges it as
the tests judge theirs, so a snippet that raises, hangs or crashes costs only its own cell, and
its output does not depend on where the kernel happened to flush.

Nothing here imports JAX: the kernel stays small. Its templates (one per set of ``# env:``
settings) serve every snippet cell of the page and end with the kernel.
"""

from __future__ import annotations

import atexit
import json
from pathlib import Path
from typing import Any

from jaxwaits.evidence.processes import children_die_with_us
from jaxwaits.evidence.runner import run_once
from jaxwaits.evidence.snippets import read_snippet, snippet_paths
from jaxwaits.evidence.template import Templates

MARK = "jaxwaits-run"  # the key that tells a run record from any other output
TEMPLATES = Templates()
atexit.register(TEMPLATES.close)


def record(name: str, run: dict[str, Any] | None) -> str:
    """The text of a run record: the snippet's name and its run (None when not run)."""
    return json.dumps({MARK: 1, "snippet": name, "run": run})


def run(path: str) -> None:
    """Run the snippet at ``path`` and publish the record of its run (what the cell becomes)."""
    from IPython.display import display  # only ever called inside a kernel

    snippet = read_snippet(Path(path))
    outcome = None
    if not snippet.problems:
        with children_die_with_us():
            outcome = run_once(snippet, templates=TEMPLATES).as_dict()
    display({"text/plain": record(snippet.name, outcome)}, raw=True)


def _source_key(text: str) -> str:
    return text.replace("\r\n", "\n").strip()


def _snippets() -> dict[str, Path]:
    """The snippet files by their text, found from the kernel's working directory (the page's
    folder in ``docs/``)."""
    from jaxwaits.project import find_project

    folder = find_project(Path.cwd()).snippets
    found = {}
    for path in snippet_paths(folder).values():
        try:
            found[_source_key(path.read_text(encoding="utf-8"))] = path
        except (OSError, UnicodeDecodeError):
            continue  # read_snippet reports it, if a page loads it
    return found


def load_ipython_extension(shell: Any) -> None:
    """Turn every cell whose source is a snippet file into a run of that snippet."""
    by_source = _snippets()

    def as_run(lines: list[str]) -> list[str]:
        path = by_source.get(_source_key("".join(lines)))
        if path is None:
            return lines  # not a snippet: it runs as written, and the build says so
        return [f"__import__('jaxwaits.evidence.kernel').evidence.kernel.run({str(path)!r})\n"]

    shell.input_transformers_post.append(as_run)
