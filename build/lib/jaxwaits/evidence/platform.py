"""Which JAX an interpreter has: asked in a subprocess, never by importing JAX here."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict, dataclass

PROBE = """
import json, platform, jax, jaxlib
print(json.dumps({
    "jax": jax.__version__,
    "jaxlib": jaxlib.__version__,
    "python": platform.python_version(),
    "backend": jax.default_backend(),
}))
"""


@dataclass(frozen=True)
class Platform:
    """The versions and backend that a set of observations was made on."""

    jax: str
    jaxlib: str
    python: str
    backend: str

    def describe(self) -> str:
        return f"jax {self.jax}, jaxlib {self.jaxlib}, Python {self.python}, {self.backend}"

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def probe(python: str = sys.executable, env: dict[str, str] | None = None) -> Platform:
    """Ask ``python`` for its JAX and jaxlib versions, Python version and default backend."""
    done = subprocess.run(
        [python, "-c", PROBE], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    return answer(python, done.returncode, done.stdout, done.stderr)


def answer(python: str, returncode: int | None, stdout: str, stderr: str) -> Platform:
    """The platform that :data:`PROBE` printed, run by ``python``."""
    if returncode != 0:
        raise RuntimeError(f"{python} could not import jax:\n{stderr.strip()}")
    return Platform(**json.loads(stdout.strip().splitlines()[-1]))
