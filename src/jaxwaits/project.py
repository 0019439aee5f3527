"""Where the project's folders are."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


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

    def relative(self, path: Path) -> str:
        """``path`` relative to the root, for messages."""
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return str(path)


def find_project(start: Path | None = None) -> Project:
    """The checkout holding ``start`` (default: the working directory).

    The package may be installed outside the checkout (Read the Docs installs it), so the root is
    found from where the command runs, not from where this file lies.
    """
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "snippets").is_dir() and (folder / "docs" / "conf.py").is_file():
            return Project(folder)
    raise SystemExit(f"jaxwaits: no jax-waits checkout (snippets/ and docs/conf.py) above {here}")
