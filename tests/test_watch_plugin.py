"""`pytest --jaxwaits-watch` under pytest-xdist, the programs the watch is tried on kept out of
the project's own test run, and where the watch places a reading a helper of the program makes
(issue 37)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def _pytest(here: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest in ``here``, its temporary files in ``here/tmp`` (to see that none is left)."""
    (here / "tmp").mkdir()
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=here, capture_output=True, text=True, check=False, timeout=300,
        env={**os.environ, "TMPDIR": str(here / "tmp")},
    )  # fmt: skip


def test_the_suite_collects_no_program_the_tools_are_tried_on(tmp_path: Path) -> None:
    """Only the project's tests are collected: a program under tests/ named as pytest collects
    (the watch's pytest-benchmark reductions, review's corpus) is run by path, not as a test.
    Checked on a copy of the tree, each such file a test of its own."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for path in (ROOT / "tests").rglob("*.py"):
        if re.fullmatch(r"test_.*\.py|.*_test\.py", path.name):
            copy = tmp_path / path.relative_to(ROOT)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text("def test_placeholder():\n    pass\n")
    done = _pytest(tmp_path, "--collect-only")
    collected = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    assert collected == {f"tests/{p.name}" for p in (ROOT / "tests").glob("test_*.py")}
