"""`cite` prints a link a reviewer can paste, and the built site is checked to resolve it."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

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


def test_the_link_names_the_claim_and_points_at_its_page(project: Project) -> None:
    text = cite.markdown(facts.load(project), claim(project))
    assert text.startswith("[`returns-self`: `y.block_until_ready()` returns `y` itself. (")
    assert re.search(r"\((holds|differs|not yet verified)", text), text  # where it was verified
    release = f"https://jax-waits.readthedocs.io/en/v{project.version}/claim/returns-self.html"
    assert text.endswith(f")]({release})")  # this site release: the link keeps its content
    latest = cite.markdown(facts.load(project), claim(project), latest=True)
    assert latest.endswith(")](https://jax-waits.readthedocs.io/en/latest/claim/returns-self.html)")


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
