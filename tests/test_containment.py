"""Issue 23: nothing a page, a snippet or a reviewed file does damages the checkout, hides
other results or outlives its run. One test (or more) per point, each on a temporary copy."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from copies import SCOPE

from jaxwaits.claims import registry as claims
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.files import inside
from jaxwaits.project import Project


def problems_in(project: Project) -> list[str]:
    registry = claims.scan(project)
    names = {snippet.name for snippet in load_snippets(project.snippets)}
    return [str(problem) for problem in claims.check(registry, names)]


@pytest.fixture
def copy(project: Project, tmp_path: Path) -> Project:
    for room in ("docs", "snippets", "annotated_src"):
        shutil.copytree(
            project.root / room, tmp_path / room, ignore=shutil.ignore_patterns("_build", "claim")
        )
    return Project(tmp_path)


# 1. A claim ID is checked where it is read, before any path is made from it.
@pytest.mark.parametrize("bad", ["../glossary", "../../zz-escaped", "UPPER-Case", "ünïcode-claim"])
def test_1_an_id_that_is_not_kebab_case_is_named_and_not_read(copy: Project, bad: str) -> None:
    options = f":evidence: method_returns_self\n:renamed-from: ../old\n{SCOPE}"
    (copy.docs / "scratch.md").write_text(f"# Scratch\n\n```{{claim}} {bad}\n{options}It.\n```\n")
    registry = claims.scan(copy)
    assert bad not in registry.claims  # so no page, link or file is made from it
    found = problems_in(copy)
    assert f"docs/scratch.md:3: claim ID {bad!r} is not kebab-case" in "\n".join(found), found


def test_1_an_old_id_that_is_not_kebab_case_is_named_and_ignored(copy: Project) -> None:
    options = f":evidence: method_returns_self\n:renamed-from: ../../old-escaped kept-old\n{SCOPE}"
    (copy.docs / "scratch.md").write_text(
        f"# Scratch\n\n```{{claim}} fresh-one\n{options}It.\n```\n"
    )
    claim = claims.scan(copy).claims["fresh-one"]
    assert claim.renamed_from == ("kept-old",)
    found = "\n".join(problems_in(copy))
    assert "docs/scratch.md:3: claim 'fresh-one': old ID '../../old-escaped' in :renamed-from:" in (
        found
    )


@pytest.mark.parametrize("name", ["../glossary.md", "../../x.md", "a/b.md", "..", "", "."])
def test_1_a_generated_file_stays_in_its_folder(tmp_path: Path, name: str) -> None:
    with pytest.raises(JaxwaitsError, match="not a file name inside"):
        inside(tmp_path / "claim", name)
    assert inside(tmp_path / "claim", "ok-id.md") == tmp_path / "claim" / "ok-id.md"
