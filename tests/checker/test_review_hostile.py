"""The review against hostile input (issue 37): names that would forge lines, links or workflow
commands in a report; a file that reads past its size; fences that are never closed or not
Python. Each on tmp_path. What the command line says of them, and of files that are not regular
files, folders that cannot be read and a path that starts with ``-``: tests/test_review_site.py.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib import parse

import jsonschema
import nbformat
import pytest
from markdown_it import MarkdownIt

from harnesscheck import review, sources
from harnesscheck.results import formats, links
from harnesscheck.rules import RULES

ROOT = Path(__file__).resolve().parents[2]

# JW101 on line 4
MISTAKE = (
    "import time, jax\nt0 = time.time()\ny = jax.jit(lambda a: a)(1)\nprint(time.time() - t0)\n"
)

# 1. Names that forge a line, a workflow command, a link or HTML in a report, and how a line of
# text or Markdown shows each: on one line, quoted where it could be read for something else.
HOSTILE = {
    "evil\n::error file=a.py,line=1::injected.py": "'evil\\n::error file=a.py,line=1::injected.py'",
    "::stop-commands::TOKEN.py": "'::stop-commands::TOKEN.py'",
    "  ::warning::spaced.py": "'  ::warning::spaced.py'",
    "##[error]legacy.py": "'#\\x23[error]legacy.py'",
    "](https:evil.example) [`x`]<script>alert(1)<img src=x onerror=alert(1)>|y.py": (
        "](https:evil.example) [`x`]<script>alert(1)<img src=x onerror=alert(1)>|y.py"
    ),
    "bell\x07\x1b[31m\r\u2028\u202eend.py": "'bell\\x07\\x1b[31m\\r\\u2028\\u202eend.py'",
    "per%0Acent,co:lon.py": "per%0Acent,co:lon.py",
}
BROKEN = "::error::broken\n##[warning]x.py"  # not Python: an unreadable line that names it


def broken(tmp_path: Path) -> str:
    return f"'{tmp_path}/::error::broken\\n#\\x23[warning]x.py':1: not Python: invalid syntax"


@pytest.fixture
def hostile(tmp_path: Path) -> review.Review:
    for name in HOSTILE:
        (tmp_path / name).write_text(MISTAKE)
    (tmp_path / BROKEN).write_text("def (:\n")
    done = review.review([tmp_path], set(RULES))
    assert len(done.findings) == len(HOSTILE) and len(done.unreadable) == 1
    return done


def _commands(line: str) -> tuple[str, dict[str, str], str] | None:
    """A line as the GitHub runner reads it (ActionCommand.TryParseV2, TryParse): the command,
    its properties unescaped and its data, or None when the line is no command."""
    line = line.lstrip()
    if not line.startswith("::") or "::" not in line[2:]:
        return ("legacy", {}, line) if "##[" in line else None
    info, _, data = line[2:].partition("::")
    command, _, listed = info.partition(" ")
    properties = {}
    for pair in filter(None, listed.split(",")):
        key, _, value = pair.partition("=")
        for escaped, raw in (
            ("%0D", "\r"),
            ("%0A", "\n"),
            ("%3A", ":"),
            ("%2C", ","),
            ("%25", "%"),
        ):
            value = value.replace(escaped, raw)
        properties[key] = value
    for escaped, raw in (("%0D", "\r"), ("%0A", "\n"), ("%25", "%")):
        data = data.replace(escaped, raw)
    return command, properties, data


def test_1_text_shows_each_finding_on_one_line_with_a_hostile_name_escaped(
    tmp_path: Path, hostile: review.Review
) -> None:
    text = formats.render(hostile, formats.Format.TEXT, tmp_path)
    lines = text.split("\n")
    assert len(lines) == 2 * len(HOSTILE) + 1 + 1, text  # finding and link, the unreadable, total
    assert all(_commands(line) is None for line in lines), text
    assert all(line.isprintable() for line in lines), text
    for shown in HOSTILE.values():
        assert sum(line.startswith(f"{shown}:4:1 JW101 ") for line in lines) == 1, shown
    assert broken(tmp_path) in lines


def test_1_github_annotations_carry_a_hostile_name_escaped(
    tmp_path: Path, hostile: review.Review
) -> None:
    lines = formats.render(hostile, formats.Format.GITHUB, tmp_path).split("\n")
    read = [_commands(line) for line in lines]
    assert [r[0] for r in read if r] == ["warning"] * len(HOSTILE) + ["error"], lines
    files = [r[1]["file"] for r in read if r and r[0] == "warning"]
    assert sorted(files) == sorted(HOSTILE)
    assert all(r[1]["title"].startswith("JW101 ") for r in read if r and r[0] == "warning")
    assert read[-1][2] == broken(tmp_path)


def test_1_markdown_shows_a_hostile_name_as_code_and_makes_no_link_or_html(
    tmp_path: Path, hostile: review.Review
) -> None:
    markdown = formats.render(hostile, formats.Format.MARKDOWN, tmp_path)
    assert all(_commands(line) is None for line in markdown.splitlines()), markdown
    page = MarkdownIt("commonmark", {"html": True}).render(markdown)
    assert "<script" not in page
    headings = re.findall(r"<h3>(.*?)</h3>", page)
    assert len(headings) == len(HOSTILE)
    shown = {html.unescape(h.removeprefix("<code>").removesuffix("</code>")) for h in headings}
    assert shown == set(HOSTILE.values())
    assert all(h.startswith("<code>") and h.count("<code>") == 1 for h in headings), headings
    targets = re.findall(r'href="([^"]*)"', page)
    assert targets and all(link.startswith(links.site()) for link in targets), targets
    problem = re.findall(r"could not read: <code>(.*?)</code>", page)
    assert len(problem) == 1 and "broken" in problem[0]


def test_1_code_a_message_quotes_makes_no_link_html_or_line_in_text_or_markdown(
    tmp_path: Path,
) -> None:
    """JW111 quotes the timed expression, string literals and all."""
    (tmp_path / "copy.py").write_text(
        "import time, jax\nf = jax.jit(lambda a: a)\ny = {'k': f(1)}\nt0 = time.time()\n"
        "y['`](https:evil) <b>*a*\\n##[error]'].copy_to_host_async()\nprint(time.time() - t0)\n"
    )
    done = review.review([tmp_path], set(RULES))
    assert [f.finding.rule for f in done.findings] == ["JW111"]
    text = formats.render(done, formats.Format.TEXT, tmp_path)
    assert len(text.splitlines()) == 3 and "##[" not in text
    markdown = formats.render(done, formats.Format.MARKDOWN, tmp_path)
    page = MarkdownIt("commonmark", {"html": True}).render(markdown)
    assert "<b>" not in page and "<em>" not in page and "##[" not in markdown
    assert all(link.startswith(links.site()) for link in re.findall(r'href="([^"]*)"', page))
    plain = tmp_path / "plain"
    plain.mkdir()
    code = (tmp_path / "copy.py").read_text().splitlines()
    code[4] = "y['k'].copy_to_host_async()"
    (plain / "copy.py").write_text("\n".join(code))
    clean = formats.render(review.review([plain], set(RULES)), formats.Format.MARKDOWN, plain)
    assert "<code>y['k'].copy_to_host_async()</code>" in MarkdownIt().render(clean)


def test_1_json_and_sarif_name_each_file_as_it_is_and_forge_no_command(
    tmp_path: Path, hostile: review.Review
) -> None:
    as_json = formats.render(hostile, formats.Format.JSON, tmp_path)
    sarif = formats.render(hostile, formats.Format.SARIF, tmp_path)
    for text in (as_json, sarif):
        assert all(_commands(line) is None for line in text.splitlines())
    assert "##[" not in as_json and "##[" not in sarif
    assert sorted(f["path"] for f in json.loads(as_json)["findings"]) == sorted(HOSTILE)
    run = json.loads(sarif)["runs"][0]
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    ]
    assert sorted(parse.unquote(uri) for uri in uris) == sorted(HOSTILE)
    assert all(re.fullmatch(r"[A-Za-z0-9%._~/-]+", uri) for uri in uris), uris
    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(json.loads(sarif))


# 3. What is not a regular file is named and skipped, never read: a file of /proc says it holds
# nothing and reads on.


@pytest.mark.skipif(not Path("/proc/self/smaps").is_file(), reason="no /proc here")
def test_3_a_file_that_reads_past_its_size_is_read_no_further_than_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """/proc's files say they hold 0 bytes; the limit holds on what is read."""
    monkeypatch.setattr(sources, "LARGEST", 1000)
    done = review.review([Path("/proc/self/smaps")], set(RULES))
    assert done.unreadable == [
        "/proc/self/smaps: too large to review (over 0 MB as it was read; the review reads "
        "files up to 0 MB)"
    ]


# 9. A fence never closed, a cell that is not Python.

PAGE = "# A page\n\n```python\n" + MISTAKE + "```\n\nSome words.\n\n"


def test_9_a_python_fence_never_closed_is_reviewed_when_it_is_python(tmp_path: Path) -> None:
    """CommonMark runs a fence that is never closed to the end of the page: it is read."""
    (tmp_path / "page.md").write_text(PAGE + "```python\n" + MISTAKE.replace("t0", "t1"))
    done = review.review([tmp_path], set(RULES))
    assert not done.unreadable and not done.notes
    assert [(f.finding.rule, f.finding.line) for f in done.findings] == [
        ("JW101", 7),
        ("JW101", 16),
    ]


def test_9_a_notebook_cell_that_is_not_python_is_a_note_and_the_others_are_reviewed(
    tmp_path: Path,
) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell("%%bash\necho hello"),
        nbformat.v4.new_code_cell(MISTAKE),
    ]
    nbformat.write(notebook, tmp_path / "bench.ipynb")
    done = review.review([tmp_path], set(RULES))
    assert [(f.finding.rule, f.cell, f.finding.line) for f in done.findings] == [("JW101", 2, 4)]
    assert done.notes == [
        f"{tmp_path}/bench.ipynb: cell 1, line 2: a cell that is not Python is not reviewed "
        "(invalid syntax)"
    ]


# A review killed while it works: its worker processes do not outlive it.
KILLED = """
import sys, time
from pathlib import Path
from harnesscheck import review
from harnesscheck.rules import RULES

def resolve(self):
    Path(sys.argv[2]).write_text("modelling")  # the early worker is running by now
    time.sleep(60)

review.Program.resolve = resolve
review.review([Path(sys.argv[1])], set(RULES), jobs=2)
"""


def test_a_review_killed_while_it_models_leaves_no_worker_behind(tmp_path: Path) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    for i in range(130):  # enough files for a second process (one per 64)
        (folder / f"m{i}.py").write_text(f"x = {i}\n")
    marker = tmp_path / "marker"
    process = subprocess.Popen([sys.executable, "-c", KILLED, str(folder), str(marker)])
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert time.monotonic() < deadline, "the review did not start modelling"
            time.sleep(0.05)
        children = _children(process.pid)
        assert children, "no worker was started"
    finally:
        process.kill()
        process.wait()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in children if _alive(pid)], "a worker outlived its review"


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines())
        except (OSError, ValueError):
            continue
        if fields.get("PPid", "").strip() == str(pid):
            found.append(int(status.parent.name))
    return found


def _alive(pid: int) -> bool:
    """A process that exists and is not a zombie awaiting its reaper."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("dies", ["while it tells", "while it compiles", "holding the lock"])
def test_what_a_scout_that_died_did_not_say_is_done_by_the_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dies: str
) -> None:
    """On two cores a scout process says which files to model and compiles the rest; killed
    before it told of every file, or before it said what it compiled, the review does that
    itself and reports as it does on one core: no finding and no file that is not Python lost."""
    for i in range(130):  # enough files for a second process (one per 64)
        (tmp_path / f"m{i:03}.py").write_text(f"x = {i}\n")
    (tmp_path / "m050_bad.py").write_text("def (:\n")
    (tmp_path / "m100_bench.py").write_text(MISTAKE)
    alone = review.review([tmp_path], set(RULES), jobs=1)
    assert alone.findings and alone.unreadable
    review_pid = os.getpid()

    def dying(real: Callable[..., object]) -> Callable[..., object]:
        def scout_side(*args: object) -> object:
            if os.getpid() != review_pid:  # in the scout, forked with this patch in place
                os._exit(1)
            return real(*args)

        return scout_side

    if dies == "while it tells":  # it has told of files up to the 40th
        told = review._sorted_out
        monkeypatch.setattr(
            review,
            "_sorted_out",
            lambda path: dying(told)(path) if "m040" in path.name else told(path),
        )
    elif dies == "while it compiles":
        monkeypatch.setattr(review, "_compiled", dying(review._compiled))
    else:  # killed between taking the shared lock and letting it go: the review does not hang

        def take_and_die(self: review._Ends, first: bool, other: object = None) -> int | None:
            if os.getpid() != review_pid:
                self._lock.acquire()
                os._exit(1)
            return taken(self, first, other)

        taken = review._Ends.take
        monkeypatch.setattr(review._Ends, "take", take_and_die)
    both = review.review([tmp_path], set(RULES), jobs=2)
    assert both.findings == alone.findings
    assert both.unreadable == alone.unreadable
