"""Faults injected into the tools (runner, tests, command line, writers), each on a temporary
copy: each is caught clearly, names its file, and leaves the other results standing.

The numbers are those of the faults listed in the issue "A green build means every claim held";
the faults of the site build are in ``test_docs_check.py``, on a scratch site.
"""

from __future__ import annotations

import dataclasses
import errno
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from copies import ROOT, Copy, copy_project

from jaxwaits import cli, files
from jaxwaits.chain import facts, problems
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import record, report
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.runner import run_snippets
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.evidence.template import Templates
from jaxwaits.pieces import manifest
from jaxwaits.project import Project
from jaxwaits.releases import index, ledger, wheels

PLATFORM = Platform(jax="0.0", jaxlib="0.0", python="3", backend="cpu")


def folder_of(tmp_path: Path, snippets: dict[str, tuple[str, str | None]]) -> Path:
    for name, (code, out) in snippets.items():
        (tmp_path / f"{name}.py").write_text(code)
        if out is not None:
            (tmp_path / f"{name}.out").write_text(out)
    return tmp_path


# 2. The runner reads output as the build does: one canonical text.


def test_2_trailing_blanks_and_line_ends_do_not_count(tmp_path: Path, templates: Templates) -> None:
    code = 'import sys\nprint("a:", end=" ")\nprint(True, " ")\nsys.stdout.write("b\\r\\n\\n")\n'
    folder = folder_of(tmp_path, {"ends": (code, "a: True\nb\n")})
    (result,) = run_snippets(load_snippets(folder), templates=templates)
    assert result.outcome is Outcome.MATCHED, report.describe(result, PLATFORM)


# 4. One bad input hides every other result, without naming itself.

BAD_INPUTS = {
    "fine": ('print("fine")\n', "fine\n"),
    "not_text": ('import sys\nsys.stdout.buffer.write(b"ok \\xff\\n")\n', "ok\n"),
    "bad_timeout": ('# timeout: 90s\nprint("x")\n', "x\n"),
    "bad_env": ('# env: NO_EQUALS_SIGN\nprint("x")\n', "x\n"),
    "spaced_env": ('# env: XLA_FLAGS --x=4\nprint("x")\n', "x\n"),
    "also_fine": ('print("also")\n', "also\n"),
}


@pytest.fixture
def bad_results(tmp_path: Path, templates: Templates) -> dict[str, object]:
    found = run_snippets(load_snippets(folder_of(tmp_path, BAD_INPUTS)), templates=templates)
    return {result.snippet.name: result for result in found}


def test_4_output_that_is_not_utf8_fails_only_its_snippet(bad_results) -> None:
    assert bad_results["not_text"].outcome is Outcome.NOT_UTF8
    message = report.describe(bad_results["not_text"], PLATFORM)
    assert "byte 3 of its stdout is not UTF-8" in message and "ok \\xff" in message
    assert bad_results["fine"].outcome is Outcome.MATCHED
    assert bad_results["also_fine"].outcome is Outcome.MATCHED


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("bad_timeout", "snippets/bad_timeout.py:1: '# timeout:' needs a number of seconds"),
        ("bad_env", "snippets/bad_env.py:1: '# env:' needs NAME=VALUE"),
        ("spaced_env", "snippets/spaced_env.py:1: '# env:' needs NAME=VALUE"),
    ],
)
def test_4_a_bad_setting_line_fails_its_snippet_naming_file_and_line(bad_results, name, says):
    result = bad_results[name]
    assert result.outcome is Outcome.INVALID and not result.runs
    assert says in report.describe(result, PLATFORM)


def test_4_a_recorded_output_that_is_not_utf8_fails_only_its_snippet(
    tmp_path: Path, templates: Templates
) -> None:
    folder = folder_of(
        tmp_path, {"fine": ('print("fine")\n', "fine\n"), "raw": ("print(1)\n", "1\n")}
    )
    (folder / "raw.out").write_bytes(b"1\xfe\n")
    results = {r.snippet.name: r for r in run_snippets(load_snippets(folder), templates=templates)}
    assert results["fine"].outcome is Outcome.MATCHED
    assert results["raw"].outcome is Outcome.INVALID
    message = report.describe(results["raw"], PLATFORM)
    assert "snippets/raw.py:1: its recorded output raw.out: byte 1 is not UTF-8" in message


def _mini_project(tmp_path: Path) -> Copy:
    """The project's tests and pages, with five quick snippets in place of the real ones."""
    copy = copy_project(tmp_path, ("docs", "annotated_src", "tests"))
    (copy.root / "snippets").mkdir()
    for i in range(5):
        (copy.root / "snippets" / f"quick{i}.py").write_text(f"print({i})\n")
        (copy.root / "snippets" / f"quick{i}.out").write_text(f"{i}\n")
    return copy


def test_4_pytest_collects_past_a_bad_snippet_and_names_it(tmp_path: Path) -> None:
    copy = _mini_project(tmp_path)
    (copy.root / "snippets" / "bad.py").write_text("# timeout: 90s\nprint(1)\n")
    (copy.root / "snippets" / "raw.py").write_bytes(b"print('\xff')\n")
    (copy.root / "snippets" / "known").mkdir()  # issue 23, point 6: only its snippet fails
    (copy.root / "snippets" / "known" / "quick0.toml").write_text("[[output]]\ntext = 5\n")
    done = copy.run("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_snippets.py")
    assert "error" not in done.stdout.splitlines()[-1], done.stdout
    assert "3 failed, 6 passed" in done.stdout, done.stdout
    assert "quick0.toml: output 1.releases: must be a list of JAX releases" in done.stdout
    assert "snippets/bad.py:1: '# timeout:' needs a number of seconds, got '90s'" in done.stdout
    assert "snippets/raw.py:1: byte 7 is not UTF-8" in done.stdout


def test_4_an_unreadable_manifest_is_named_by_every_tool(tmp_path: Path) -> None:
    copy = _mini_project(tmp_path)
    (copy.root / "annotated_src" / "manifest.toml").write_text("first = [\n")
    for command in (("drift",), ("provenance", "--check", "--offline"), ("claims",)):
        done = copy.jaxwaits(*command)
        assert done.returncode != 0, command
        assert "annotated_src/manifest.toml: not a readable manifest" in done.stderr, command
        assert "Traceback" not in done.stderr, (command, done.stderr)
    tests = ("tests/test_vendored.py", "tests/test_drift.py")
    done = copy.run("-m", "pytest", "-q", "-p", "no:cacheprovider", *tests)
    assert "during collection" not in done.stdout, done.stdout
    assert "manifest.toml: not a readable manifest" in done.stdout
    assert " passed" in done.stdout.splitlines()[-1]  # the tests that need no manifest still ran


def test_4_an_unreadable_ledger_file_is_named_and_the_others_still_read(tmp_path: Path) -> None:
    copy = copy_project(tmp_path, ("docs", "snippets", "annotated_src"))
    verified = copy.root / "docs" / "verified"
    (verified / "jax-0.4.30-cpu.json").write_text('{"platform": {"jax": "0.4.30"')
    keyless = verified / "jax-0.5.3-cpu.json"
    keyless.write_text(keyless.read_text().replace('"pieces"', '"gone"'))
    found, problems = ledger.read(verified)
    assert len(found) == len(list(verified.glob("*.json"))) - 2
    assert [str(p).split(":")[0] for p in problems] == [
        str(verified / "jax-0.4.30-cpu.json"),
        str(verified / "jax-0.5.3-cpu.json"),
    ]
    assert "KeyError('pieces')" in str(problems[1])
    done = copy.jaxwaits("summary")
    assert done.returncode == 2 and "jax-0.4.30-cpu.json: not a readable ledger file" in done.stderr
    assert "Traceback" not in done.stderr


# 5. Writes are not atomic.


class _DiskFull(io.BufferedWriter):
    """A file that writes half of what it is given, then fails as a full disk does."""

    def write(self, data) -> int:  # type: ignore[override]
        super().write(bytes(data[: len(data) // 2]))
        super().flush()
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.fdopen

    def fdopen(fd: int, mode: str = "r", *args: object, **kwargs: object):
        return _DiskFull(real(fd, mode, buffering=0)) if "w" in mode else real(fd, mode)

    monkeypatch.setattr(files.os, "fdopen", fdopen)


def test_5_a_failed_write_leaves_the_old_file_whole(tmp_path: Path, full_disk) -> None:
    target = tmp_path / "kept.out"
    target.write_text("before\n")
    with pytest.raises(JaxwaitsError, match=r"kept.out \(it is unchanged\): No space left"):
        files.write_atomic(target, "after, and much longer than before\n")  # named: issue 23
    assert target.read_text() == "before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.out"]  # no partial file left


def test_5_record_and_the_ledger_write_whole_or_not_at_all(
    tmp_path: Path, full_disk, templates: Templates
) -> None:
    folder = folder_of(tmp_path, {"changed": ('print("new")\n', "old\n")})
    found = run_snippets(load_snippets(folder), repeat=2, templates=templates)
    with pytest.raises(JaxwaitsError, match=r"changed.out \(it is unchanged\): No space left"):
        record.apply(found, PLATFORM)
    assert (folder / "changed.out").read_text() == "old\n"
    verification = ledger.Verification(PLATFORM, {"changed": ledger.SnippetEntry(Outcome.MATCHED)})
    (tmp_path / "ledger").mkdir()
    (tmp_path / "ledger" / verification.filename).write_text("old ledger\n")
    with pytest.raises(JaxwaitsError, match=r"\(it is unchanged\): No space left"):
        ledger.save(verification, tmp_path / "ledger")
    assert (tmp_path / "ledger" / verification.filename).read_text() == "old ledger\n"
    assert not [p for p in tmp_path.rglob("*.tmp")]


# 6. Processes leak.

HANGS = """# timeout: 120
import os, pathlib, time
pathlib.Path(os.environ["PID_FILE"]).write_text(str(os.getpid()))
time.sleep(120)
"""
RUNNER = """
import signal
import sys
from pathlib import Path
# As in a terminal's foreground, where Ctrl-C reaches it: a shell that starts a job in the
# background has it ignore SIGINT, and the test would hang there.
signal.signal(signal.SIGINT, signal.default_int_handler)
from jaxwaits.evidence.runner import run_snippets
from jaxwaits.evidence.snippets import load_snippets
run_snippets(load_snippets(Path(sys.argv[1])))
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"  # a zombie has died; only its exit status is left to collect


def _runner_with_a_hanging_snippet(tmp_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    folder = tmp_path / "snippets"
    folder.mkdir()
    folder_of(folder, {"hangs": (HANGS, "")})
    pid_file = tmp_path / "pid"
    env = {**os.environ, "PID_FILE": str(pid_file)}
    runner = subprocess.Popen([sys.executable, "-c", RUNNER, str(folder)], env=env)
    deadline = time.monotonic() + 60
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline, "the snippet never started"
        time.sleep(0.05)
    return runner, int(pid_file.read_text())


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_6_a_stopped_runner_takes_its_snippets_with_it(tmp_path: Path, stop: int) -> None:
    runner, snippet = _runner_with_a_hanging_snippet(tmp_path)
    started = time.monotonic()
    runner.send_signal(stop)
    runner.wait(timeout=30)
    assert time.monotonic() - started < 10  # not the snippet's 120 s timeout
    deadline = time.monotonic() + 10
    while _alive(snippet) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(snippet), f"snippet {snippet} outlived its runner"


# 8. Offline, and bad arguments.


def test_8_the_manifest_check_needs_no_network_on_a_warm_cache() -> None:
    cache = wheels.cache_folder(ROOT)
    if not (cache / wheels.INDEX_FILE).exists():
        pytest.fail(f"no wheel cache in {cache}: fill it with {wheels.FILL_COMMAND}")
    before = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    env = {**os.environ, "UV_DEFAULT_INDEX": "http://127.0.0.1:9/simple"}  # nothing answers
    done = subprocess.run(
        [sys.executable, "-m", "jaxwaits", "provenance", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == before  # nothing written


def test_8_a_cache_that_cannot_be_written_is_a_warning(tmp_path, monkeypatch) -> None:
    def refuse(path: Path, content: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(wheels, "write_atomic", refuse)
    monkeypatch.setattr(wheels, "index_files", lambda project: ())
    with pytest.warns(UserWarning, match="Read-only file system"):
        assert wheels.listed(tmp_path, "0.4.16", refresh=True) == []


@pytest.mark.parametrize("repeat", ["0", "-3", "two"])
def test_8_a_bad_repeat_count_is_a_usage_error(repeat: str, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.parser().parse_args(["run", "--repeat", repeat])
    assert exited.value.code == 2
    assert f"needs a whole number of at least 1, got '{repeat}'" in capsys.readouterr().err


FAKE_INDEX = tuple(
    {"filename": f"jax-{v}-py3-none-any.whl", "url": "", "hashes": {"sha256": ""}}
    for v in ("0.4.30", "0.4.31", "0.5.0")
)


@pytest.mark.parametrize(
    ("version", "says"),
    [
        ("not-a-version", "'not-a-version' is not a version number (e.g. 0.4.30)"),
        ("0.0.1", "jax 0.0.1 is not a release on"),
        ("0.4.99", "(releases of 0.4: 0.4.30, 0.4.31)"),
    ],
)
def test_8_an_unknown_release_is_named(version, says, monkeypatch, capsys) -> None:
    monkeypatch.setattr(index, "index_files", lambda project: FAKE_INDEX)
    monkeypatch.chdir(ROOT)
    assert cli.main(["verify", version]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_8_record_names_the_claims_of_a_snippet_it_could_not_record(
    tmp_path, capsys, templates: Templates
) -> None:
    folder = folder_of(tmp_path, {"raises": ("raise ValueError\n", "x\n")})
    found = run_snippets(load_snippets(folder), repeat=2, templates=templates)
    lines, ok = record.apply(found, PLATFORM, backs={"raises": ["some-claim"]})
    assert not ok
    assert "snippet raises (snippets/raises.py; backs some-claim): raised" in "\n".join(lines)


def test_8_a_flood_of_output_gives_a_short_message(tmp_path: Path, templates: Templates) -> None:
    code = "import sys\nsys.stdout.write(('y' * 99 + '\\n') * 500_000)\n"
    folder = folder_of(tmp_path, {"floods": (code, "nothing\n")})
    (result,) = run_snippets(load_snippets(folder), templates=templates)
    assert len(result.runs[0].stdout) == 50_000_000
    message = report.describe(result, PLATFORM)
    assert len(message) < 20_000
    assert "[... 499" in message and "more lines, " in message


def _shift_a_boundary_across_a_verified_release(path: Path) -> str:
    """The manifest, with the piece that changed in 0.12.0 said to have changed in 0.11.2."""
    recorded = manifest.load(path.parent)
    name = "dispatch.RuntimeTokenSet.block_until_ready"
    differs, identical = recorded.pieces[name].history
    at = recorded.releases.index(differs.last)
    history = (
        dataclasses.replace(differs, last=recorded.releases[at - 1], count=differs.count - 1),
        dataclasses.replace(identical, first=differs.last, count=identical.count + 1),
    )
    pieces = {**recorded.pieces, name: dataclasses.replace(recorded.pieces[name], history=history)}
    return manifest.dumps(dataclasses.replace(recorded, pieces=pieces))


def test_7_the_judge_refuses_four_faults_in_the_vendored_pieces(tmp_path: Path) -> None:
    """An edited vendored line, a removed note, a wrong manifest range and a removed claim
    link: each is one of the site's problems, which the build reports as they are (the one-list
    test in ``test_docs_check.py`` holds the build to that)."""
    copy = copy_project(tmp_path, ("docs", "snippets", "annotated_src"))
    folder = copy.root / "annotated_src"
    wrapper = folder / "api.block_until_ready.py"
    call = "    xc.batched_block_until_ready(arrays)\n"
    link = "  #| {claim}`wrapper-returns-its-argument`\n"
    edited_line = wrapper.read_text().replace(call, call.replace("(arrays)", "(arrays[:1])"))
    assert link in edited_line
    (folder / "manifest.toml").write_text(_shift_a_boundary_across_a_verified_release(wrapper))
    wrapper.write_text(edited_line.replace(link, ""))
    tracer = folder / "core.Tracer.__getattr__.py"
    lines = tracer.read_text().splitlines(keepends=True)
    first_note = next(i for i, line in enumerate(lines) if line.lstrip().startswith("#|"))
    code = next(i for i in range(first_note, len(lines)) if not lines[i].lstrip().startswith("#|"))
    tracer.write_text("".join(lines[:first_note] + lines[code:]))
    found = facts.load(Project(copy.root))
    text = "\n".join(
        str(p) for p in problems.links(found) + problems.evidence(found, sys.executable)
    )
    # the edited line
    assert "api.block_until_ready (annotated_src/api.block_until_ready.py): jax 0.12.0.1" in text
    assert "was a code line edited?" in text
    assert "+    xc.batched_block_until_ready(arrays)" in text
    # the removed note
    assert "annotated_src/core.Tracer.__getattr__.py:1: upstream line" in text
    assert "has no note:" in text
    # the wrong range
    assert "docs/verified/jax-0.11.2-cpu.json: found dispatch.RuntimeTokenSet" in text
    assert "differs as recorded on jax 0.11.2, but the manifest now says identical" in text
    # the removed link
    assert "claim 'wrapper-returns-its-argument' lists api.block_until_ready-L" in text
    assert "but no note on that line cites it" in text


def test_4_a_broken_manifest_raises_an_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "manifest.toml").write_text('first = "0.4.16"\n[pieces.x]\nfile = 1\n')
    with pytest.raises(JaxwaitsError, match=r"manifest.toml: not a manifest as written by"):
        manifest.load(tmp_path)
