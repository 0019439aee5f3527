"""The history in the manifest: how runs are formed, and that the committed one is current."""

import json
from dataclasses import replace
from pathlib import Path

from jaxwaits.pieces import manifest, upstream
from jaxwaits.pieces.manifest import Entry
from jaxwaits.project import Project, find_project
from jaxwaits.releases import provenance, wheels
from jaxwaits.releases.provenance import Found

PROJECT = find_project(Path(__file__).parent)
OLD, NEW = "def f():\n  pass\n", "def f():\n  return 1\n"


def found(text):
    return Found(True, upstream.LineSpan(1, 2), text) if text else Found(True)


def test_runs_group_equal_neighbours_and_name_the_successor():
    entry = Entry("m.f", "jax/_src/m.py", "f", release="3", successor="m.g")
    texts = {"1": None, "2": OLD, "3": NEW, "4": NEW, "5": None}
    runs = provenance.history(entry, list(texts), {v: found(t) for v, t in texts.items()})
    assert [(r.first, r.last, r.status.value, r.change, r.succeeded_by) for r in runs] == [
        ("1", "1", "absent", "not yet in jax/_src/m.py", ""),
        ("2", "2", "differs", "+1/-1 lines", ""),
        ("3", "4", "identical", "", ""),
        ("5", "5", "absent", "removed from jax/_src/m.py", "m.g"),
    ]
    assert "-  return 1\n+  pass\n" in runs[1].diff


def test_a_why_is_kept_while_its_text_is_the_same():
    entry = Entry("m.f", "f.py", "f", release="3")
    texts = {"1": OLD, "2": NEW, "3": NEW}
    runs = provenance.history(entry, list(texts), {v: found(t) for v, t in texts.items()})
    entry = manifest.with_history(entry, (1, 2), manifest.sha256(NEW), runs)
    written = replace(entry, history=(replace(runs[0], why="Because."), runs[1]))
    again = manifest.with_history(written, (1, 2), manifest.sha256(NEW), runs)
    assert [run.why for run in again.history] == ["Because.", ""]


def test_the_committed_manifest_is_what_the_wheels_contain():
    """Recompute every history from the cached wheels; the committed manifest must equal it.

    Needs the wheels of every release in ``.cache/jax-wheels/``: ``python -m jaxwaits provenance``
    downloads them. A JAX released since is not the checkout's fault: the releases the manifest
    lists are the ones read.
    """
    try:
        computed, _ = provenance.compute(PROJECT, offline=True, recorded_only=True)
    except wheels.CacheMissing as missing:
        raise AssertionError(str(missing)) from None
    committed = (PROJECT.annotated_src / manifest.FILE).read_text(encoding="utf-8")
    assert manifest.dumps(computed) == committed, (
        "annotated_src/manifest.toml is out of date; python -m jaxwaits provenance --check shows"
        " the difference"
    )


def test_a_release_newer_than_the_manifest_is_named_not_a_fault(tmp_path):
    """A JAX published since the manifest was written is news for the maintainer, not a broken
    checkout: the check reads only the releases the manifest lists, and names the newer ones."""
    (tmp_path / "annotated_src").mkdir()
    listed = PROJECT.annotated_src / manifest.FILE
    (tmp_path / "annotated_src" / manifest.FILE).write_text(listed.read_text(encoding="utf-8"))
    recorded = manifest.load(PROJECT.annotated_src)
    newest = recorded.releases[-1]
    releases = [*recorded.releases[-2:], f"{newest}.99", "99.0.0"]
    cache = wheels.cache_folder(tmp_path)
    cache.mkdir(parents=True)
    entries = [
        {"version": v, "filename": f"jax-{v}.whl", "url": "", "sha256": "", "yanked": False}
        for v in releases
    ]
    (cache / wheels.INDEX_FILE).write_text(json.dumps(entries), encoding="utf-8")
    project = Project(tmp_path)
    assert provenance.unrecorded(project, offline=True) == [f"{newest}.99", "99.0.0"]
