"""The chain between claims, references and snippets is whole, and breaks loudly."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from copies import SCOPE

from jaxwaits.chain import facts
from jaxwaits.chain import problems as chain_problems
from jaxwaits.claims import registry as claims
from jaxwaits.claims import scope
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.project import Project


def problems_in(project: Project) -> list[str]:
    registry = facts.registry(project)
    names = {snippet.name for snippet in load_snippets(project.snippets)}
    return [str(problem) for problem in claims.check(registry, names)]


def test_every_claim_is_backed_and_every_reference_resolves(project: Project) -> None:
    problems = problems_in(project)
    assert not problems, "\n".join(problems)


def test_there_are_claims(registry: claims.Registry) -> None:
    assert len(registry.claims) >= 5


@pytest.fixture
def copy(project: Project, tmp_path: Path) -> Project:
    """A scratch copy of the pages, snippets and vendored pieces, to break on purpose."""
    for room in ("docs", "snippets", "annotated_src"):
        if not (project.root / room).is_dir():
            continue
        shutil.copytree(
            project.root / room, tmp_path / room, ignore=shutil.ignore_patterns("_build")
        )
    return Project(tmp_path)


def _first_claim(project: Project) -> claims.Claim:
    return min(claims.scan(project).claims.values(), key=lambda c: (str(c.file), c.line))


def test_deleting_a_snippet_names_the_claim_file_and_line(copy: Project) -> None:
    claim = _first_claim(copy)
    (copy.snippets / f"{claim.evidence[0]}.py").unlink()
    found = problems_in(copy)
    expected = f"{claim.file.relative_to(copy.root)}:{claim.line}"
    assert any(expected in p and claim.evidence[0] in p for p in found), found


def test_misspelt_reference_names_file_and_line(copy: Project) -> None:
    claim = _first_claim(copy)
    page = copy.docs / "scratch.md"
    page.write_text(f"# Scratch\n\nSee {{claim}}`{claim.id}x`.\n")
    found = problems_in(copy)
    assert any(f"scratch.md:3: reference to unknown claim '{claim.id}x'" in p for p in found), found


def test_duplicate_id_names_both_places(copy: Project) -> None:
    claim = _first_claim(copy)
    page = copy.docs / "scratch.md"
    options = f":evidence: {claim.evidence[0]}\n{SCOPE}"
    page.write_text(f"# Scratch\n\n```{{claim}} {claim.id}\n{options}Again.\n```\n")
    found = problems_in(copy)
    assert any("scratch.md:3" in p and "declared twice" in p for p in found), found


def test_snippet_backing_no_claim_is_named(copy: Project) -> None:
    (copy.snippets / "orphan.py").write_text('print("nothing")\n')
    found = problems_in(copy)
    assert any("orphan.py:1: snippet 'orphan' backs no claim" in p for p in found), found


EXAMPLE = f"""# Scratch

How a claim is written:

````markdown
```{{claim}} only-an-example
:evidence: nothing_at_all
Shown, not declared.
```
````

```{{claim}} declared-with-yaml
---
evidence: [method_returns_self]
renamed-from: once-called-this
{SCOPE.replace(":", "").replace(" ", ": ")}---
Declared, with its options as a YAML block, and a reference: {{claim}}`returns-self`.
```

:::{{note}}
A claim inside an admonition is declared too:

```{{claim}} declared-in-a-note
:evidence: method_returns_self
{SCOPE}Inside a note.
```
:::
"""


def test_a_claim_in_an_example_block_is_not_declared(copy: Project) -> None:
    (copy.docs / "scratch.md").write_text(EXAMPLE)
    registry = claims.scan(copy)
    assert "only-an-example" not in registry.claims
    assert not [p for p in problems_in(copy) if "nothing_at_all" in p]


def test_options_in_a_yaml_block_are_read(copy: Project) -> None:
    (copy.docs / "scratch.md").write_text(EXAMPLE)
    registry = claims.scan(copy)
    claim = registry.claims["declared-with-yaml"]
    assert claim.evidence == ("method_returns_self",)
    assert claim.renamed_from == ("once-called-this",)
    assert claim.scope.of("devices") == ("single",)
    assert (claim.file.name, claim.line) == ("scratch.md", 12)
    assert "declared-in-a-note" in registry.claims
    assert registry.claims["declared-in-a-note"].line == 29
    found = [r for r in registry.references if r.file.name == "scratch.md"]
    assert [(r.line, r.target) for r in found] == [(23, "returns-self")]
    assert not [p for p in problems_in(copy) if "scratch.md" in p]


def test_a_claim_that_leaves_an_axis_unaddressed_is_named(copy: Project) -> None:
    claim = _first_claim(copy)
    page = claim.file
    text = page.read_text()
    block = text.split(f"```{{claim}} {claim.id}\n", 1)[1]
    threads = next(line for line in block.splitlines() if line.startswith(":threads:"))
    page.write_text(
        text.replace(f"{threads}\n", "", 1).replace(":devices:", ":devices: several", 1)
    )
    found = problems_in(copy)
    where = f"{claim.file.relative_to(copy.root)}:{claim.line}"
    assert any(
        where in p and f"claim {claim.id!r} does not address the dispatching threads axis" in p
        for p in found
    ), found
    assert any(
        "several is no value of the devices and sharding axis (values: single sharded "
        "replicated)" in p
        for p in found
    ), found


def test_a_claim_about_a_gpu_with_no_run_there_says_what_it_rests_on(copy: Project) -> None:
    """The backends a claim names are checked against the ledger (tests/test_backends.py); one
    about a backend nothing ran on says what it rests on meanwhile."""
    page = copy.docs / "scratch.md"
    tpu, both = SCOPE.replace("cpu", "tpu"), SCOPE.replace("cpu", "cpu tpu")
    page.write_text(
        f"# Scratch\n\n```{{claim}} on-a-tpu\n:evidence: method_returns_self\n{tpu}On a TPU.\n"
        f"```\n\n```{{claim}} on-both\n:evidence: method_returns_self\n{both}On both.\n```\n"
    )
    registry = claims.scan(copy)
    assert registry.claims["on-a-tpu"].needs == "tpu"
    assert registry.claims["on-both"].needs is None
    found = [str(p) for p in chain_problems.evidence(facts.load(copy), sys.executable)]
    assert any(
        "scratch.md:3: claim on-a-tpu lists :backend: tpu, where the ledger has no run" in p
        and ":rests-on:" in p
        for p in found
    ), found
    assert any("claim on-both lists :backend: tpu, where the ledger has no run" in p for p in found)


def test_a_scope_names_its_limits_in_words() -> None:

    read, problems = scope.read(
        {
            "backend": "cpu",
            "threads": "one, several",
            "devices": "sharded single",
            "failures": "none",
            "dtype": "sub-byte wide key",
            "context": "eager",
        }
    )
    assert problems == []
    assert read.of("devices") == ("single", "sharded")  # the axis's order, not the page's
    assert read.limits() == [
        "CPU",
        "single-device arrays or sharded arrays",
        "no failure pending",
        "eager calls",
    ]
    covered = [axis.name for axis in scope.AXES if read.covered(axis)]
    assert covered == ["threads", "dtype"]
