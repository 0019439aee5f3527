"""The docs build executes snippet cells and fails, naming the snippet, on a wrong record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from copies import SCOPE, edited

from jaxwaits.evidence.snippets import read_snippet

pytestmark = pytest.mark.build  # every test here builds a site

CONF = """
extensions = ["myst_nb", "jaxwaits.sphinxext"]
exclude_patterns = ["_build"]
nb_execution_mode = "force"
nb_execution_raise_on_error = False
nb_execution_allow_errors = True
nb_execution_timeout = 300
"""
PAGE = f"""---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---

# Scratch

## Greetings

A page that greets says so, and one paragraph leads to the claim.

```{{claim}} says-hello
:evidence: hello
:renamed-from: says-hi
{SCOPE}It says hello.
```

An old link still works: {{claim}}`says-hi`.

```{{code-cell}}
:load: ../snippets/hello.py
```
"""


PYPROJECT = """\
[project]
name = "site"
version = "1.2.3"

[tool.jaxwaits]
site-url = "https://example.org/en/latest/"
release-url = "https://example.org/en/v{version}/"
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    (root / "docs").mkdir()
    (root / "snippets").mkdir()
    (root / "docs" / "conf.py").write_text(CONF)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "docs" / "index.md").write_text(PAGE)
    (root / "snippets" / "hello.py").write_text('"""Say hello."""\n\nprint("hello")\n')
    return root


def build(root: Path, *, fresh: bool = True) -> subprocess.CompletedProcess[str]:
    """Sphinx as the README runs it; ``fresh=False`` keeps the pages read by the last build."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            *(["-E"] if fresh else []),
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
    assert 'id="claim-says-hello"' in page
    assert '<span class="jaxwaits-badge jaxwaits-verified">✓ verified in this build</span>' in page
    assert '<p class="jaxwaits-cell-file">' in page and "snippets/hello.py" in page  # the cell
    # a reference carries the claim's standing too
    assert (
        '<abbr class="jaxwaits-badge small jaxwaits-verified" title="verified in this build">✓'
        in page
    )
    pinned = "https://example.org/en/v1.2.3/claim/says-hello.html"  # as `cite` gives it
    assert f'class="jaxwaits-copy-link reference external" href="{pinned}"' in page
    claim_page = (site / "docs/_build/html/claim/says-hello.html").read_text()
    assert "one paragraph leads to the claim" in claim_page  # where it is stated
    assert 'href="../index.html#greetings">Greetings</a>' in claim_page
    assert f'href="{pinned}">{pinned}</a>' in claim_page


def test_a_renamed_claim_keeps_resolving(site: Path) -> None:
    (site / "snippets" / "hello.out").write_text("hello\n")
    assert build(site).returncode == 0
    html = site / "docs/_build/html"
    page = (html / "index.html").read_text()
    assert 'id="claim-says-hi"' in page  # the old anchor, on the same block
    assert 'href="#claim-says-hello"' in page  # the old ID in a reference leads to the new
    redirect = (html / "claim" / "says-hi.html").read_text()
    assert 'url=says-hello.html"' in redirect


def test_a_claim_that_leaves_an_axis_unaddressed_fails_the_build(site: Path) -> None:
    (site / "snippets" / "hello.out").write_text("hello\n")
    with edited(site / "docs" / "index.md", PAGE.replace(":dtype: wide\n", "")):
        done = build(site)
    assert done.returncode != 0
    assert "index.md:14: WARNING: claim 'says-hello' does not address the dtype axis" in (
        done.stderr
    ), done.stderr


def test_a_claim_id_that_climbs_out_writes_nothing_outside_its_folder(site: Path) -> None:
    """Issue 23, point 1: a page's claim ID never becomes a path outside ``docs/claim/``."""
    (site / "snippets" / "hello.out").write_text("hello\n")
    bad = ["../glossary", "../../zz-escaped", "UPPER-Case", "ünïcode-claim"]
    blocks = "".join(f"```{{claim}} {name}\n:evidence: hello\n{SCOPE}It.\n```\n\n" for name in bad)
    page = PAGE.replace(":renamed-from: says-hi", ":renamed-from: says-hi ../../../old-escaped")
    glossary = "# Glossary\n\nKept as it is.\n"
    with (
        edited(site / "docs" / "glossary.md", glossary),
        edited(site / "docs" / "index.md", page + "\n" + blocks),
    ):
        done = build(site)
        assert (site / "docs" / "glossary.md").read_text() == glossary
    assert done.returncode != 0
    for name in bad:
        assert f"claim ID {name!r} is not kebab-case" in done.stderr, done.stderr
    assert "old ID '../../../old-escaped' in :renamed-from: is not kebab-case" in done.stderr
    assert (
        not (site / "zz-escaped.md").exists() and not (site / "docs" / "old-escaped.html").exists()
    )
    assert sorted(p.name for p in (site / "docs" / "claim").iterdir()) == ["says-hello.md"]


def test_the_build_after_an_unfinished_one_writes_every_page_again(site: Path) -> None:
    """Issue 23, point 8: a build stopped part-way leaves its marker, and the next build (not a
    fresh one) reads and writes every page again, so no page is left from the older build."""
    (site / "snippets" / "hello.out").write_text("hello\n")
    assert build(site).returncode == 0
    html = site / "docs/_build/html"
    assert not (html / ".jaxwaits-build-unfinished").exists()
    (html / "index.html").write_text("a page an older build wrote")
    assert build(site, fresh=False).returncode == 0
    assert (html / "index.html").read_text() == "a page an older build wrote"  # not outdated
    (html / ".jaxwaits-build-unfinished").write_text("")  # as a build stopped part-way leaves it
    done = build(site, fresh=False)
    assert done.returncode == 0, done.stderr
    assert 'id="claim-says-hello"' in (html / "index.html").read_text()
    assert not (html / ".jaxwaits-build-unfinished").exists()


def test_a_page_that_changes_the_checkout_fails_the_build(site: Path) -> None:
    """Issue 23, point 2: what a page's own code does to the checkout fails the build too."""
    (site / "snippets" / "hello.out").write_text("hello\n")
    cell = '\n```{code-cell}\nopen("stray.txt", "w").write("x")\n```\n'
    try:
        with edited(site / "docs" / "index.md", PAGE + cell):
            done = build(site)
        assert done.returncode != 0
        assert "the checkout changed during the build: added docs/stray.txt" in done.stderr, (
            done.stderr
        )
    finally:
        (site / "docs" / "stray.txt").unlink(missing_ok=True)


def test_claims_prints_every_problem_the_build_reports_that_needs_no_page(site: Path) -> None:
    """One list of problems (issue 24): on the same broken project, every problem `jaxwaits
    claims` prints is a warning of the build, and every warning of the build is printed by
    `claims`, but for what only a build knows (a claim failing in a cell, none rendering it)."""
    (site / "snippets" / "hello.out").write_text("hello\n")
    with (
        edited(site / "docs" / "index.md", PAGE.replace(":dtype: wide\n", "")),
        edited(site / "snippets" / "stray.txt", "nothing reads this\n"),
        edited(site / "snippets" / "known" / "hello.toml", "[[output]]\ntext = 5\n"),
    ):
        claims = subprocess.run(
            [sys.executable, "-m", "jaxwaits", "claims"],
            cwd=site,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        done = build(site)
    (site / "snippets" / "known").rmdir()  # edited() made it for the file, and took the file
    printed = [line for line in claims.stderr.splitlines() if line.strip()]
    assert claims.returncode == 1 and len(printed) >= 3, claims.stderr
    for line in printed:
        assert line in done.stderr.replace(": WARNING: ", ": "), (line, done.stderr)
    warned = [
        line.split("WARNING: ", 1)[1].rsplit(" [jaxwaits.", 1)[0]
        for line in done.stderr.splitlines()
        if "WARNING: " in line and "[jaxwaits." in line
    ]
    build_only = ("is failing", "no page of this build rendered it", "the checkout changed")
    for message in warned:
        if not any(words in message for words in build_only):
            assert any(message in line for line in printed), (message, claims.stderr)


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
    with edited(site / "docs" / "conf.py", CONF.replace('"force"', '"off"')):
        done = build(site)
    assert done.returncode != 0
    page = (site / "docs/_build/html/index.html").read_text()
    assert "verified in this build" not in page


STANDINGS = f"""---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---

# Standings

```{{claim}} says-bye
:evidence: bye
{SCOPE}It says bye.
```

```{{claim}} bye-on-a-gpu
:evidence: bye
:rests-on: nothing that runs here
{SCOPE.replace("cpu", "gpu")}It would say bye on a GPU.
```

```{{code-cell}}
:load: ../snippets/bye.py
```

```{{verification-matrix}}
```
"""


def _ledger_file(site: Path, jax: str, bye: str, detail: str = "") -> str:
    """A ledger file as verify writes it, judging the snippets as they are now."""
    platform = {"jax": jax, "jaxlib": jax, "python": "3.13", "backend": "cpu"}
    snippets = {
        name: {"status": status, "detail": text, "printed": f"{name} {status}"}
        | {"fingerprint": read_snippet(site / "snippets" / f"{name}.py").fingerprint(jax)}
        for name, status, text in (("bye", bye, detail), ("hello", "matched", ""))
    }
    return json.dumps({"platform": platform, "snippets": snippets, "pieces": {}}, indent=2)


KNOWN = """
[[output]]
releases = ["0.4.30"]
text = "ciao\\n"

[output.verdicts.says-bye]
verdict = "holds-output-differs"
why = "it said bye in Italian"
"""


@pytest.fixture(scope="module")
def standings(site: Path) -> Path:
    (site / "snippets" / "hello.out").write_text("hello\n")
    (site / "snippets" / "bye.py").write_text('print("bye")\n')
    (site / "snippets" / "bye.out").write_text("bye\n")
    (site / "snippets" / "known").mkdir()
    (site / "snippets" / "known" / "bye.toml").write_text(KNOWN)
    (site / "docs" / "standings.md").write_text(STANDINGS)
    (site / "docs" / "index.md").write_text(PAGE + "\n```{toctree}\nstandings\n```\n")
    verified = site / "docs" / "verified"
    verified.mkdir()
    (verified / "jax-0.4.30-cpu.json").write_text(
        _ledger_file(site, "0.4.30", "known-difference", "-bye\n+ciao\n")
    )
    (verified / "jax-0.5.3-cpu.json").write_text(_ledger_file(site, "0.5.3", "matched"))
    return site


def test_a_verified_and_a_needs_gpu_claim_are_told_apart(standings: Path) -> None:
    done = build(standings)
    assert done.returncode == 0, done.stderr
    page = (standings / "docs/_build/html/standings.html").read_text()
    box = page.split('id="claim-bye-on-a-gpu"')[1].split("</div>")[0:6]
    gpu = "".join(box)
    assert 'class="jaxwaits-claim-status jaxwaits-needs-gpu"' in gpu
    badge = '<span class="jaxwaits-badge jaxwaits-needs-gpu">◇ needs gpu</span>'
    assert f"{badge}: not observable on cpu, so not verified here" in gpu
    assert "verified in this build" not in gpu
    assert (
        'class="jaxwaits-claim-status jaxwaits-verified"'
        in page.split('id="claim-bye-on-a-gpu"')[0]
    )


def test_the_matrix_marks_each_release_and_links_its_section(standings: Path) -> None:
    assert build(standings).returncode == 0
    page = (standings / "docs/_build/html/standings.html").read_text()
    assert ">0.4.30<" in page and ">0.5.3<" in page
    assert 'href="#release-0-4-30"' in page and 'id="release-0-4-30"' in page
    assert "holds, output differs on 0.4.30: it said bye in Italian" in page  # a mark's title
    assert "jaxwaits-v-not-observable" in page  # the gpu claim, on a cpu release
    claim = (standings / "docs/_build/html/claim/says-bye.html").read_text()
    assert "holds on 0.5.3; holds, output differs on 0.4.30" in claim
    assert "it said bye in Italian" in claim


def test_an_edited_snippet_turns_its_ledger_entries_stale(standings: Path) -> None:
    bye = standings / "snippets" / "bye.py"
    bye.write_text('print("bye")  # said once more\n')
    try:
        assert build(standings).returncode == 0
        claim = (standings / "docs/_build/html/claim/says-bye.html").read_text()
        matrix = (standings / "docs/_build/html/standings.html").read_text()
    finally:
        bye.write_text('print("bye")\n')
    assert "stale on 0.4.30 – 0.5.3" in claim
    assert "bye changed since jax 0.5.3 was verified" in claim
    assert 'title="stale on 0.5.3: bye changed since jax 0.5.3 was verified"' in matrix
    assert 'title="stale on 0.4.30: bye changed since jax 0.4.30 was verified"' in matrix


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
    assert '<span class="jaxwaits-badge jaxwaits-failing">✗ failing</span>' in page
    index = (standings / "docs/_build/html/claim/says-bye.html").read_text()
    assert "jaxwaits-failing" in index


BOUNDARIES = """# Boundaries

Its verdict changed in {changed-in}`0.5.3 <says-bye>`, and so did what it printed, in
{changed-in}`0.5.3 <bye>`.
"""


def test_a_boundary_named_in_prose_must_be_in_the_ledger(standings: Path) -> None:
    page = standings / "docs" / "boundaries.md"
    page.write_text(BOUNDARIES)
    index = standings / "docs" / "index.md"
    before = index.read_text()
    index.write_text(before.replace("standings\n", "standings\nboundaries\n"))
    try:
        done = build(standings)
        html = (standings / "docs/_build/html/boundaries.html").read_text()
        page.write_text(BOUNDARIES.replace("0.5.3 <bye>", "0.5.3 <hello>"))
        wrong = build(standings)
    finally:
        page.unlink()
        index.write_text(before)
    assert done.returncode == 0, done.stderr
    assert 'href="changes.html#changed-in-0-5-3"' in html
    assert wrong.returncode == 1
    assert "boundaries.md:3" in wrong.stderr
    assert "{changed-in}`0.5.3 <hello>`: hello printed the same on jax 0.4.30 and 0.5.3" in (
        wrong.stderr
    )


def test_a_wrong_boundary_fails_every_build_not_only_the_one_that_read_it(
    standings: Path,
) -> None:
    page = standings / "docs" / "boundaries.md"
    page.write_text(BOUNDARIES.replace("0.5.3 <bye>", "0.5.3 <hello>"))
    index = standings / "docs" / "index.md"
    before = index.read_text()
    index.write_text(before.replace("standings\n", "standings\nboundaries\n"))
    try:
        first = build(standings)
        again = build(standings, fresh=False)  # nothing changed: no page is read again
    finally:
        page.unlink()
        index.write_text(before)
    for done in (first, again):
        assert done.returncode == 1
        assert "{changed-in}`0.5.3 <hello>`: hello printed the same" in done.stderr


def test_a_boundary_in_plain_words_must_cite_the_ledger(standings: Path) -> None:
    page = standings / "docs" / "boundaries.md"
    page.write_text("# Boundaries\n\nIt said ciao up to jax 0.4.30 and bye from `0.5.3`.\n")
    index = standings / "docs" / "index.md"
    before = index.read_text()
    index.write_text(before.replace("standings\n", "standings\nboundaries\n"))
    try:
        done = build(standings)
    finally:
        page.unlink()
        index.write_text(before)
    assert done.returncode == 1
    assert "boundaries.md:3" in done.stderr
    assert "'up to jax 0.4.30' names a release boundary in plain words" in done.stderr
    assert "0.5.3' names" not in done.stderr  # code is not prose


def test_a_boundary_in_a_claims_own_sentence_must_be_in_its_evidence(standings: Path) -> None:
    page = standings / "docs" / "standings.md"
    before = page.read_text()
    said = "It says bye.\nIt said ciao up to jax 0.4.30."
    page.write_text(before.replace("It says bye.", said, 1))
    try:
        holds = build(standings)
        page.write_text(before.replace("It says bye.", "It says bye since jax 0.5.0.", 1))
        wrong = build(standings)
    finally:
        page.write_text(before)
    assert holds.returncode == 0, holds.stderr
    assert wrong.returncode == 1
    assert (
        "claim says-bye says 'since jax 0.5.0', but the ledger shows no change at jax 0.5.0"
        in wrong.stderr
    )


def test_the_declared_releases_are_checked_against_the_ledger(standings: Path) -> None:
    page = standings / "docs" / "standings.md"
    before = page.read_text()
    page.write_text(before.replace(":evidence: bye\n", ":evidence: bye\n:since: 0.5.3\n", 1))
    try:
        done = build(standings)
    finally:
        page.write_text(before)
    assert done.returncode == 1
    said = "claim says-bye holds on jax 0.4.30, outside the releases it declares (from jax 0.5.3)"
    assert said in done.stderr
