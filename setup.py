"""The build's one addition to setuptools: a wheel carries the claims index of the checkout it is
built from (:mod:`jaxwaits.chain.packaged`), so that ``jaxwaits cite`` and ``jaxwaits claims``
answer from ``pip install jaxwaits``. An sdist carries the index too, for the wheel built from it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.errors import SetupError

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "src"))  # the checkout's jaxwaits: the one being built
from jaxwaits.project import Project, is_checkout  # noqa: E402

CARRIED = ROOT / "src" / "jaxwaits" / "chain" / "claims.json"  # in an sdist


def write_index(package: Path) -> None:
    """The checkout's claims index, written into the ``jaxwaits`` package below ``package``."""
    from jaxwaits.chain import packaged  # reads the pages: only a build that writes it needs it

    packaged.write(Project(ROOT), package)


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return  # an editable install reads the checkout it is installed from
        if is_checkout(ROOT):
            write_index(Path(self.build_lib))
        elif not CARRIED.is_file():
            raise SetupError(f"no jax-waits checkout in {ROOT} and no {CARRIED}: no claims index")


class Sdist(sdist):
    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        if is_checkout(ROOT):  # else (an sdist's sdist) the tree holds the index already
            write_index(Path(base_dir) / "src")


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})
