"""A matrix run verifies each release on its own: one that cannot be verified is reported as
that release's failure, and the others finish."""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.version import Version

from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.platform import Platform
from jaxwaits.project import Project
from jaxwaits.releases import matrix, verify
from jaxwaits.releases.environments import NotInstallable
from jaxwaits.releases.ledger import Verification


def _releases_where(monkeypatch: pytest.MonkeyPatch, fails: str, error: Exception) -> None:
    """Every release verifies (with nothing to check) but ``fails``, whose environment raises
    ``error``."""

    def ensure(version: Version, root: Path) -> str:
        if version == Version(fails):
            raise error
        return f"python-for-{version}"

    def verified(project: Project, python: str, *args: object) -> Verification:
        jax = python.removeprefix("python-for-")
        return Verification(Platform(jax=jax, jaxlib=jax, python="3.13", backend="cpu"))

    monkeypatch.setattr(verify.environments, "ensure", ensure)
    monkeypatch.setattr(verify, "verify", verified)


def test_a_release_whose_environment_cannot_be_made_fails_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failure = "uv pip install jax==0.4.30 failed: no wheel for this platform"
    _releases_where(monkeypatch, "0.4.30", JaxwaitsError(failure))
    said: list[str] = []
    versions = dict.fromkeys([Version("0.4.30"), Version("0.5.3"), Version("0.6.2")])
    found = matrix.run_matrix(Project(tmp_path), versions, {}, say=said.append)
    assert sorted(str(v) for v in found.verified) == ["0.5.3", "0.6.2"]
    assert list(found.not_verified) == [Version("0.4.30")]
    assert "no wheel for this platform" in found.not_verified[Version("0.4.30")]
    assert not found.passed
    assert any("jax 0.4.30: NOT verified: uv pip install" in line for line in said)
    assert said[-1].startswith("2 of 3 releases done in")
    assert sorted(p.name for p in (tmp_path / "docs" / "verified").iterdir()) == [
        "jax-0.5.3-cpu.json",
        "jax-0.6.2-cpu.json",
    ]


def test_a_release_that_does_not_install_is_recorded_and_fails_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failure = "jax 0.4.16 does not install: there is no version of jaxlib"
    _releases_where(monkeypatch, "0.4.16", NotInstallable(failure))
    said: list[str] = []
    versions = dict.fromkeys([Version("0.4.16"), Version("0.5.3")])
    found = matrix.run_matrix(Project(tmp_path), versions, {}, say=said.append)
    assert found.verified[Version("0.4.16")].verification.not_installable
    assert found.passed
    assert said[-1].startswith("2 of 2 releases done (1 not installable here) in")


def test_a_plan_cut_down_to_some_snippets_keeps_only_the_releases_that_run_them() -> None:
    planned = {"0.4.30": None, "0.5.3": frozenset({"a", "b"}), "0.6.2": frozenset({"c"})}
    assert matrix.only(planned, {"a", "c"}) == {
        "0.4.30": frozenset({"a", "c"}),
        "0.5.3": frozenset({"a"}),
        "0.6.2": frozenset({"c"}),
    }
    assert matrix.only(planned, {"b"}) == {"0.4.30": frozenset({"b"}), "0.5.3": frozenset({"b"})}
