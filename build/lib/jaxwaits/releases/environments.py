"""Environments holding one JAX release each, made with uv under ``.cache/jax-envs/``.

Dependencies resolve as of the day the release was published (``uv --exclude-newer``), so an
old JAX gets the NumPy and SciPy its users had, not ones released after it.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from packaging.version import Version

from jaxwaits.errors import JaxwaitsError
from jaxwaits.files import write_atomic
from jaxwaits.releases import index


def _uv() -> list[str]:
    found = shutil.which("uv")
    return [found] if found else [sys.executable, "-m", "uv"]


class NotInstallable(JaxwaitsError):
    """A release that cannot be installed here (no jaxlib wheel for it, say)."""


def ensure(version: Version, root: Path) -> str:
    """The interpreter of an environment with JAX ``version`` and its jaxlib (made, or reused if
    complete). Raises :class:`NotInstallable`, with the installer's reason, when it cannot be."""
    python_version, interpreter = index.interpreter_for(version)
    folder = root / ".cache" / "jax-envs" / f"jax-{version}-py{python_version}"
    python = folder / "bin" / "python"
    # The cpu extra names the jaxlib of releases that did not require it; a same-numbered jaxlib
    # is pinned outright, which also lets a yanked one be installed.
    requirements = [f"jax[cpu]=={version}"]
    published = [index.released_on("jax", version)]
    if index.has_jaxlib(version):
        requirements.append(f"jaxlib=={version}")
        published.append(index.released_on("jaxlib", version))
    cutoff = datetime.datetime.fromisoformat(max(published).replace("Z", "+00:00"))
    made = folder / ".jaxwaits-made"  # what the environment was made with, once it worked
    wanted = json.dumps([requirements, cutoff.isoformat()])
    if made.exists() and made.read_text(encoding="utf-8") == wanted:
        return str(python)
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "UV_COMPILE_BYTECODE": "1"}
    for command in (
        ["venv", "--allow-existing", "--quiet", "--python", interpreter, str(folder)],
        [
            "pip",
            "install",
            "--quiet",
            "--python",
            str(python),
            "--exclude-newer",
            (cutoff + datetime.timedelta(days=1)).isoformat(),
            *requirements,
        ],
    ):
        done = subprocess.run([*_uv(), *command], capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise NotInstallable(f"jax {version} does not install: {_reason(done.stderr)}")
    check = subprocess.run(
        [str(python), "-c", "import jax, jaxlib"], capture_output=True, text=True
    )
    if check.returncode != 0:
        last = check.stderr.strip().splitlines()[-1:] or ["?"]
        raise NotInstallable(f"jax {version} installs but does not import: {last[0]}")
    write_atomic(made, wanted)
    return str(python)


def _reason(stderr: str) -> str:
    """The installer's reason in one clause: uv's first "Because ..." when it gives one."""
    said = " ".join(stderr.split())
    cause = re.search(r"Because (.+?)(?:, we can conclude|$)", said)
    return cause.group(1) if cause else said[-300:]
