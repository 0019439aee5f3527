"""The snippets: one experiment per file in ``snippets/``, with its recorded stdout beside it.

A snippet is a Python file that prints observations. Lines at its top may set how it runs::

    # env: XLA_FLAGS=--xla_force_host_platform_device_count=4
    # timeout: 120

``env`` lines are added to the environment of the fresh interpreter that runs it (so they take
effect before JAX starts); ``timeout`` is in seconds (default :data:`DEFAULT_TIMEOUT`).

``<name>.out`` holds the output on the JAX release pinned in ``pyproject.toml``. Where an older
release legitimately prints something else, its output is recorded as a known difference in
``known/<jax version>/<name>.out``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_TIMEOUT = 90.0
KNOWN = "known"
_SETTING = re.compile(r"^#\s*(env|timeout):\s*(.+?)\s*$")


@dataclass(frozen=True)
class Snippet:
    """One experiment: ``snippets/<name>.py`` and its recorded output ``<name>.out``."""

    path: Path
    env: dict[str, str] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def recorded_path(self) -> Path:
        return self.path.with_suffix(".out")

    def recorded(self) -> str | None:
        """The recorded stdout, or None if it was never recorded."""
        if not self.recorded_path.exists():
            return None
        return self.recorded_path.read_text(encoding="utf-8")

    def known_path(self, jax_version: str) -> Path:
        """Where the output known to differ on JAX ``jax_version`` is recorded."""
        return self.path.parent / KNOWN / jax_version / f"{self.name}.out"

    def expected(self, jax_version: str | None = None) -> tuple[str | None, Path]:
        """The output expected on ``jax_version`` and the file it comes from: the known
        difference for that release if one is recorded, else the recorded output."""
        known = self.known_path(jax_version) if jax_version else None
        if known and known.exists():
            return known.read_text(encoding="utf-8"), known
        return self.recorded(), self.recorded_path


def read_snippet(path: Path) -> Snippet:
    """Read a snippet file and the settings in its leading comment lines."""
    env: dict[str, str] = {}
    timeout = DEFAULT_TIMEOUT
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            break
        match = _SETTING.match(line)
        if not match:
            continue
        key, value = match.groups()
        if key == "env":
            name, sep, env_value = value.partition("=")
            if not sep:
                raise ValueError(f"{path}: '# env:' needs NAME=VALUE, got {value!r}")
            env[name.strip()] = env_value.strip()
        else:
            timeout = float(value)
    return Snippet(path=path, env=env, timeout=timeout)


def load_snippets(folder: Path, names: list[str] | None = None) -> list[Snippet]:
    """The snippets in ``folder``, sorted by name; ``names`` picks some (unknown names fail)."""
    found = {p.stem: p for p in sorted(folder.glob("*.py")) if not p.name.startswith("_")}
    if names:
        unknown = sorted(set(names) - set(found))
        if unknown:
            raise SystemExit(f"jaxwaits: no snippet named {', '.join(unknown)} in {folder}")
        found = {name: found[name] for name in sorted(set(names))}
    return [read_snippet(path) for path in found.values()]
