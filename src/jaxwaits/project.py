"""Where the project's folders are."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jaxwaits.errors import JaxwaitsError


@dataclass(frozen=True)
class Project:
    """The root of a jax-waits checkout and its rooms."""

    root: Path

    @property
    def snippets(self) -> Path:
        return self.root / "snippets"

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    @property
    def annotated_src(self) -> Path:
        return self.root / "annotated_src"

    @property
    def verified(self) -> Path:
        """The ledger: one result file per verified JAX release and backend."""
        return self.docs / "verified"

    def _pyproject(self, *keys: str) -> Any:
        """The value at ``keys`` in ``pyproject.toml``; a clear error if it is not there."""
        path = self.root / "pyproject.toml"
        try:
            value: Any = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise JaxwaitsError(f"{path}: cannot be read: {error}") from None
        for depth, key in enumerate(keys):
            if not isinstance(value, dict) or key not in value:
                raise JaxwaitsError(f"{path}: no {'.'.join(keys[: depth + 1])}")
            value = value[key]
        return value

    @property
    def site_url(self) -> str:
        """The published site, ending in a slash."""
        return str(self._pyproject("tool", "jaxwaits", "site-url")).rstrip("/") + "/"

    @property
    def version(self) -> str:
        """The site release this checkout is (``[project] version``)."""
        return str(self._pyproject("project", "version"))

    @property
    def release_url(self) -> str:
        """The published site of this release (tag ``v<version>``), ending in a slash."""
        pattern = str(self._pyproject("tool", "jaxwaits", "release-url"))
        return pattern.replace("{version}", self.version).rstrip("/") + "/"

    @property
    def skip(self) -> dict[str, str]:
        """The releases ``nox -s matrix`` does not verify, each with why."""
        return {str(k): str(v) for k, v in self._pyproject("tool", "jaxwaits", "skip").items()}

    def pinned_jax(self) -> str:
        """The JAX release the recorded outputs hold for (``jax==X`` in ``pyproject.toml``)."""
        for requirement in self._pyproject("project", "optional-dependencies", "jax"):
            name, _, version = requirement.partition("==")
            if name.strip() == "jax":
                return version.strip()
        raise JaxwaitsError(
            f"{self.root / 'pyproject.toml'}: no jax==X in [project.optional-dependencies] jax"
        )

    def relative(self, path: Path) -> str:
        """``path`` relative to the root, for messages."""
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return str(path)


class NoCheckout(JaxwaitsError):
    """No jax-waits checkout above the folder a command runs in."""


def is_checkout(folder: Path) -> bool:
    """Whether ``folder`` is the root of a jax-waits checkout (it holds snippets/ and
    docs/conf.py)."""
    return (folder / "snippets").is_dir() and (folder / "docs" / "conf.py").is_file()


def find_project(start: Path | None = None) -> Project:
    """The checkout holding ``start`` (default: the working directory).

    The package may be installed outside the checkout (Read the Docs installs it), so the root is
    found from where the command runs, not from where this file lies.
    """
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if is_checkout(folder):
            return Project(folder)
    raise NoCheckout(f"no jax-waits checkout (snippets/ and docs/conf.py) above {here}")
