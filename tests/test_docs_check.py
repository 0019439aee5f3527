"""The docs build executes snippet cells and fails, naming the snippet, on a wrong record."""

from __future__ import annotations

import json
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


STANDINGS = """---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---

# Standings

```{claim} says-bye
:evidence: bye
It says bye.
```

```{claim} bye-on-a-gpu
:evidence: bye
:needs: gpu
:rests-on: nothing that runs here
It would say bye on a GPU.
```

```{code-cell}
:load: ../snippets/bye.py
```

```{verification-matrix}
```
"""


def _ledger_file(jax: str, bye: str, detail: str = "") -> str:
    platform = {"jax": jax, "jaxlib": jax, "python": "3.13", "backend": "cpu"}
    snippets = {
        "bye": {"status": bye, "detail": detail},
        "hello": {"status": "matched", "detail": ""},
    }
    return json.dumps({"platform": platform, "snippets": snippets, "pieces": {}}, indent=2)


@pytest.fixture(scope="module")
def standings(site: Path) -> Path:
    (site / "snippets" / "hello.out").write_text("hello\n")
    (site / "snippets" / "bye.py").write_text('print("bye")\n')
    (site / "snippets" / "bye.out").write_text("bye\n")
    (site / "docs" / "standings.md").write_text(STANDINGS)
    (site / "docs" / "index.md").write_text(PAGE + "\n```{toctree}\nstandings\n```\n")
    verified = site / "docs" / "verified"
    verified.mkdir()
    (verified / "jax-0.4.30-cpu.json").write_text(
        _ledger_file("0.4.30", "known difference", "-a\n+b\n")
    )
    (verified / "jax-0.5.3-cpu.json").write_text(_ledger_file("0.5.3", "matched"))
    return site


def test_a_verified_and_a_needs_gpu_claim_are_told_apart(standings: Path) -> None:
    done = build(standings)
    assert done.returncode == 0, done.stderr
    page = (standings / "docs/_build/html/standings.html").read_text()
    box = page.split('id="claim-bye-on-a-gpu"')[1].split("</div>")[0:6]
    gpu = "".join(box)
    assert 'class="jaxwaits-claim-status jaxwaits-needs-gpu"' in gpu
    assert "<strong>needs gpu</strong>: not observable on cpu, so not verified here" in gpu
    assert "verified in this build" not in gpu
    assert (
        'class="jaxwaits-claim-status jaxwaits-verified"'
        in page.split('id="claim-bye-on-a-gpu"')[0]
    )


def test_the_matrix_marks_each_release_and_links_the_difference(standings: Path) -> None:
    assert build(standings).returncode == 0
    page = (standings / "docs/_build/html/standings.html").read_text()
    assert ">0.4.30<" in page and ">0.5.3<" in page
    assert 'href="#v-0-4-30-cpu-bye"' in page and "differs as recorded on 0.4.30" in page
    assert 'id="v-0-4-30-cpu-bye"' in page and "known difference" in page
    assert "n/a" in page  # the gpu claim, on a cpu release


def test_a_failing_claim_gets_a_failing_badge_everywhere(standings: Path) -> None:
    (standings / "snippets" / "bye.out").write_text("goodbye\n")
    try:
        done = build(standings)
    finally:
        (standings / "snippets" / "bye.out").write_text("bye\n")
    assert done.returncode == 1
    assert "claim says-bye is failing: its evidence bye: differs" in done.stderr
    page = (standings / "docs/_build/html/standings.html").read_text()
    assert 'class="jaxwaits-claim-status jaxwaits-failing"' in page
    index = (standings / "docs/_build/html/claim/says-bye.html").read_text()
    assert "jaxwaits-failing" in index
