"""The annotated-source pages build with warnings as errors, and carry anchors, links, history."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PIECES

from jaxwaits.pieces import vendored
from jaxwaits.project import find_project
from jaxwaits.sphinxext.annotated import github_url

pytestmark = pytest.mark.build  # every test here builds a site

PROJECT = find_project(Path(__file__).parent)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("html")
    conf = Path(__file__).parent / "docs_conf"
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-W",
        "-q",
        "-E",
        "-b",
        "html",
        "-c",
        str(conf),
        str(PROJECT.docs / "source"),
        str(out),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"sphinx-build failed:\n{done.stdout}\n{done.stderr}"
    return out


@pytest.mark.parametrize("name", PIECES)
def test_a_page_per_piece_with_an_anchor_per_line(site, name, recorded):
    entry = recorded.pieces[name]
    page = (site / f"{name}.html").read_text(encoding="utf-8")
    piece = vendored.read(PROJECT.annotated_src / f"{name}.py")
    start, end = entry.lines
    assert len(piece.lines) == end - start + 1
    ids = re.findall(rf'id="{re.escape(name)}-L(\d+)"', page)
    assert [int(n) for n in ids] == list(range(start, end + 1))
    assert f'href="{github_url(entry)}"' in page
    assert page.count('class="as-note docutils container"') == len(piece.notes())
    assert len(re.findall(r'class="as-run as-\w+ docutils container"', page)) == len(entry.history)
    for claim in re.findall(r"\{claim\}`([^`]+)`", piece.path.read_text(encoding="utf-8")):
        assert f"#claim-{claim}" in page


def test_the_github_link_is_at_the_release_tag(recorded):
    entry = recorded.pieces["api.block_until_ready"]
    assert github_url(entry) == (
        "https://github.com/jax-ml/jax/blob/jax-v0.12.0.1/jax/_src/api.py#L2778-L2813"
    )


def test_a_successor_is_linked(site):
    page = (site / "core.Tracer.block_until_ready.html").read_text(encoding="utf-8")
    assert 'href="core.Tracer.__getattr__.html"' in page
