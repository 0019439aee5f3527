"""Which JAX an interpreter has: asked in a subprocess, never by importing JAX here."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict, dataclass

PROBE = """
import json, platform, re, jax, jaxlib
found = {
    "jax": jax.__version__,
    "jaxlib": jaxlib.__version__,
    "python": platform.python_version(),
    "backend": jax.default_backend(),
}
if found["backend"] != "cpu":
    found["device"] = jax.devices()[0].device_kind
    try:
        with open("/proc/driver/nvidia/version") as said:  # NVRM version: ... 580.159.04 ...
            found["driver"] = re.search(r" ([0-9]+[.][0-9.]+) ", said.readline()).group(1)
    except (OSError, AttributeError):
        found["driver"] = jax.devices()[0].client.platform_version.strip()
print(json.dumps(found))
"""


@dataclass(frozen=True)
class Platform:
    """The versions and backend that a set of observations was made on."""

    jax: str
    jaxlib: str
    python: str
    backend: str
    device: str = ""  # the accelerator's kind ("NVIDIA H200"); none on CPU
    driver: str = ""  # its driver's version

    def describe(self) -> str:
        said = f"jax {self.jax}, jaxlib {self.jaxlib}, Python {self.python}, {self.backend}"
        return f"{said} ({self.device}, driver {self.driver})" if self.device else said

    def as_dict(self) -> dict[str, str]:
        """Its fields, less the accelerator's where there is none (so CPU ledger files keep
        their text)."""
        return {k: v for k, v in asdict(self).items() if v or k not in ("device", "driver")}


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
