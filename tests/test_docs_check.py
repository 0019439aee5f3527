"""The docs build executes snippet cells and fails, naming the snippet, on a wrong record."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CONF = """
extensions = ["myst_nb", "jaxwaits.sphinxext"]
exclude_patterns = ["_build"]
nb_execution_mode = "force"
nb_execution_raise_on_error = False
nb_execution_allow_errors = True
nb_execution_timeout = 300
"""
PAGE = """---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---

# Scratch

```{claim} says-hello
:evidence: hello
:renamed-from: says-hi
It says hello.
```

An old link still works: {claim}`says-hi`.

```{code-cell}
:load: ../snippets/hello.py
```
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    (root / "docs").mkdir()
    (root / "snippets").mkdir()
    (root / "docs" / "conf.py").write_text(CONF)
    (root / "docs" / "index.md").write_text(PAGE)
    (root / "snippets" / "hello.py").write_text('"""Say hello."""\n\nprint("hello")\n')
    return root


def build(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-E",
            "-q",
            "-b",
            "html",
            "docs",
            "docs/_build/html",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_matching_record_builds(site: Path) -> None:
    (site / "snippets" / "hello.out").write_text("hello\n")
    done = build(site)
    assert done.returncode == 0, done.stderr
    page = (site / "docs/_build/html/index.html").read_text()
    assert 'id="claim-says-hello"' in page and "verified in this build" in page


def test_a_renamed_claim_keeps_resolving(site: Path) -> None:
    (site / "snippets" / "hello.out").write_text("hello\n")
    assert build(site).returncode == 0
    html = site / "docs/_build/html"
    page = (html / "index.html").read_text()
    assert 'id="claim-says-hi"' in page  # the old anchor, on the same block
    assert 'href="#claim-says-hello"' in page  # the old ID in a reference leads to the new
    redirect = (html / "claim" / "says-hi.html").read_text()
    assert 'url=says-hello.html"' in redirect


def test_one_changed_character_fails_the_build_with_a_diff(site: Path) -> None:
    (site / "snippets" / "hello.out").write_text("hellO\n")
    done = build(site)
    assert done.returncode != 0
    assert "snippet hello (snippets/hello.py; backs says-hello): differs" in done.stderr, (
        done.stderr
    )
    assert "-hellO\n+hello" in done.stderr
    assert "index.md" in done.stderr  # the page, with the cell's line


def test_a_page_without_execution_shows_no_claim_as_verified(site: Path) -> None:
    (site / "snippets" / "hello.out").write_text("hello\n")
    conf = site / "docs" / "conf.py"
    conf.write_text(CONF.replace('"force"', '"off"'))
    try:
        done = build(site)
    finally:
        conf.write_text(CONF)
    assert done.returncode != 0
    page = (site / "docs/_build/html/index.html").read_text()
    assert "verified in this build" not in page
