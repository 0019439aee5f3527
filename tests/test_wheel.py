"""``pip install jaxwaits`` answers ``cite`` and ``claims``: a wheel built from a copy of the
checkout, installed into a fresh environment without JAX and run in a folder outside any
checkout, prints what the checkout prints (from the claims index it carries)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT
from copies import copy_project

from jaxwaits import cli
from jaxwaits.chain import packaged
from jaxwaits.claims.registry import Registry
from jaxwaits.project import Project

# What a build reads: the rooms the index comes from, the package, and what setuptools is given.
BUILT_FROM = ("docs", "snippets", "annotated_src", "src")
FILES = ("setup.py", "README.md", "LICENSE")
INDEX = f"jaxwaits/chain/{packaged.FILE}"


@dataclass(frozen=True)
class Installed:
    """The ``jaxwaits`` command of a fresh environment, run in a folder outside any checkout."""

    env: Path
    elsewhere: Path
    wheels: tuple[Path, Path]  # built from the sdist (the one installed); straight from the copy
    checkout: Path  # the copy they were built from

    def run(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        outside = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
        return subprocess.run(
            [str(self.env / "bin" / args[0]), *args[1:]],
            cwd=cwd or self.elsewhere,
            env=outside,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )


def _uv(*args: str | Path) -> None:
    uv = shutil.which("uv")
    if uv is None:
        pytest.fail("building the wheel needs uv: python3 -m pip install uv", pytrace=False)
    done = subprocess.run(
        [uv, *map(str, args)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, f"uv {' '.join(map(str, args))}:\n{done.stdout}{done.stderr}"


@pytest.fixture(scope="module", autouse=True)
def no_tag() -> Iterator[None]:
    """The wheel is built from a copy (no git) and the checkout's index in place: both are told
    they are no tag's build, as Read the Docs tells a branch's, so that both link to the newest
    build even on a tagged commit."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("READTHEDOCS_VERSION_TYPE", "branch")
        yield


@pytest.fixture(scope="module")
def installed(
    tmp_path_factory: pytest.TempPathFactory, progress: Callable[[str], None]
) -> Installed:
    """A wheel built as a release is (an sdist, then the wheel from it), installed; and one
    built straight from the copy, as ``pip install <checkout>`` builds it."""
    base = tmp_path_factory.mktemp("wheel")
    source = copy_project(base / "source", BUILT_FROM).root
    for name in FILES:
        shutil.copy2(ROOT / name, source / name)
    progress("building the sdist and the wheel, and a wheel straight from the checkout")
    _uv("build", "--python", sys.executable, "--out-dir", base / "dist", source)
    _uv("build", "--python", sys.executable, "--wheel", "--out-dir", base / "direct", source)
    (wheel,) = (base / "dist").glob("*.whl")
    (direct,) = (base / "direct").glob("*.whl")
    progress("installing the wheel into a fresh environment, without JAX")
    _uv("venv", "--quiet", "--python", sys.executable, base / "env")
    _uv("pip", "install", "--quiet", "--python", base / "env" / "bin" / "python", wheel)
    (base / "elsewhere").mkdir()
    return Installed(base / "env", base / "elsewhere", (wheel, direct), source)


def _in_checkout(monkeypatch: pytest.MonkeyPatch, capsys, *args: str) -> str:
    """What ``python -m jaxwaits *args`` prints in the checkout."""
    monkeypatch.chdir(ROOT)
    cli.main(list(args))
    return capsys.readouterr().out


FOUND = "import importlib.util as u; print(u.find_spec('jax'), u.find_spec('jaxwaits').origin)"


def test_the_environment_has_the_wheel_and_no_jax(installed: Installed) -> None:
    found = installed.run("python", "-c", FOUND)
    assert found.returncode == 0, found.stderr
    jax, origin = found.stdout.split()
    assert jax == "None"
    assert Path(origin).is_relative_to(installed.env), origin


def test_both_ways_of_building_carry_the_same_index(installed: Installed) -> None:
    carried = []
    for wheel in installed.wheels:
        with zipfile.ZipFile(wheel) as built:
            carried.append(built.read(INDEX))
    assert carried[0] == carried[1]


def test_claims_from_the_wheel_prints_what_the_checkout_prints(
    installed: Installed, project: Project, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    listed = installed.run("jaxwaits", "claims")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout == _in_checkout(monkeypatch, capsys, "claims")
    assert f"from the claims index packaged with jaxwaits {project.version}" in listed.stderr


def test_cite_from_the_wheel_prints_what_the_checkout_prints(
    installed: Installed, registry: Registry, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    claims = sorted(registry.claims.values(), key=lambda c: c.id)
    kinds = [
        claims[0],
        next((c for c in claims if c.releases), None),  # declares :since: or :until:
        next((c for c in claims if c.needs), None),  # another backend than CPU
        next((c for c in claims if c.renamed_from), None),  # cited by an old ID
    ]
    for claim in (c for c in kinds if c is not None):
        asked = claim.renamed_from[0] if claim.renamed_from else claim.id
        for latest in ((), ("--latest",)):
            cited = installed.run("jaxwaits", "cite", asked, *latest)
            assert cited.returncode == 0, cited.stderr
            assert cited.stdout == _in_checkout(monkeypatch, capsys, "cite", asked, *latest)


def test_cite_from_the_wheel_names_an_unknown_claim(installed: Installed) -> None:
    cited = installed.run("jaxwaits", "cite", "no-such-claim")
    assert cited.returncode == 2
    assert cited.stdout == ""
    assert "no claim 'no-such-claim'" in cited.stderr


def test_claims_in_a_checkout_without_jax_says_the_pieces_were_not_checked(
    installed: Installed, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Issue 37, point 12: the claims, then a traceback from the drift check (no JAX to check
    the vendored pieces against) and exit 1, as if a check had failed."""
    listed = installed.run("jaxwaits", "claims", cwd=installed.checkout)
    assert listed.stdout == _in_checkout(monkeypatch, capsys, "claims")  # every claim
    (said,) = listed.stderr.splitlines()
    assert said.startswith(
        "jaxwaits: the vendored pieces in annotated_src/ were not checked against JAX: "
        f"{installed.env}/bin/"
    ), said
    assert said.endswith(
        " has no jax package: install JAX there (pip install -e '.[jax]' in the checkout), or "
        "check with an interpreter that has it: python -m jaxwaits drift --python PATH; or make "
        "the pinned release's environment once, which is then used: nox -s verify -- "
        f"{Project(installed.checkout).pinned_jax()}"
    ), said
    assert listed.returncode == 2  # not known to hold, and not known to fail


WHERE = "from importlib import resources; print(resources.files('jaxwaits.chain') / 'claims.json')"


def test_a_damaged_index_in_the_installed_package_is_named_with_its_fix(
    installed: Installed, registry: Registry
) -> None:
    """Issue 37, points 4 and 11: a statement that is an object was cited as a link; a file cut
    short was named without its file or fix, one not UTF-8 was a traceback."""
    index = Path(installed.run("python", "-c", WHERE).stdout.strip())
    whole = index.read_bytes()
    claim_id = sorted(registry.claims)[0]
    statement = json.dumps(registry.claims[claim_id].statement, ensure_ascii=False).encode()
    try:
        for content, says in (
            (whole.replace(statement, b'{"text": "x"}', 1), f"claim {claim_id!r}: statement must"),
            (whole[: len(whole) // 2], "line"),
            (b"{\xff" + whole[1:], "byte 1 is not UTF-8"),
        ):
            index.write_bytes(content)
            cited = installed.run("jaxwaits", "cite", claim_id)
            assert (cited.returncode, cited.stdout) == (2, ""), cited.stderr
            (line,) = cited.stderr.splitlines()
            assert line.startswith(f"jaxwaits: {index}: the packaged claims index cannot be read")
            assert says in line and line.endswith(
                "; reinstall jaxwaits (pip install --force-reinstall jaxwaits)"
            )
    finally:
        index.write_bytes(whole)
