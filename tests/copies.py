"""Temporary copies of the project, to break on purpose, and the commands to run in them."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What a scratch claim says of each scope axis: the one point a one-line snippet exercises.
SCOPE = "".join(
    f":{axis}: {value}\n"
    for axis, value in (
        ("backend", "cpu"),
        ("threads", "one"),
        ("devices", "single"),
        ("failures", "none"),
        ("dtype", "wide"),
        ("context", "eager"),
    )
)
ROOMS = ("docs", "snippets", "annotated_src", "tests")
_SKIP = shutil.ignore_patterns("_build", "claim", "__pycache__", ".pytest_cache")
SPHINX = ("-m", "sphinx", "-W", "--keep-going", "-j", "auto", "-q", "-b", "html")
SITE = ("docs", "docs/_build/html")


@dataclass(frozen=True)
class Copy:
    """A copy of the checkout at ``root``."""

    root: Path

    def run(self, *args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
        """``python *args`` in the copy, with this interpreter."""
        return subprocess.run(
            [sys.executable, *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def build(self) -> subprocess.CompletedProcess[str]:
        """The site, as ``nox -s docs`` builds it (warnings are errors, the build goes on)."""
        return self.run(*SPHINX, *SITE)

    def jaxwaits(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run("-m", "jaxwaits", *args)


def copy_project(destination: Path, rooms: tuple[str, ...] = ROOMS) -> Copy:
    """Copy the rooms named and ``pyproject.toml`` (never a build) into ``destination``."""
    for room in rooms:
        shutil.copytree(ROOT / room, destination / room, ignore=_SKIP)
    shutil.copy2(ROOT / "pyproject.toml", destination / "pyproject.toml")
    return Copy(destination)


@contextmanager
def edited(path: Path, text: str | bytes) -> Iterator[Path]:
    """``path`` holds ``text`` while this lasts; then it holds what it held before (or is gone)."""
    before = path.read_bytes() if path.exists() else None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    try:
        yield path
    finally:
        if before is None:
            path.unlink()
        else:
            path.write_bytes(before)


def page(claims: dict[str, tuple[str, ...]], title: str = "Faults") -> str:
    """An orphan MyST-NB page declaring each claim with its snippets and executing them."""
    lines = ["---", "orphan: true", "file_format: mystnb", "kernelspec:", "  name: python3"]
    lines += ["  display_name: Python 3", "---", "", f"# {title}", ""]
    for claim, snippets in claims.items():
        lines += [f"```{{claim}} {claim}", f":evidence: {' '.join(snippets)}"]
        lines += [*SCOPE.splitlines(), f"It {claim}."]
        lines += ["```", ""]
        for name in snippets:
            lines += ["```{code-cell}", f":load: ../snippets/{name}.py", "```", ""]
    return "\n".join(lines)
