"""The checker joined to the site: ``jaxwaits review`` through the site's command line (exit
codes, what it prints, hostile input: files that are not regular files, folders that cannot be
read, fences that are not Python, a path that starts with ``-``), the claim links it prints next
to ``jaxwaits cite``'s, and the rules' documentation next to the pages that show it. The checker's
own tests (``tests/checker/``) need none of the site; these do."""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from checker.test_review import BLOCK_IN_JIT, HEAD, NUMPY_BLOCKED
from checker.test_review_hostile import MISTAKE, PAGE
from conftest import ROOT

from harnesscheck import review
from harnesscheck.results import formats, links
from harnesscheck.rules import RULES
from jaxwaits import cli
from jaxwaits.chain import cite, packaged
from jaxwaits.claims.registry import Registry


def test_an_unreadable_file_is_named_and_the_others_still_reviewed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "broken.py").write_text("def (:\n")
    (tmp_path / "bad.ipynb").write_text("{not json")
    (tmp_path / "harness.py").write_text(NUMPY_BLOCKED)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["review", "."]) == 2
    out = capsys.readouterr().out
    assert "broken.py:1: not Python" in out
    assert "bad.ipynb: not a valid notebook" in out
    assert re.search(r"harness\.py:\d+:\d+ JW105", out)


def test_exit_codes_outside_a_checkout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no jax-waits checkout here
    (tmp_path / "clean.py").write_text(HEAD)
    assert cli.main(["review", "clean.py"]) == 0
    (tmp_path / "wrong.py").write_text(BLOCK_IN_JIT)
    assert cli.main(["review", "."]) == 1
    assert cli.main(["review", "--ignore", "JW104", "."]) == 0
    with pytest.raises(SystemExit) as stopped:
        cli.main(["review", "--select", "JW999", "."])
    assert stopped.value.code == 2
    assert "names no rule" in capsys.readouterr().err


def test_links_are_pinned_like_cite(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A finding links the release only where the installed index was made from its tag: the
    checker reads the index jaxwaits writes, as data, and links a claim where ``cite`` does."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["tool"]["jaxwaits"]["site-url"] == links.SITE_URL
    assert links.FORMAT == packaged.FORMAT
    assert links.URL.pattern == packaged.URL.pattern  # what each accepts as the site's URL
    path = tmp_path / "claims.json"
    monkeypatch.setattr(links, "index_path", lambda: path)
    pinned = "https://jax-waits.readthedocs.io/en/v9.9.9/"
    for release_url, expected in [(None, links.SITE_URL), (pinned, pinned)]:
        index = packaged.Index(
            "9.9.9", links.SITE_URL, release_url, Registry({}, (), (), ()), [], {}, {}
        )
        path.write_text(packaged.dumps(index))
        links.site.cache_clear()
        assert links.site() == expected
        assert links.claim_url("three-waits") == cite.pinned(expected, "three-waits")
    links.site.cache_clear()


def test_every_rule_documents_its_checklist_item_and_claims_and_the_page_shows_it() -> None:
    """A rule's documentation is its module's docstring; the review-tool page renders them."""
    checklist = (ROOT / "docs" / "review-tool.md").read_text()
    assert "```{review-rules}\n```" in checklist
    items = (ROOT / "docs" / "review.md").read_text()
    for rule in RULES.values():
        if rule.anchor:  # JW100, the review's own rule, states no checklist item
            assert f"{{ref}}`{rule.anchor}`" in rule.doc, rule.code
            assert f"({rule.anchor})=" in items, rule.code
        for claim in rule.claims:
            assert f"{{claim}}`{claim}`" in rule.doc, (rule.code, claim)
        assert "```python\n" in rule.doc and "\nRight: " in rule.doc, rule.code


# Hostile input (issue 37), as the command line reports it

# 3. What is not a regular file is named and skipped, never read: a FIFO would block forever,
# a link to /dev/zero fill the memory.


def _review_in_a_child(
    tmp_path: Path, *paths: str, first: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """`jaxwaits review` in a child with 1 GB of memory and a minute: one that hangs or reads
    without end fails the test, not the machine."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    command = [*first, sys.executable, "-m", "jaxwaits", "review", "--", *paths]
    return subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, timeout=60, preexec_fn=limited
    )


@pytest.fixture
def bench(tmp_path: Path) -> Path:
    """A folder of two harnesses, one also reached through a link (a regular file: read)."""
    folder = tmp_path / "bench"
    folder.mkdir()
    (folder / "harness.py").write_text(MISTAKE)
    (folder / "real.py").write_text(MISTAKE)
    (folder / "linked.py").symlink_to(folder / "real.py")
    return folder


def _skipped_and_the_others_reviewed(done: subprocess.CompletedProcess[str], says: str) -> None:
    assert done.returncode == 2, done
    lines = done.stdout.splitlines()
    assert lines[0].startswith("bench/harness.py:4:1 JW101 "), lines
    # a finding through a link is reported where it resolves to
    assert sum(line.startswith("bench/real.py:4:1 JW101 ") for line in lines) == 2, lines
    assert lines[-2:] == [says, "3 findings in 3 files"] and not done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_3_a_fifo_is_skipped_and_named_not_waited_on(tmp_path: Path, bench: Path) -> None:
    os.mkfifo(bench / "x.py")
    done = _review_in_a_child(tmp_path, "bench")
    _skipped_and_the_others_reviewed(done, "bench/x.py: skipped: a FIFO, not a regular file")
    named_directly = _review_in_a_child(tmp_path, "bench/x.py")
    assert named_directly.returncode == 2
    assert named_directly.stdout.splitlines() == [
        "bench/x.py: skipped: a FIFO, not a regular file",
        "0 findings in 0 files",
    ]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_3_a_link_to_dev_zero_is_skipped_and_named_not_read(tmp_path: Path, bench: Path) -> None:
    (bench / "z.py").symlink_to("/dev/zero")
    done = _review_in_a_child(tmp_path, "bench")
    says = "bench/z.py: skipped: a character device, not a regular file"
    _skipped_and_the_others_reviewed(done, says)
    named_directly = _review_in_a_child(tmp_path, "/dev/zero")
    assert named_directly.returncode == 2
    assert named_directly.stdout.splitlines() == [
        "/dev/zero: skipped: a character device, not a regular file",
        "0 findings in 0 files",
    ]


# 9. A folder that cannot be read, a fence never closed, a fence labelled Python that is not.


def _too_deep(tmp_path: Path) -> Path:
    """A folder under tmp_path whose path is longer than the system allows a path to be: it
    cannot be listed by name, by root too (chmod 000 stops no root)."""
    top = os.open(tmp_path, os.O_RDONLY)
    name = "d" * 250
    try:
        for _ in range(20):
            os.mkdir(name, dir_fd=top)
            deeper = os.open(name, os.O_RDONLY, dir_fd=top)
            os.close(top)
            top = deeper
        os.close(os.open("lost.py", os.O_WRONLY | os.O_CREAT, dir_fd=top))
    finally:
        os.close(top)
    return tmp_path / name


def test_9_a_folder_that_cannot_be_read_is_named_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _too_deep(tmp_path)
    (tmp_path / "harness.py").write_text(MISTAKE)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["review", "."]) == 2
    out = capsys.readouterr().out.splitlines()
    unlisted = [line for line in out if "folder cannot be read" in line]
    assert len(unlisted) == 1, out
    assert unlisted[0].endswith(
        ": folder cannot be read, nothing in it reviewed: File name too long"
    )
    assert "harness.py:4:1 JW101 " in out[0] and out[-1] == "1 finding in 1 file"


# root reads a folder that chmod 000 closes, unless it gives up the right to
AS_A_USER = (
    ["setpriv", "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
)


@pytest.mark.skipif(bool(AS_A_USER) and not shutil.which("setpriv"), reason="root, no setpriv")
def test_9_a_folder_closed_by_chmod_is_named_and_exits_2(tmp_path: Path) -> None:
    closed = tmp_path / "closed"
    closed.mkdir()
    (closed / "harness.py").write_text(MISTAKE)
    (tmp_path / "harness.py").write_text(MISTAKE)
    closed.chmod(0)
    try:
        done = _review_in_a_child(tmp_path, "closed", "harness.py", first=AS_A_USER)
    finally:
        closed.chmod(0o700)
    assert done.returncode == 2, done
    assert done.stdout.splitlines()[2:] == [
        "closed: folder cannot be read, nothing in it reviewed: Permission denied",
        "1 finding in 1 file",
    ]


def test_9_a_path_that_is_not_there_is_one_line_and_counts_as_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "harness.py").write_text(MISTAKE)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["review", "missing.py", "harness.py"]) == 2
    assert capsys.readouterr().out.splitlines()[2:] == [
        "missing.py: cannot be read: No such file or directory",
        "1 finding in 1 file",
    ]


def test_9_a_python_fence_never_closed_is_the_pages_fault_when_the_rest_is_not_python(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = PAGE.count("\n") + 1
    text = PAGE + "```python\n" + MISTAKE + "\nThe timings above are wrong.\n"
    (tmp_path / "page.md").write_text(text)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["review", "page.md"]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("page.md:7:1 JW101 ")  # the fence before it is still reviewed
    assert out[2] == (
        f"page.md:{opened}: a python fence is never closed; not reviewed: what follows it is "
        f"not Python (invalid syntax, line {opened + 6})"
    )


def test_9_a_python_fence_that_does_not_parse_is_a_note_not_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pseudo-code in a fence labelled python is common in docs: said, and the page still
    passes on what it shows."""
    text = PAGE + "```python\nfor step in ...:  time it\n```\n"
    (tmp_path / "page.md").write_text(text)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["review", "page.md"]) == 1  # the finding, not an error
    out = capsys.readouterr().out.splitlines()
    assert (
        out[2] == "page.md:13: a python fence that is not Python is not reviewed (invalid syntax)"
    )
    done = review.review([tmp_path / "page.md"], set(RULES))
    for form in formats.Format:
        assert "a python fence that is not Python" in formats.render(done, form, tmp_path), form


# 11. A path that starts with `-`.


def test_11_a_path_that_starts_with_a_dash_is_one_line_that_says_to_put_dashes_before_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "-rf.py").write_text(MISTAKE)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["review", "-rf.py"]) == 2
    said = capsys.readouterr()
    assert not said.out and said.err == (
        "jaxwaits: review: '-rf.py' is not an option of review; put -- before paths that start "
        "with -: jaxwaits review [options] -- '-rf.py'\n"
    )
    assert cli.main(["review", "--form", "text", "--", "-rf.py"]) == 1
    assert capsys.readouterr().out.startswith("-rf.py:4:1 JW101 ")
