"""Find a working interpreter for a Python version, without the user configuring anything.

On machines where pyenv's shims answer for ``python3.13`` only when ``PYENV_VERSION`` names
3.13, the name on ``PATH`` is not enough: each candidate is run before it is trusted.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path


def _reports(python: str, version: str) -> bool:
    """Whether ``python`` runs and is Python ``version`` ("3.13")."""
    try:
        done = subprocess.run(
            [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except OSError:
        return False
    return done.returncode == 0 and done.stdout.strip() == version


def _candidates(version: str) -> list[str]:
    name = f"python{version}"
    found = [shutil.which(name)]
    roots = [os.environ.get("PYENV_ROOT"), str(Path.home() / ".pyenv")]
    for root in filter(None, roots):
        found += sorted(map(str, Path(root).glob(f"versions/{version}.*/bin/{name}")), reverse=True)
    uv_pythons = Path(
        os.environ.get("UV_PYTHON_INSTALL_DIR", Path.home() / ".local/share/uv/python")
    )
    found += sorted(map(str, uv_pythons.glob(f"cpython-{version}.*/bin/{name}")), reverse=True)
    return [c for c in dict.fromkeys(found) if c]


def find_python(version: str) -> str | None:
    """The path of a working Python ``version`` ("3.12"), or None if this machine has none."""
    return next((c for c in _candidates(version) if _reports(c, version)), None)
