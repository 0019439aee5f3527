"""The snippets: one experiment per file in ``snippets/``, with its recorded stdout beside it.

A snippet is a Python file that prints observations. Lines at its top may set how it runs::

    # env: XLA_FLAGS=--xla_force_host_platform_device_count=4
    # timeout: 120

``env`` lines are added to the environment of the fresh interpreter that runs it (so they take
effect before JAX starts); ``timeout`` is in seconds (default :data:`DEFAULT_TIMEOUT`).

``<name>.out`` holds the output on the JAX release pinned in ``pyproject.toml``. Where another
release legitimately prints something else, that output is recorded as a known difference in
``known/<name>.toml`` (:mod:`jaxwaits.evidence.known`).
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import known
from jaxwaits.evidence.output import canonical, decode

DEFAULT_TIMEOUT = 90.0
_SETTING = re.compile(r"^#\s*(env|timeout)\s*:\s*(.*?)\s*$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Snippet:
    """One experiment: ``snippets/<name>.py`` and its recorded output ``<name>.out``.

    ``problems`` holds what is wrong with its settings, each as ``(line, message)``; a snippet
    with problems is reported, never run.
    """

    path: Path
    env: dict[str, str] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    problems: tuple[tuple[int, str], ...] = ()

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def recorded_path(self) -> Path:
        return self.path.with_suffix(".out")

    def recorded(self) -> str | None:
        """The recorded stdout (canonical), or None if it was never recorded."""
        return _read_output(self.recorded_path)

    def known_differences(self) -> known.Known:
        """Its known differences on other releases."""
        return known.load(self.path.parent, self.name)

    def expected(
        self,
        jax_version: str | None = None,
        differences: known.Known | None = None,
        backend: str = known.CPU,
    ) -> tuple[str | None, Path]:
        """The output expected on ``jax_version`` and ``backend``, and the file it comes from:
        the known difference for that release if one is recorded, else the recorded output.
        ``differences``: its known differences, when the caller has read them already."""
        if jax_version is None:
            found = None
        else:
            found = (differences or self.known_differences()).for_release(jax_version, backend)
        if found is not None:
            return canonical(found.text), known.path_for(self.path.parent, self.name)
        return self.recorded(), self.recorded_path

    def fingerprint(
        self,
        jax_version: str,
        differences: known.Known | None = None,
        backend: str = known.CPU,
    ) -> str:
        """What a verification of ``jax_version`` on ``backend`` judged: the snippet's text, its
        recorded output and the known output for that release (if any), hashed. A ledger entry
        with another fingerprint was made with other evidence: it is stale."""
        expected, _ = self.expected(jax_version, differences, backend)
        parts = [self.path.read_text(encoding="utf-8"), self.recorded() or "", expected or ""]
        return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]


def _read_output(path: Path) -> str | None:
    """A recorded output, canonical; bytes that are not UTF-8 show as ``\\x`` escapes (and make
    the snippet invalid, see :func:`read_snippet`)."""
    if not path.exists():
        return None
    return canonical(decode(path.read_bytes()).text)


def parse_settings(text: str) -> tuple[dict[str, str], float, list[tuple[int, str]]]:
    """The ``# env:`` and ``# timeout:`` settings in the leading comment lines of ``text``, and
    the problems with them as ``(line, message)``."""
    env: dict[str, str] = {}
    timeout = DEFAULT_TIMEOUT
    problems: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() and not line.startswith("#"):
            break
        match = _SETTING.match(line)
        if not match:
            continue
        key, value = match.groups()
        if key == "env":
            name, sep, env_value = value.partition("=")
            if not sep or not _ENV_NAME.match(name.strip()):
                problems.append(
                    (number, f"'# env:' needs NAME=VALUE with NAME a variable name, got {value!r}")
                )
                continue
            env[name.strip()] = env_value.strip()
            continue
        try:
            timeout = float(value)
        except ValueError:
            timeout = math.nan
        if not math.isfinite(timeout) or timeout <= 0:
            problems.append((number, f"'# timeout:' needs a number of seconds, got {value!r}"))
            timeout = DEFAULT_TIMEOUT
    return env, timeout, problems


def read_snippet(path: Path) -> Snippet:
    """Read a snippet file and the settings in its leading comment lines; what is wrong with
    them is kept in ``problems``, so one bad file never stops the others from being read."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        return Snippet(path, problems=((1, f"byte {error.start} is not UTF-8"),))
    except OSError as error:
        return Snippet(path, problems=((1, f"cannot be read: {error.strerror}"),))
    env, timeout, problems = parse_settings(text)
    recorded = path.with_suffix(".out")
    bad = decode(recorded.read_bytes()).bad_byte if recorded.is_file() else None
    if bad is not None:
        problems.append((1, f"its recorded output {recorded.name}: byte {bad} is not UTF-8"))
    try:
        known.load(path.parent, path.stem)
    except JaxwaitsError as error:
        problems.append((1, f"its known differences: {error}"))
    return Snippet(path=path, env=env, timeout=timeout, problems=tuple(problems))


def snippet_paths(folder: Path) -> dict[str, Path]:
    """Every snippet file in ``folder`` by name, sorted; reading none of them."""
    return {p.stem: p for p in sorted(folder.glob("*.py")) if not p.name.startswith("_")}


def load_snippets(folder: Path, names: list[str] | None = None) -> list[Snippet]:
    """The snippets in ``folder``, sorted by name; ``names`` picks some (unknown names fail)."""
    found = snippet_paths(folder)
    if names:
        unknown = sorted(set(names) - set(found))
        if unknown:
            raise JaxwaitsError(f"no snippet named {', '.join(unknown)} in {folder}")
        found = {name: found[name] for name in sorted(set(names))}
    return [read_snippet(path) for path in found.values()]


def orphans(folder: Path, releases: set[tuple[str, str]]) -> list[str]:
    """Files in ``folder`` that nothing uses, each with why: a recorded output without its
    snippet, known differences of no snippet or of a release and backend the ledger does not
    hold (``releases``: (release, backend) pairs), and any other file."""
    found = []
    snippets = set(snippet_paths(folder))
    for path in sorted(folder.iterdir()):
        if path.name.startswith(("_", ".")):
            continue  # private helpers, caches
        if path.is_dir() and path.name == known.FOLDER:
            found += _known_orphans(path, snippets, releases)
        elif path.suffix == ".out" and path.stem not in snippets:
            found.append(f"{path}: a recorded output without its snippet {path.stem}.py")
        elif path.suffix not in (".py", ".out"):
            found.append(f"{path}: not a snippet or a recorded output; nothing reads it")
    return found


def _known_orphans(folder: Path, snippets: set[str], releases: set[tuple[str, str]]) -> list[str]:
    found = []
    for path in sorted(folder.iterdir()):
        if path.suffix != ".toml" or path.stem not in snippets:
            found.append(f"{path}: known differences of no snippet")
            continue
        try:
            unheld = sorted(known.load(folder.parent, path.stem).releases() - releases)
        except JaxwaitsError:
            continue  # its snippet is invalid, and says why

        if unheld:
            said = [r if b == known.CPU else f"{r} on {b}" for r, b in unheld]
            found.append(
                f"{path}: lists jax {', '.join(said)}, which the ledger does not hold "
                "(verify them, or take them out)"
            )
    return found
