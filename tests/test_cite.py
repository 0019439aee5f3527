"""`cite` prints a link a reviewer can paste, and the built site is checked to resolve it."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from jaxwaits import cli
from jaxwaits.chain import cite, facts, packaged
from jaxwaits.claims.registry import Claim, Registry
from jaxwaits.claims.scope import Scope
from jaxwaits.errors import JaxwaitsError
from jaxwaits.project import Project


def claim(project: Project) -> Claim:
    return Claim(
        id="returns-self",
        statement="`y.block_until_ready()` returns `y` itself.",
        evidence=("method_returns_self",),
        rests_on=None,
        renamed_from=("old-name",),
        file=project.docs / "method.md",
        line=1,
    )


LATEST = "https://jax-waits.readthedocs.io/en/latest/claim/returns-self.html"


def on_read_the_docs(monkeypatch: pytest.MonkeyPatch, kind: str, version: str) -> None:
    """As Read the Docs tells a build what it builds."""
    monkeypatch.setenv("READTHEDOCS_VERSION_TYPE", kind)
    monkeypatch.setenv("READTHEDOCS_VERSION", version)


def test_the_link_names_the_claim_and_points_at_its_page(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_read_the_docs(monkeypatch, "tag", f"v{project.version}")
    text = cite.markdown(facts.load(project), claim(project))
    assert text.startswith("[`returns-self`: `y.block_until_ready()` returns `y` itself. (")
    assert re.search(r"\((holds|differs|not yet verified)", text), text  # where it was verified
    release = f"https://jax-waits.readthedocs.io/en/v{project.version}/claim/returns-self.html"
    assert text.endswith(f")]({release})")  # this site release: the link keeps its content
    latest = cite.markdown(facts.load(project), claim(project), latest=True)
    assert latest.endswith(f")]({LATEST})")


@pytest.mark.parametrize(
    ("kind", "version"),
    [("branch", "latest"), ("tag", "stable"), ("tag", "v0.0.1"), ("external", "123")],
)
def test_a_build_not_made_from_the_release_s_tag_links_to_the_newest_build(
    project: Project, monkeypatch: pytest.MonkeyPatch, kind: str, version: str
) -> None:
    """Issue 38, point 4: `…/en/v0.1.0/` led nowhere while no such tag was published."""
    on_read_the_docs(monkeypatch, kind, version)
    assert not cite.from_tag(project)
    assert cite.url(project, "returns-self") == LATEST
    assert cite.markdown(facts.load(project), claim(project)).endswith(f")]({LATEST})")


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
    )


def test_elsewhere_git_says_whether_the_checkout_is_the_release_s_tag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("READTHEDOCS_VERSION_TYPE", raising=False)
    root = Project(tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nversion = "1.2.3"\n[tool.jaxwaits]\n'
        'site-url = "https://example.org/en/latest/"\n'
        'release-url = "https://example.org/en/v{version}/"\n'
    )
    assert cite.tag(root) == "v1.2.3"
    assert not cite.from_tag(root)  # not a git checkout at all
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "commit", "-q", "--allow-empty", "-m", "one")
    _git(tmp_path, "tag", "v1.2.2")
    assert not cite.from_tag(root)  # another release's tag
    _git(tmp_path, "tag", "v1.2.3")
    assert cite.from_tag(root)
    assert cite.url(root, "x") == "https://example.org/en/v1.2.3/claim/x.html"
    _git(tmp_path, "commit", "-q", "--allow-empty", "-m", "two")  # a commit after the tag
    assert not cite.from_tag(root)
    assert cite.url(root, "x") == "https://example.org/en/latest/claim/x.html"


@pytest.mark.parametrize("tagged", [True, False])
def test_cite_says_when_its_link_is_to_the_newest_build(
    project: Project, monkeypatch: pytest.MonkeyPatch, capsys, tagged: bool
) -> None:
    """In a checkout as from a wheel (whose index has no release URL when it was not made from
    the tag): the link goes to the newest build, and stderr says that it moves."""
    on_read_the_docs(monkeypatch, "tag", f"v{project.version}" if tagged else "v0.0.1")
    monkeypatch.chdir(project.root)
    assert cli.main(["cite", "returns-self"]) == 0
    out, err = capsys.readouterr()
    if tagged:
        assert out.endswith(
            f"(https://jax-waits.readthedocs.io/en/v{project.version}/claim/returns-self.html)\n"
        )
        assert "newest build" not in err
    else:
        assert out.endswith(f"({LATEST})\n")
        assert "this link is to the newest build, whose page moves" in err
        assert f"jaxwaits {project.version} was not made from its release's tag" in err
    assert cli.main(["cite", "returns-self", "--latest"]) == 0
    out, err = capsys.readouterr()
    assert out.endswith(f"({LATEST})\n") and "newest build" not in err
    index = packaged.loads(packaged.dumps(packaged.of(facts.load(project))))
    assert (index.release_url is not None) == tagged
    assert index.site(latest=False) == (project.release_url if tagged else project.site_url)


def test_a_claim_only_a_gpu_can_show_is_cited_by_its_runs_there(project: Project) -> None:
    on_gpu = Scope((("backend", ("gpu",)),))
    gpu = dataclasses.replace(claim(project), scope=on_gpu, rests_on="the CUDA stream order")
    found = facts.load(project)
    text = cite.markdown(found, gpu)
    assert "(limited to GPU; on GPU (NVIDIA H200, jax 0.11.2): holds)" in text
    unrun = cite.link(gpu, {}, "https://x/")
    assert "(limited to GPU; not verified: it needs gpu, which these checks do not run on)" in unrun
    assert "holds" not in unrun


def test_check_site_finds_a_missing_page_anchor_or_redirect(
    project: Project, tmp_path: Path
) -> None:
    registry = Registry({"returns-self": claim(project)}, (), (), ())
    (tmp_path / "claim").mkdir()
    (tmp_path / "claim" / "returns-self.html").write_text(
        "<p><code>y.block_until_ready()</code> returns <code>y</code> itself.</p>"
    )
    (tmp_path / "claim" / "old-name.html").write_text("moved")
    (tmp_path / "method.html").write_text('<div id="claim-returns-self" id="claim-old-name">')
    assert cite.check_site(project, registry, tmp_path) == []
    (tmp_path / "method.html").write_text('<div id="claim-returns-self">')
    (tmp_path / "claim" / "old-name.html").unlink()
    assert cite.check_site(project, registry, tmp_path) == [
        "returns-self: no anchor #claim-old-name on method.html",
        "returns-self: renamed from old-name, but claim/old-name.html is missing",
    ]


def test_check_site_refuses_a_page_that_shows_a_claim_failing(
    project: Project, tmp_path: Path
) -> None:
    registry = Registry({}, (), (), ())
    legend = '<a href="glossary.html#standing-failing">'
    legend += '<span class="jaxwaits-badge jaxwaits-failing">'
    (tmp_path / "index.html").write_text(legend)  # the word explained, no claim shown failing
    (tmp_path / "status.html").write_text('<p class="jaxwaits-claim-status jaxwaits-failing">')
    (tmp_path / "mark.html").write_text('<a class="jaxwaits-claim-link jaxwaits-failing" href=')
    assert cite.check_site(project, registry, tmp_path) == [
        f"{name}.html: shows a failing claim; this site must not be published"
        for name in ("mark", "status")
    ]


def test_check_site_refuses_a_file_that_holds_a_path_of_the_building_machine(
    project: Project, tmp_path: Path
) -> None:
    """Issue 38, point 9: the build published jupyter/kernels/*/kernel.json, naming the
    builder's interpreter by its path."""
    registry = Registry({}, (), (), ())
    spec = tmp_path / "jupyter" / "kernels" / "python3" / "kernel.json"
    spec.parent.mkdir(parents=True)
    python = project.root / ".venv" / "bin" / "python"  # as a build in a checkout's venv wrote
    spec.write_text(json.dumps({"argv": [str(python), "-m", "ipykernel_launcher"]}))
    (tmp_path / "index.html").write_text(f"<pre>{project.root}-other/x and /elsewhere</pre>")
    (tmp_path / ".doctrees").mkdir()  # Sphinx's cache, not published on Read the Docs
    (tmp_path / ".doctrees" / "index.doctree").write_text(str(project.root / "docs"))
    assert cite.check_site(project, registry, tmp_path) == [
        f"jupyter/kernels/python3/kernel.json: holds {project.root}, a path of the machine "
        "that built it; it must not be published"
    ]
    if sys.prefix != sys.base_prefix:  # this Python's own environment, wherever it is
        assert sys.prefix in cite.local_paths(project)
    spec.unlink()
    assert cite.check_site(project, registry, tmp_path) == []


def test_the_packaged_index_reads_back_as_written_and_cites_alike(project: Project) -> None:
    found = facts.load(project)
    index = packaged.of(found)
    assert packaged.loads(packaged.dumps(index)) == index
    assert sorted(index.registry.claims) == sorted(found.registry.claims)
    for claim in found.registry.claims.values():
        for latest in (False, True):
            target = cite.pinned(index.site(latest=latest), claim.id)
            said = cite.link(
                index.registry.claims[claim.id],
                index.verdicts[claim.id],
                target,
                index.elsewhere[claim.id],
            )
            assert said == cite.markdown(found, claim, latest=latest)


def test_a_packaged_index_that_does_not_read_is_named(project: Project) -> None:
    text = packaged.dumps(packaged.of(facts.load(project)))
    for broken in (
        text.replace('"format": 2', '"format": 3'),
        text.replace('"holds"', '"fine"'),
        text.replace('"elsewhere"', '"elsewhere-not"'),
    ):
        with pytest.raises(JaxwaitsError, match="the packaged claims index cannot be read"):
            packaged.loads(broken)
