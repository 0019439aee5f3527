"""Environments holding one JAX release each, made with uv under ``.cache/jax-envs/``.

Dependencies resolve as of the day the release was published (``uv --exclude-newer``), so an
old JAX gets the NumPy and SciPy its users had, not ones released after it.
"""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
import sys
from pathlib import Path

from packaging.version import Version

from jaxwaits.releases import index


def _uv() -> list[str]:
    found = shutil.which("uv")
    return [found] if found else [sys.executable, "-m", "uv"]


def ensure(version: Version, root: Path) -> str:
    """The interpreter of an environment with ``jax==version`` (made, or reused if complete)."""
    python_version, interpreter = index.interpreter_for(version)
    folder = root / ".cache" / "jax-envs" / f"jax-{version}-py{python_version}"
    python = folder / "bin" / "python"
    requirements = [f"jax=={version}"]
    published = [index.released_on("jax", version)]
    if index.has_jaxlib(version):
        requirements.append(f"jaxlib=={version}")
        published.append(index.released_on("jaxlib", version))
    cutoff = datetime.datetime.fromisoformat(max(published).replace("Z", "+00:00"))
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
            raise RuntimeError(f"uv {' '.join(command)} failed:\n{done.stderr.strip()}")
    return str(python)
