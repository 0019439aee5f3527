"""A maintainer brings the site to a new JAX release with the README's commands alone: each step
says what to run next, a ledger entry judged against an older manifest is stale, and the release
note drafted from the ledger is one the build accepts.

The flow runs on a copy set back one release (its pin, its ledger file and its manifest), and
the release taken away plays the new one. Its snippets' runs are replayed from the committed
ledger file (the snippet tests run them); its vendored pieces are checked for real against the
JAX installed here, which is the pinned release."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from copies import copy_project

from jaxwaits import cli
from jaxwaits.chain import changes, facts, notes, problems
from jaxwaits.pieces import drift, manifest, vendored
from jaxwaits.project import Project
from jaxwaits.releases import environments, index, ledger, matrix, provenance, verify, wheels
from jaxwaits.releases.ledger import Verification

ROOT = Path(__file__).resolve().parent.parent


def _set_back(root: Path) -> tuple[str, str]:
    """Make the copy at ``root`` what it was before the pinned release came out (the one
    installed here, whose pieces can be checked for real): the pin on the release before it,
    no ledger file and no manifest entry for it or any later one. Returns (previous, newest)."""
    project = Project(root)
    recorded = manifest.load(project.annotated_src)
    newest = project.pinned_jax()
    previous = recorded.releases[recorded.releases.index(newest) - 1]
    releases = recorded.releases[: recorded.releases.index(newest) + 1]
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.replace(f"=={newest}", f"=={previous}"), encoding="utf-8")
    for later in recorded.releases[len(releases) - 1 :]:
        (project.verified / f"jax-{later}-cpu.json").unlink(missing_ok=True)
    cache = wheels.cache_folder(root)
    cache.mkdir(parents=True)
    ours = wheels.cache_folder(ROOT)
    listed = json.loads((ours / wheels.INDEX_FILE).read_text(encoding="utf-8"))
    kept = [r for r in listed if r["version"] in releases]
    (cache / wheels.INDEX_FILE).write_text(json.dumps(kept), encoding="utf-8")
    for entry in kept:
        (cache / entry["filename"]).symlink_to(ours / entry["filename"])
    # the manifest as the release before wrote it: the pieces copied from it (their text is the
    # same on both: no piece changed at the newest release) and the releases up to it
    pieces = {
        name: replace(e, release=previous) if e.release == newest else e
        for name, e in recorded.pieces.items()
    }
    older = manifest.Manifest(recorded.first, releases[:-1], [], pieces)
    (project.annotated_src / manifest.FILE).write_text(manifest.dumps(older), encoding="utf-8")
    set_back = [r for r in kept if r["version"] != newest]
    (cache / wheels.INDEX_FILE).write_text(json.dumps(set_back), encoding="utf-8")
    computed, texts = provenance.compute(project, offline=True)
    provenance.write(project, computed, texts)
    (cache / wheels.INDEX_FILE).write_text(json.dumps(kept), encoding="utf-8")
    return previous, newest


def _command(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture
def set_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Project, str, str]:
    if not (wheels.cache_folder(ROOT) / wheels.INDEX_FILE).exists():
        pytest.fail(f"no wheel cache in {wheels.cache_folder(ROOT)}: {wheels.FILL_COMMAND}")
    copy_project(tmp_path, ("docs", "snippets", "annotated_src"))
    previous, newest = _set_back(tmp_path)
    committed = ledger.read_file(ROOT / "docs" / "verified" / f"jax-{newest}-cpu.json")

    def replayed(project: Project, python: str, *args: object, **kwargs: object) -> Verification:
        _, checked = drift.check(project, python)
        pieces = {c.piece: ledger.PieceEntry(c.outcome, c.message) for c in checked}
        return Verification(committed.platform, dict(committed.snippets), pieces)

    monkeypatch.setattr(verify, "verify", replayed)
    monkeypatch.setattr(environments, "ensure", lambda version, root: sys.executable)
    monkeypatch.setattr(index, "newest_jax", lambda: index.Version(newest))
    monkeypatch.chdir(tmp_path)
    return Project(tmp_path), previous, newest


def test_a_new_release_from_the_readme_each_step_naming_the_next(set_back, capsys) -> None:
    project, previous, newest = set_back
    installed = drift.installed(sys.executable).version
    if installed != newest:
        pytest.skip(f"needs the pinned jax {newest} installed here (found {installed})")

    # 1. verify-latest: the pieces the manifest does not know yet fail, naming the fix
    code, said = _command(capsys, "verify-latest")
    assert code == 1, said
    assert "provenance --refresh" in said and "nox -s verify-latest" in said, said
    assert "nothing changed upstream" in said, said  # not "unrecorded change" alone
    entry = ledger.read_file(project.verified / f"jax-{newest}-cpu.json")
    assert not entry.passed

    # 2. provenance: the manifest learns the release, and names the entry it makes stale
    code, said = _command(capsys, "provenance", "--offline")
    assert code == 0, said
    assert f"jax-{newest}-cpu.json" in said and "nox -s verify-latest" in said, said
    assert manifest.load(project.annotated_src).releases[-1] == newest
    assert matrix.stale(project, entry) == frozenset()  # the pieces alone, no snippet to run
    code, said = _command(capsys, "matrix", "--stale", "--list")
    assert json.loads(said.strip().splitlines()[-1]) == [newest], said

    # 3. verify-latest again: it sees the stale entry, judges it again, and says what is next
    code, said = _command(capsys, "verify-latest")
    assert code == 0, said
    assert "stale" in said, said
    assert f"from jax=={previous} to jax=={newest}" in said, said  # every snippet matched
    assert "no release note is wanted" in said, said  # nothing changed at this release
    assert ledger.read_file(project.verified / f"jax-{newest}-cpu.json").passed

    # 4. nothing is left to do
    code, said = _command(capsys, "verify-latest")
    assert code == 0 and "current: nothing to verify" in said, said
    code, said = _command(capsys, "matrix", "--stale", "--list")
    assert json.loads(said.strip().splitlines()[-1]) == [], said


def test_an_entry_judged_against_an_older_manifest_is_stale() -> None:
    """The committed ledger, against a manifest that no longer lists its newest release: that
    release's entry found its pieces as recorded, which the manifest no longer says."""
    project = Project(ROOT)
    recorded = manifest.load(project.annotated_src)
    newest = recorded.releases[-1]
    entry = ledger.read_file(project.verified / f"jax-{newest}-cpu.json")
    assert ledger.stale_pieces(recorded, entry) == []
    older = manifest.Manifest(recorded.first, recorded.releases[:-1], [], recorded.pieces)
    stale = ledger.stale_pieces(older, entry)
    assert stale, "a piece not identical upstream on the newest release"
    assert all(says is drift.PieceOutcome.IDENTICAL for _, _, says in stale)
    said = ledger.disagreements(older, [entry], "docs/verified")
    assert all("stale" in line and f"nox -s verify -- {newest}" in line for line in said)


def test_a_piece_on_a_release_the_manifest_does_not_list_names_the_fix() -> None:
    project = Project(ROOT)
    recorded = manifest.load(project.annotated_src)
    absent = [
        (name, entry)
        for name, entry in recorded.pieces.items()
        if entry.history[-1].status is manifest.TextState.ABSENT
    ]
    assert absent, "a piece absent upstream on the newest release"
    name, entry = absent[0]
    piece = vendored.read(project.annotated_src / f"{name}{vendored.SUFFIX}")
    newest = recorded.releases[-1]
    check = drift.check_piece(entry, piece, "99.0.0", None, None, name, newest)
    assert check.outcome is drift.PieceOutcome.UNRECORDED_CHANGE
    assert f"does not list jax 99.0.0 (its newest release is {newest})" in check.message
    assert "nothing changed upstream" in check.message
    assert "provenance --refresh" in check.message and "verify-latest" in check.message
    # a text that is new upstream keeps its diff, and is told to record the release too
    changed = drift.check_piece(entry, piece, "99.0.0", piece.upstream + "# new\n", None, name)
    assert "provenance --refresh" in changed.message and "nothing changed" not in changed.message


def test_the_drafted_note_is_one_the_build_accepts() -> None:
    """Each release where the ledger shows a change: the draft cites every change with the
    role the build checks, and the build's own judge accepts each citation and the note."""
    found = facts.load(Project(ROOT))
    changed = [change for change in changes.changes(found) if change]
    assert changed
    for change in changed:
        draft = notes.draft(found, change.release)
        assert f"{{release-note}} {change.release}" in draft
        cited = re.findall(r"\{changed-in\}`([^ `]+) <([^>]+)>`", draft)
        facts_named = len(change.claims) + len(change.snippets) + len(change.pieces)
        assert len(cited) == facts_named, draft
        for release, target in cited:
            assert changes.boundary_problem(found, release, target) is None, (release, target)
        note = problems.ReleaseNote("docs/changes.md:1", change.release, tuple(r for r, _ in cited))
        about = [p for p in problems._notes(found, (note,)) if p.where == note.where]
        assert about == [], about  # (the other releases' notes are missing here, and said so)
    quiet = next(c for c in changes.changes(found) if not c)
    assert "no release note is wanted" in notes.draft(found, quiet.release)


@pytest.mark.parametrize("release", ["0.12.1\n::error file=x::forged", "--upload-pack=x", ""])
def test_release_note_refuses_a_name_that_is_no_release(release: str, capsys) -> None:
    """One line on stderr, the name escaped (no newline of its own reaches a log), exit 2."""
    code, said = _command(capsys, "release-note", "--", release)
    assert code == 2, said
    assert said.count("\n") == 1 and repr(release) in said, said
