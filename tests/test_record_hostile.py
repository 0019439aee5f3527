"""``record`` holds the checkout it writes (issue 37, point 7): a writer killed before its rename
leaves a temporary file that git ignores and the next ``record`` removes, saying so; a second
``record`` while one runs is refused, naming the first, rather than blaming a snippet for the
first one's writes; and the hold ends with the process, however it ends."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT
from copies import SCOPE

SLOW = """\
import os, pathlib, time
pathlib.Path(os.environ["STARTED"]).touch()
time.sleep(float(os.environ.get("SLOW", "0")))
print("slow")
"""
PAGE = f"""# Scratch

```{{claim}} says-slow
:evidence: slow
{SCOPE}It says slow.
```
"""
KILLED = """\
import os, signal, sys
from pathlib import Path
from jaxwaits import files
os.replace = lambda *args: os.kill(os.getpid(), signal.SIGKILL)  # killed before the rename
files.write_atomic(Path(sys.argv[1]), "half\\n")
"""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A checkout pinned to the installed JAX, whose one snippet prints what it recorded."""
    root = tmp_path / "checkout"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "conf.py").write_text("")
    (root / "docs" / "index.md").write_text(PAGE)
    (root / "snippets").mkdir()
    (root / "snippets" / "slow.py").write_text(SLOW)
    (root / "snippets" / "slow.out").write_text("slow\n")
    pyproject = (ROOT / "pyproject.toml").read_text()
    pinned = pyproject.split('jax = ["jax==')[1].split('"')[0]
    installed = importlib.metadata.version("jax")
    (root / "pyproject.toml").write_text(pyproject.replace(f"=={pinned}", f"=={installed}"))
    shutil.copy2(ROOT / ".gitignore", root / ".gitignore")
    return root


def _jaxwaits(root: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "jaxwaits", *args],
        cwd=root,
        env={**os.environ, "STARTED": str(root.parent / "started"), **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _done(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=300)
    return process.returncode, out, err


def test_7_a_killed_writer_s_temporary_file_is_ignored_and_removed_by_the_next_record(
    checkout: Path,
) -> None:
    recorded = checkout / "snippets" / "slow.out"
    killed = subprocess.run(
        [sys.executable, "-c", KILLED, str(recorded)], capture_output=True, timeout=60, check=False
    )
    assert killed.returncode == -9, killed.stderr
    (left,) = (checkout / "snippets").glob(".slow.out.*.tmp")
    assert recorded.read_text() == "slow\n"  # the write was all or nothing
    subprocess.run(["git", "init", "-q"], cwd=checkout, check=True)
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", f"snippets/{left.name}", "snippets/slow.out"],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ignored.stdout.splitlines() == [f"snippets/{left.name}"]  # not the recorded output
    code, out, err = _done(_jaxwaits(checkout, "record", "slow"))
    assert code == 0, err
    assert out.splitlines()[0] == (
        f"removed snippets/{left.name}: a writer stopped before it finished left it"
    )
    assert "slow: unchanged" in out
    assert not left.exists()


def test_7_a_second_record_is_refused_naming_the_first_and_the_hold_dies_with_it(
    checkout: Path,
) -> None:
    first = _jaxwaits(checkout, "record", "slow", SLOW="60")
    try:
        started = checkout.parent / "started"
        deadline = time.monotonic() + 120
        while not started.exists():
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the first record's snippet never started"
            time.sleep(0.1)
        code, out, err = _done(_jaxwaits(checkout, "record", "slow"))
        assert (code, out) == (2, ""), (out, err)
        assert err == (
            f"jaxwaits: another `jaxwaits record` (pid {first.pid}) holds this checkout "
            f"({checkout}); wait for it or stop it\n"
        )
    finally:
        first.kill()  # SIGKILL: no handler of its own releases anything
        first.communicate()
    code, out, err = _done(_jaxwaits(checkout, "record", "slow"))
    assert code == 0 and "slow: unchanged" in out, err
