"""The docs build, on scratch sites: it executes snippet cells, renders claims with their
standing, and fails, naming file and line, on every fault a build alone can see (a cell that
raised, hung, crashed or flooded, a claim no cell backs, a boundary a page names) in every build,
not only the one that read the page. What the facts alone show is judged in memory
(``test_chain.py``), and one test here holds the build to printing the same list as
``jaxwaits claims``.

About ten builds in all, each of a page or four: none of a copy of ``docs/``."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
from copies import SCOPE, edited, page

from jaxwaits.chain import cite
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.runner import run_snippets
from jaxwaits.evidence.snippets import read_snippet

pytestmark = pytest.mark.build  # every test here builds a site
Done = subprocess.CompletedProcess[str]

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
:tags: [hide-input]
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


def build(
    root: Path, *, fresh: bool = True, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Sphinx as the README runs it; ``fresh=False`` keeps the pages read by the last build;
    ``env`` adds to the environment it runs in."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-j",
            "auto",
            *(["-E"] if fresh else []),
            "-q",
            "-b",
            "html",
            "docs",
            "docs/_build/html",
        ],
        cwd=root,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _said(done: subprocess.CompletedProcess[str]) -> str:
    return done.stdout + done.stderr


def test_a_matching_record_builds_and_a_renamed_claim_keeps_resolving(site: Path) -> None:
    (site / "snippets" / "hello.out").write_text("hello\n")
    done = build(site)
    assert done.returncode == 0, done.stderr
    html = site / "docs/_build/html"
    page = (html / "index.html").read_text()
    assert 'id="claim-says-hello"' in page
    assert '<span class="jaxwaits-badge jaxwaits-verified">✓ verified in this build</span>' in page
    # the cell: its file and what it shows above it, its code folded, its output shown
    assert '<p class="jaxwaits-cell-file" id="snippet-hello">' in page
    assert "snippets/hello.py</span></code>: Say hello.</p>" in page
    assert '<details class="admonition hide above-input">\n<summary>\n' in page  # its words
    # a reference is the claim's standing as a mark, linking the claim, its sentence beside it
    link = '<a class="jaxwaits-claim-link jaxwaits-verified" href="#claim-says-hello"'
    assert f'{link} aria-describedby="tip-says-hello-1">✓</a>' in page
    tip = page.split('<span class="jaxwaits-claim-tip" role="tooltip" id="tip-says-hello-1">')[1]
    badge = '<span class="jaxwaits-badge small jaxwaits-verified">✓ verified in this build</span>'
    assert tip.startswith(f"<span>{badge}</span> <code")  # a site with no glossary to link
    assert "says-hello</span></code>: It says hello.</span></span>" in tip
    # built from no tag (no git here): links go to the newest build, as `cite` gives them
    latest = "https://example.org/en/latest/claim/says-hello.html"
    assert f'class="jaxwaits-copy-link reference external" href="{latest}"' in page
    claim_page = (html / "claim/says-hello.html").read_text()
    assert "one paragraph leads to the claim" in claim_page  # where it is stated
    assert 'href="../index.html#greetings">Greetings</a>' in claim_page
    assert f'href="{latest}">{latest}</a>' in claim_page
    assert "Link to the newest build of the site, whose page changes as the site does" in (
        claim_page
    )
    assert "pinned to this site release" not in claim_page
    # the kernel specs name this machine's interpreter: never in the site (issue 38, point 9)
    assert cite.leaked(html, [str(site), sys.prefix]) == []
    # renamed: the old anchor on the same block, the old ID in a reference leads to the new
    assert 'id="claim-says-hi"' in page
    assert "says-hi" not in tip.split("</span></span>")[0]  # the reference, by its new ID
    assert 'url=says-hello.html"' in (html / "claim" / "says-hi.html").read_text()


def test_a_build_from_the_release_s_tag_pins_links_and_lists_pages_before_api_docs(
    site: Path,
) -> None:
    """Issue 38, points 4 and 9: a link pinned to the release only where Read the Docs builds
    the release's tag; "Cited from" lists the site's pages first, the API documentation after."""
    (site / "snippets" / "hello.out").write_text("hello\n")
    citing = "---\norphan: true\n---\n\n# {}\n\nIt greets{{claim}}`says-hello`.\n"
    tag = {"READTHEDOCS_VERSION_TYPE": "tag", "READTHEDOCS_VERSION": "v1.2.3"}
    with (
        edited(site / "docs" / "apidocs" / "mod.md", citing.format("The module")),
        edited(site / "docs" / "zz-page.md", citing.format("A page of the site")),
    ):
        done = build(site, env=tag)
    shutil.rmtree(site / "docs" / "apidocs")
    assert done.returncode == 0, done.stderr
    html = site / "docs/_build/html"
    pinned = "https://example.org/en/v1.2.3/claim/says-hello.html"
    assert (
        f'class="jaxwaits-copy-link reference external" href="{pinned}"'
        in (html / "index.html").read_text()
    )
    claim_page = (html / "claim/says-hello.html").read_text()
    assert "Permanent link, pinned to this site release: " in claim_page
    assert f'href="{pinned}">{pinned}</a>' in claim_page
    pages = claim_page.index("Cited from:")
    api = claim_page.index("Cited in the API documentation:", pages)
    assert ">Scratch</a>" in claim_page[pages:api]
    assert ">A page of the site</a>" in claim_page[pages:api]
    assert ">The module</a>" not in claim_page[pages:api]
    assert ">The module</a>" in claim_page[api:]


def test_a_page_writes_nothing_outside_its_folder_and_changes_nothing_in_the_checkout(
    site: Path,
) -> None:
    """Issue 23, points 1 and 2: a page's claim ID never becomes a path outside
    ``docs/claim/``, and what a page's own code does to the checkout fails the build."""
    (site / "snippets" / "hello.out").write_text("hello\n")
    bad = ["../glossary", "../../zz-escaped", "UPPER-Case", "ünïcode-claim"]
    blocks = "".join(f"```{{claim}} {name}\n:evidence: hello\n{SCOPE}It.\n```\n\n" for name in bad)
    page = PAGE.replace(":renamed-from: says-hi", ":renamed-from: says-hi ../../../old-escaped")
    cell = '\n```{code-cell}\nopen("stray.txt", "w").write("x")\n```\n'
    glossary = "# Glossary\n\nKept as it is.\n"
    try:
        with (
            edited(site / "docs" / "glossary.md", glossary),
            edited(site / "docs" / "index.md", page + cell + "\n" + blocks),
        ):
            done = build(site)
            assert (site / "docs" / "glossary.md").read_text() == glossary
    finally:
        (site / "docs" / "stray.txt").unlink(missing_ok=True)
    assert done.returncode != 0
    for name in bad:
        assert f"claim ID {name!r} is not kebab-case" in done.stderr, done.stderr
    assert "old ID '../../../old-escaped' in :renamed-from: is not kebab-case" in done.stderr
    assert (
        not (site / "zz-escaped.md").exists() and not (site / "docs" / "old-escaped.html").exists()
    )
    assert sorted(p.name for p in (site / "docs" / "claim").iterdir()) == ["says-hello.md"]
    assert "the checkout changed during the build: added docs/stray.txt" in done.stderr


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


def test_a_page_without_execution_shows_no_claim_as_verified(site: Path) -> None:
    (site / "snippets" / "hello.out").write_text("hello\n")
    with edited(site / "docs" / "conf.py", CONF.replace('"force"', '"off"')):
        done = build(site)
    assert done.returncode != 0
    assert "claim says-hello is failing: its evidence hello: not run in this build" in (done.stderr)
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

```{{claim}} prints-in-pieces
:evidence: split_output
{SCOPE}It prints one line in two pieces.
```

```{{code-cell}}
:load: ../snippets/split_output.py
```

```{{release-picker}}
```

```{{verification-matrix}}
```

```{{verification-summary}}
```
"""

# Fault 2 of "A green build means every claim held": the build and the tests read output alike.
SPLIT = '''"""Print one line in two pieces, a pause between them, then blanks and a CR-LF."""

import sys
import time

print("label:", end=" ")
sys.stdout.flush()
time.sleep(0.5)
print(True, "  ")
sys.stdout.write("windows line\\r\\n\\n\\n")
'''


def _ledger_file(site: Path, jax: str, bye: str, detail: str = "", printed: str = "") -> str:
    """A ledger file as verify writes it, judging the snippets as they are now (``printed``:
    what bye printed, if not its status)."""
    platform = {"jax": jax, "jaxlib": jax, "python": "3.13", "backend": "cpu"}
    snippets = {
        name: {"status": status, "detail": text, "printed": f"{name} {status}"}
        | {"fingerprint": read_snippet(site / "snippets" / f"{name}.py").fingerprint(jax)}
        for name, status, text in (("bye", bye, detail), ("hello", "matched", ""))
    }
    if printed:
        snippets["bye"]["printed"] = f"bye {printed}"
    return json.dumps({"platform": platform, "snippets": snippets, "pieces": {}}, indent=2)


KNOWN = """
[[output]]
releases = ["0.4.30"]
text = "ciao\\n"

[output.verdicts.says-bye]
verdict = "holds-output-differs"
why = "it said bye in Italian"

[[output]]
releases = ["0.4.31"]
text = "ciao!\\n"

[output.verdicts.says-bye]
verdict = "holds-output-differs"
why = "it said bye in Italian"
"""


CHANGES = """# Changes

```{release-note} 0.4.31
It says ciao with an exclamation mark{changed-in}`0.4.31 <bye>`.
```

```{release-note} 0.5.3
It says bye in English in this release{changed-in}`0.5.3 <bye>`, where it said ciao, with an
exclamation mark from {changed-in}`0.4.31 <bye>`.
```

```{release-changes}
```
"""


@pytest.fixture(scope="module")
def standings(site: Path) -> Path:
    (site / "snippets" / "hello.out").write_text("hello\n")
    (site / "snippets" / "bye.py").write_text('print("bye")\n')
    (site / "snippets" / "bye.out").write_text("bye\n")
    (site / "snippets" / "split_output.py").write_text(SPLIT)
    (site / "snippets" / "split_output.out").write_text("label: True\nwindows line\n")
    (site / "snippets" / "known").mkdir()
    (site / "snippets" / "known" / "bye.toml").write_text(KNOWN)
    (site / "docs" / "standings.md").write_text(STANDINGS)
    (site / "docs" / "glossary.md").write_text("# Glossary\n\n```{site-terms}\n```\n")
    (site / "docs" / "changes.md").write_text(CHANGES)
    (site / "docs" / "gpu.md").write_text("# On a GPU\n\nWhat carries over.\n")
    toc = "\n```{toctree}\nstandings\nglossary\nchanges\ngpu\n```\n"
    (site / "docs" / "index.md").write_text(PAGE + toc)
    verified = site / "docs" / "verified"
    verified.mkdir()
    (verified / "jax-0.4.30-cpu.json").write_text(
        _ledger_file(site, "0.4.30", "known-difference", "-bye\n+ciao\n")
    )
    (verified / "jax-0.4.31-cpu.json").write_text(  # fares as 0.4.30 did: one column
        _ledger_file(site, "0.4.31", "known-difference", "-bye\n+ciao!\n", printed="ciao!")
    )
    (verified / "jax-0.5.3-cpu.json").write_text(_ledger_file(site, "0.5.3", "matched"))
    return site


@pytest.fixture(scope="module")
def standings_built(standings: Path) -> tuple[Done, Path]:
    return build(standings), standings / "docs/_build/html"


def test_a_verified_and_a_needs_gpu_claim_are_told_apart(standings_built) -> None:
    done, html = standings_built
    assert done.returncode == 0, done.stderr
    page = (html / "standings.html").read_text()
    box = page.split('id="claim-bye-on-a-gpu"')[1].split("</div>")[0:6]
    gpu = "".join(box)
    assert 'class="jaxwaits-claim-status jaxwaits-needs-gpu"' in gpu
    badge = '<span class="jaxwaits-badge jaxwaits-needs-gpu">◇ needs gpu</span>'
    defined = '<a class="jaxwaits-term reference internal" href="glossary.html#standing-needs">'
    assert f"{defined}{badge}</a>: cannot be shown on CPU, so not verified here" in gpu
    assert "verified in this build" not in gpu
    assert (
        'class="jaxwaits-claim-status jaxwaits-verified"'
        in page.split('id="claim-bye-on-a-gpu"')[0]
    )


def test_the_matrix_marks_each_release_and_links_its_page(standings_built) -> None:
    _, html = standings_built
    page = (html / "standings.html").read_text()
    assert ">0.4.30 – 0.4.31<" in page and ">0.5.3<" in page
    # a cell that does not simply hold links to its release's page, which says why
    differs = '<a class="reference internal" href="release/0.4.30.html"><span class="{}">✓*<'
    assert differs.format("jaxwaits-v-holds-output-differs") in page
    assert '<span class="jaxwaits-v-holds">✓</span>' in page  # holds: nothing more to say
    assert "it said bye in Italian" not in page and "title=" not in page.split("<table")[1]
    assert "jaxwaits-v-not-observable" in page  # the gpu claim, on a cpu release
    summary = ": holds on CPU 0.5.3; holds, output differs on CPU 0.4.30 – 0.4.31</p>"
    assert summary in page
    older = (html / "release/0.4.30.html").read_text()
    newer = (html / "release/0.5.3.html").read_text()
    assert 'id="release-0-4-30"' in older and "it said bye in Italian" in older
    # a reason is said once, on the newest release's page it applies to; an older one links there
    gpu_only = "only a GPU can show it, and this run was on CPU"
    assert gpu_only in newer and gpu_only not in older.split("Claim by claim")[1]
    assert 'As on <a class="reference internal" href="0.5.3.html">jax 0.5.3</a>' in older
    # each mark of the legend, and each verdict word, links to its definition
    assert page.count('href="glossary.html#verdict-') >= 8
    glossary = (html / "glossary.html").read_text()
    assert 'id="verdict-holds-output-differs"' in glossary and 'id="standing-needs"' in glossary
    claim = (html / "claim/says-bye.html").read_text()
    assert "holds on CPU 0.5.3; holds, output differs on CPU 0.4.30 – 0.4.31" in claim
    assert "it said bye in Italian" in claim
    assert 'href="../release/0.4.30.html#release-0-4-30"' in claim  # where that range is said


def _text(html: str) -> str:
    """What a reader reads of some HTML: its text, without tags."""
    return re.sub(r"<[^>]+>", "", html)


def test_every_release_has_a_page_that_says_in_words_what_holds_there(standings_built) -> None:
    """Issue 38, points 5 and 9: ``release/0.4.31.html`` was a 404 (a column's page is named
    after its first release); now it leads to 0.4.31's anchor on that page. The page opens
    with a paragraph in words, never says "not observable" (read as "does not apply"), and
    folds the raw differences below its words; the matrix page lists every release, each
    linked to where it is said."""
    _, html = standings_built
    assert 'url=0.4.30.html#release-0-4-31"' in (html / "release/0.4.31.html").read_text()
    article = (html / "release/0.4.30.html").read_text()
    lead = _text(article.split('class="jaxwaits-release-lead">')[1].split("</p>")[0])
    assert lead.startswith("On these releases, 1 of the site") and "4 claims holds as" in lead
    assert "1 more holds although a snippet behind it prints something other than" in lead
    assert "None was seen not to hold. 1 cannot be shown on these releases" in lead
    assert "not to say that it does not apply: only a GPU can show it" in lead
    assert "1 is not verified here: prints-in-pieces" in lead
    assert "not observable" not in article and "cannot be shown" in article
    words, raw = article.index("jaxwaits-release-lead"), article.index('<details class="jaxwaits')
    assert words < raw < article.index("ciao")  # the diff comes after the words, folded
    picker = (html / "standings.html").read_text().split('class="jaxwaits-release-picker')[1]
    picker = picker.split("</ul>")[0]
    for release, target in (("0.5.3", "0.5.3"), ("0.4.31", "0.4.30"), ("0.4.30", "0.4.30")):
        anchor = release.replace(".", "-")
        assert f'href="release/{target}.html#release-{anchor}">{release}</a>' in picker


def test_a_pages_claims_share_their_scope_once_and_each_line_says_what_differs(
    standings_built,
) -> None:
    """Issue 38, point 8: every status line repeated "limited to CPU, one dispatching thread,
    …"; now a note before a page's first claim says it once, with each word linked to its
    definition ("CPU" to the page on what carries over to a GPU), and a claim's line names only
    what differs. A claim's own page still says it all."""
    _, html = standings_built
    body = (html / "standings.html").read_text()
    assert body.count('class="jaxwaits-claims-note"') == 1
    assert body.index("jaxwaits-claims-note") < body.index('id="claim-says-bye"')
    note = body.split('class="jaxwaits-claims-note">')[1].split("</p>")[0]
    assert _text(note).startswith("Unless a claim says otherwise, these claims are limited to")
    assert 'href="gpu.html">CPU</a>' in note
    assert 'href="glossary.html#scope-threads-one">one dispatching thread</a>' in note
    assert body.count("one dispatching thread") == 1
    says_bye, on_a_gpu, in_pieces = (
        line.split("</p>")[0] for line in body.split('class="jaxwaits-claim-status')[1:]
    )
    assert "limited to" not in says_bye and "limited to" not in in_pieces
    assert "limited to" in on_a_gpu and 'href="gpu.html">GPU</a>' in on_a_gpu
    claim = (html / "claim/says-bye.html").read_text().split('class="jaxwaits-claim-status')[1]
    assert "one dispatching thread" in claim.split("</p>")[0]
    glossary = (html / "glossary.html").read_text()
    assert 'id="scope-failures-none"' in glossary and 'id="scope-context-eager"' in glossary


ON_A_GPU = """
[[output]]
backend = "gpu"
releases = ["0.5.3"]
text = "salut\\n"

[output.verdicts.says-bye]
verdict = "holds-output-differs"
why = "it said bye in French"

[output.verdicts.bye-on-a-gpu]
verdict = "holds-output-differs"
why = "it said bye in French, on a GPU"
"""


GPU_PAGE = """# On a GPU

```{claims-on} gpu 0.5.3
```

## By its source

```{claims-on} gpu 0.5.3
- {claim}`It says bye <says-bye>`: what it rests on.
- {claim}`It says hello <says-hello>`: the print.
```

## By its runtime

```{claims-on} gpu 0.5.3
- {claim}`It would say bye on a GPU <bye-on-a-gpu>`.
- {claim}`It prints in pieces <prints-in-pieces>`.
```
"""


@pytest.fixture(scope="module")
def on_a_gpu(standings_built, tmp_path_factory: pytest.TempPathFactory) -> tuple[Done, Path]:
    """The standings site with a run on a GPU in its ledger (where bye printed otherwise), its
    claims naming the backends they hold on."""
    root = tmp_path_factory.mktemp("gpu") / "site"
    shutil.copytree(standings_built[1].parents[2], root, ignore=shutil.ignore_patterns("_build"))
    for name in ("index.md", "standings.md"):
        path = root / "docs" / name
        path.write_text(path.read_text().replace(":backend: cpu\n", ":backend: cpu gpu\n"))
    known = root / "snippets" / "known" / "bye.toml"
    known.write_text(known.read_text() + ON_A_GPU)
    matrix = "# Matrix\n\n```{verification-matrix}\n```\n\n```{verification-elsewhere}\n```\n"
    (root / "docs" / "matrix.md").write_text(matrix)
    (root / "docs" / "gpu.md").write_text(GPU_PAGE)
    index = root / "docs" / "index.md"
    index.write_text(index.read_text().replace("gpu\n```", "gpu\nmatrix\n```"))
    platform = {"jax": "0.5.3", "jaxlib": "0.5.3", "python": "3.12", "backend": "gpu"}
    platform |= {"device": "Test GPU", "driver": "1.2"}
    snippets = {
        name: {"status": status, "detail": "", "printed": name, "same_when_fresh": True}
        | {
            "fingerprint": read_snippet(root / "snippets" / f"{name}.py").fingerprint(
                "0.5.3", backend="gpu"
            )
        }
        for name, status in (
            ("bye", "known-difference"),
            ("hello", "matched"),
            ("split_output", "matched"),
        )
    }
    ledger = {"platform": platform, "snippets": snippets, "pieces": {}}
    (root / "docs" / "verified" / "jax-0.5.3-gpu.json").write_text(json.dumps(ledger))
    return build(root), root / "docs/_build/html"


def test_a_run_on_a_gpu_is_shown_beside_the_cpu_releases(on_a_gpu) -> None:
    done, html = on_a_gpu
    assert done.returncode == 0, done.stderr
    page = (html / "standings.html").read_text()
    # the cell: what the GPU printed, below what this build printed
    assert "On GPU (Test GPU, jax 0.5.3), a recorded run printed:" in page
    assert "salut" in page.split('id="snippet-bye"')[1]
    # the status line, and the matrix: a column for the run, a section saying why
    said = (
        "holds on CPU 0.5.3; holds, output differs on CPU 0.4.30 – 0.4.31; on GPU (Test GPU, jax "
        "0.5.3)"
    )
    assert f"{said}: holds, output differs" in page
    matrix = (html / "matrix.html").read_text()
    assert "On other backends" in matrix and 'href="run/gpu-0.5.3.html"' in matrix
    run = (html / "run/gpu-0.5.3.html").read_text()
    assert "GPU: Test GPU, jax 0.5.3" in run and "it said bye in French" in run
    # the claim about a GPU says what its run there showed
    gpu = page.split('id="claim-bye-on-a-gpu"')[1].split("</div>")[0:6]
    assert "a recorded run on GPU (Test GPU, jax 0.5.3): holds, output differs" in "".join(gpu)
    claim = (html / "claim/says-bye.html").read_text()
    assert 'href="../run/gpu-0.5.3.html">GPU (Test GPU, jax 0.5.3)</a>' in claim
    assert "What it printed on GPU, jax 0.5.3:" in claim and "salut" in claim


def test_the_claims_sorted_by_hand_each_show_their_verdict_on_the_run(on_a_gpu) -> None:
    """Issue 38, point 1: the GPU page's verdicts are the ledger's, never typed; each list goes
    holds first; above the lists, how many claims have each verdict on the run."""
    done, html = on_a_gpu
    assert done.returncode == 0, done.stderr
    page = (html / "gpu.html").read_text()
    counts = page.split('class="jaxwaits-claims-on-counts"')[1].split("</p>")[0]
    assert 'href="run/gpu-0.5.3.html"' in counts
    assert _text(counts) == (
        ">The 4 claims on the GPU (Test GPU, jax 0.5.3): ✓ holds: 2 · ✓* holds, output differs: 2."
    )
    source = _text(page.split("By its source")[1].split("By its runtime")[0])
    assert source == (
        "¶ It says hello✓: the print. On the GPU: ✓ holds. It says bye✓: what it rests on. On "
        "the GPU: ✓* holds, output differs: it said bye in French."
    )  # in the order of their verdicts, not as listed
    assert 'href="glossary.html#verdict-holds-output-differs"' in page


def _text(html: str) -> str:
    """What a reader sees of a piece of a page: its tags dropped, and the claims' tooltips."""
    shown = re.sub(r'<span class="jaxwaits-claim-tip".*?</span></span>', "", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", "", shown).split())


def test_a_release_note_leads_its_releases_entry_and_the_ledgers_list_links(
    standings_built,
) -> None:
    _, html = standings_built
    page = (html / "changes.html").read_text()
    assert page.index('id="changed-in-0-5-3"') < page.index(
        'id="changed-in-0-4-31"'
    )  # newest first
    entry = page.split('id="changed-in-0-5-3"')[1].split("</section>")[0]
    note = entry.split('class="jaxwaits-release-note')[1].split("What the ledger shows")[0]
    assert "It says bye in English in this release" in note
    # its citation of its own release: a mark linking the fact in the list below, the release
    # not said again; one of another release: that release, linking its entry
    mark = (
        '<a class="jaxwaits-claim-link jaxwaits-changed-mark" href="#changed-in-0-5-3-snippet-bye"'
    )
    assert mark in note and ">0.5.3<" not in note
    assert 'href="#changed-in-0-4-31">0.4.31</a>' in note
    assert 'id="changed-in-0-5-3-snippet-bye"' in entry.split("What the ledger shows")[1]
    assert "What the ledger shows, against jax 0.4.31:" in entry
    assert 'href="claim/says-bye.html"' in entry  # the claim whose verdict changed, linked
    assert 'href="glossary.html#verdict-holds-output-differs"' in entry


def test_2_the_build_and_the_tests_read_the_same_text(standings_built, standings: Path) -> None:
    done, _ = standings_built
    assert "split_output" not in _said(done), _said(done)  # it matched in the build
    (tested,) = run_snippets([read_snippet(standings / "snippets" / "split_output.py")])
    assert tested.outcome is Outcome.MATCHED, tested


def test_claims_prints_every_problem_the_build_reports_that_needs_no_page(
    standings: Path,
) -> None:
    """One list of problems (issue 24): on the same broken project, every problem `jaxwaits
    claims` prints is a warning of the build, and every warning of the build is printed by
    `claims`, but for what only a build knows (a claim failing in a cell, none rendering it).
    The faults: a claim that leaves an axis unaddressed, a stray file, an unreadable known
    file, two unreadable ledger files and an unreadable manifest (fault 4: each named, and the
    rest still built and judged)."""
    index = standings / "docs" / "index.md"
    verified = standings / "docs" / "verified"
    truncated, keyless = verified / "jax-0.4.30-cpu.json", verified / "jax-0.5.3-cpu.json"
    readable = _ledger_file(standings, "0.4.38", "matched")  # before its known file breaks
    with ExitStack() as stack:
        stack.enter_context(edited(index, index.read_text().replace(":dtype: wide\n", "")))
        stack.enter_context(edited(standings / "snippets" / "stray.txt", "nothing reads this\n"))
        stack.enter_context(
            edited(standings / "snippets" / "known" / "hello.toml", "[[output]]\ntext = 5\n")
        )
        stack.enter_context(edited(truncated, truncated.read_text()[:200]))
        without_pieces = keyless.read_text().replace('"pieces"', '"pieces-gone"')
        stack.enter_context(edited(keyless, without_pieces))
        stack.enter_context(edited(verified / "jax-0.4.38-cpu.json", readable))
        stack.enter_context(edited(standings / "annotated_src" / "manifest.toml", "first = [\n"))
        claims = subprocess.run(
            [sys.executable, "-m", "jaxwaits", "claims"],
            cwd=standings,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        done = build(standings)
        pages = (standings / "docs/release").glob("*.md")  # this build's, not an earlier one's
        html = standings / "docs/_build/html/release"
        matrix = "".join((html / f"{p.stem}.html").read_text(encoding="utf-8") for p in pages)
    (standings / "annotated_src").rmdir()  # edited() made it for the file, and took the file
    printed = [line for line in claims.stderr.splitlines() if line.strip()]
    assert claims.returncode == 1 and len(printed) >= 7, claims.stderr
    for says in (
        "index.md:14: claim 'says-hello' does not address the dtype axis",
        "snippets/stray.txt",
        "known/hello.toml",
        "docs/verified/jax-0.4.30-cpu.json: not a readable ledger file",
        "docs/verified/jax-0.5.3-cpu.json: not a ledger file as verify writes it",
        "'pieces'",
        "annotated_src/manifest.toml: not a readable manifest",
    ):
        assert says in claims.stderr, (says, claims.stderr)
    for line in printed:
        assert line in done.stderr.replace(": WARNING: ", ": "), (line, done.stderr)
    warned = [
        line.split("WARNING: ", 1)[1].rsplit(" [jaxwaits.", 1)[0]
        for line in done.stderr.splitlines()
        if "WARNING: " in line and "[jaxwaits." in line
    ]
    build_only = (
        "is failing",
        "no page of this build rendered it",
        "the checkout changed",
        "{changed-in}`",  # a boundary a page cites
        "release note",
    )
    for message in warned:
        if not any(words in message for words in build_only):
            assert any(message in line for line in printed), (message, claims.stderr)
    assert "Traceback" not in _said(done) and "please report" not in _said(done).lower()
    # the readable releases are shown, each an anchor on its group's page, and judged
    assert 'id="release-0-4-38"' in matrix and 'id="release-0-4-30"' not in matrix
    assert "claim says-bye is failing" not in done.stderr


FLOOD_LINES = 500_000  # 50 MB of output
FAULTY = {
    "f_raises": 'raise ValueError("on purpose")\n',
    "f_hangs": "# timeout: 3\nimport time\nprint('waiting')\ntime.sleep(600)\n",
    "f_crashes": "import os, signal\nprint('before')\nos.kill(os.getpid(), signal.SIGSEGV)\n",
    "f_floods": f"import sys\nsys.stdout.write(('x' * 99 + '\\n') * {FLOOD_LINES})\n",
    "f_after": "print('after')\n",
}
BOUNDARIES = """---
orphan: true
---

# Boundaries

What it printed changed in {changed-in}`0.5.3 <bye>`; and in {changed-in}`0.5.3 <hello>`.

It said ciao up to jax 0.4.30 and bye from `0.5.3`.
"""


@pytest.fixture(scope="module")
def faulty(standings: Path) -> tuple[Done, Done, float, Done, Path]:
    """Faults 1, 3 and 8 of "A green build means every claim held", and the boundaries a page
    names: one build of a page whose snippets raise, hang, crash and flood, then one that is
    fine and one that loads a deleted file; a changed record on another page; a page citing a
    boundary right and one wrong, and naming one in plain words. Then a second build, which
    reads no page again, and ``check-site``. Returns the two builds, how long the first took,
    what ``check-site`` said, and the site they built."""
    snippets = standings / "snippets"
    claims = {name.replace("_", "-"): (name,) for name in FAULTY}
    claims["loads-a-deleted-file"] = ("f_deleted",)
    docs = standings / "docs"
    with ExitStack() as stack:
        for name, code in FAULTY.items():
            stack.enter_context(edited(snippets / f"{name}.py", code))
            stack.enter_context(edited(snippets / f"{name}.out", "nothing\n"))
        stack.enter_context(edited(snippets / "f_after.out", "after\n"))
        stack.enter_context(edited(snippets / "hello.out", "hellO\n"))
        stack.enter_context(edited(docs / "faults.md", page(claims)))
        stack.enter_context(edited(docs / "boundaries.md", BOUNDARIES))
        started = time.perf_counter()
        first = build(standings)
        seconds = time.perf_counter() - started
        again = build(standings, fresh=False)  # nothing changed: no page is read again
        checked = subprocess.run(
            [sys.executable, "-m", "jaxwaits", "check-site", "docs/_build/html"],
            cwd=standings,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        html = standings / "docs" / "_build" / "faulty"
        (docs / "_build" / "html").rename(html)  # kept for the tests, apart from later builds
    return first, again, seconds, checked, html


def test_3_a_raising_snippet_is_reported_with_its_traceback(faulty) -> None:
    first = _said(faulty[0])
    assert "snippet f_raises (snippets/f_raises.py; backs f-raises): raised" in first
    assert "ValueError: on purpose" in first


def test_3_a_hang_costs_its_own_timeout_not_the_kernels(faulty) -> None:
    first, seconds = _said(faulty[0]), faulty[2]
    assert "snippet f_hangs (snippets/f_hangs.py; backs f-hangs): timed out" in first
    assert "killed after its 3 s timeout; it had printed:\n    waiting" in first
    assert seconds < 240, seconds  # the kernel's own limit per cell is 300 s


def test_3_a_crash_names_the_signal_and_the_claim(faulty) -> None:
    first = _said(faulty[0])
    assert "snippet f_crashes (snippets/f_crashes.py; backs f-crashes): crashed" in first
    assert "the interpreter was killed by SIGSEGV; stdout so far:\n    before" in first


def test_3_the_build_goes_on_after_a_failure(faulty) -> None:
    first = _said(faulty[0])
    assert faulty[0].returncode == 1, first
    assert "please report" not in first.lower()  # no internal error from Sphinx
    assert "f_after" not in first  # the cell after the failures ran, and matched
    # the other page's changed record: named with its diff, claim and page
    assert "snippet hello (snippets/hello.py; backs says-hello): differs" in first
    assert "-hellO\n+hello" in first and "index.md" in first
    for claim in ("f-raises", "f-hangs", "f-crashes", "f-floods", "says-hello"):
        assert f"claim {claim} is failing" in first, claim


def test_3_a_page_loading_a_deleted_snippet_is_named_and_built(faulty) -> None:
    first, html = _said(faulty[0]), faulty[4]
    assert "faults.md:" in first and "code-cell loads a missing file" in first
    assert "claim loads-a-deleted-file is failing" in first
    assert "which does not exist" in (html / "faults.html").read_text(encoding="utf-8")


def test_8_a_flood_of_output_is_cut_in_the_log_and_on_the_page(faulty) -> None:
    first, html = _said(faulty[0]), faulty[4]
    assert "snippet f_floods (snippets/f_floods.py; backs f-floods): differs" in first
    assert "more lines, " in first and " more characters cut ...]" in first
    assert len(first) < 1_000_000, len(first)
    assert (html / "faults.html").stat().st_size < 1_000_000


def test_1_a_failing_claim_fails_every_build_and_shows_failing_everywhere(faulty) -> None:
    first, again, _, checked, html = faulty
    for done in (first, again):
        assert done.returncode == 1, _said(done)
        assert "index.md:14: WARNING: claim says-hello is failing" in _said(done)
    assert "-hellO\n+hello" not in _said(again)  # no page was read again: no cell ran
    page = (html / "index.html").read_text()
    assert 'class="jaxwaits-claim-status jaxwaits-failing"' in page
    assert '<span class="jaxwaits-badge jaxwaits-failing">✗ failing</span>' in page
    assert "jaxwaits-failing" in (html / "claim/says-hello.html").read_text()
    assert checked.returncode == 1
    assert "index.html: shows a failing claim; this site must not be published" in checked.stdout


def test_a_boundary_a_page_names_must_be_in_the_ledger_in_every_build(faulty) -> None:
    first, again, html = faulty[0], faulty[1], faulty[4]
    assert 'href="changes.html#changed-in-0-5-3"' in (html / "boundaries.html").read_text()
    for done in (first, again):
        said = _said(done)
        assert "boundaries.md:7" in said
        assert "{changed-in}`0.5.3 <hello>`: hello printed the same on jax 0.4.31 and 0.5.3" in said
        assert "<bye>`:" not in said  # bye printed something else on 0.5.3
        assert "boundaries.md:9" in said
        assert "'up to jax 0.4.30' names a release boundary in plain words" in said
        assert "0.5.3' names" not in said  # code is not prose
