"""The GPU column: observations made where CI cannot run, known outputs per backend, the ledger
file judged from them, verdicts per backend and the backend axis taken from what ran."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from jaxwaits.chain import backends, cite, facts, verdicts
from jaxwaits.chain.standing import Ran, Standing, standing
from jaxwaits.chain.verdicts import ClaimVerdict, Elsewhere, Verdict
from jaxwaits.claims.registry import Claim
from jaxwaits.claims.scope import Scope
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import known, record
from jaxwaits.evidence.known import Classification, Known, KnownOutput
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.runner import Run, Via, judge
from jaxwaits.evidence.snippets import read_snippet
from jaxwaits.pieces.drift import PieceOutcome
from jaxwaits.project import Project
from jaxwaits.releases import ledger, observed, verify
from jaxwaits.releases.observed import Observed
from jaxwaits.sphinxext.sorted_claims import sorting_problems

GPU = Platform("0.11.2", "0.11.2", "3.12.3", "gpu", "NVIDIA H200", "580.159.04")
CPU = Platform("0.11.2", "0.11.2", "3.12.3", "cpu")
HOLDS, DIFFERS = ClaimVerdict(Verdict.HOLDS), ClaimVerdict(Verdict.HOLDS_OUTPUT_DIFFERS, "why")


def claim(backend: tuple[str, ...], rests_on: str | None = None) -> Claim:
    values = (("backend", backend),)
    return Claim("says", "It says.", ("a",), rests_on, (), Path("x.md"), 1, scope=Scope(values))


def run(stdout: str, via: Via = Via.TEMPLATE) -> Run:
    return Run(stdout, "", 0, 1.0, via=via)


def test_a_cpu_platform_keeps_its_ledger_text_and_a_gpu_one_says_where() -> None:
    assert set(CPU.as_dict()) == {"jax", "jaxlib", "python", "backend"}
    assert Platform(**GPU.as_dict()) == GPU
    assert GPU.describe().endswith("gpu (NVIDIA H200, driver 580.159.04)")


def test_known_outputs_are_kept_per_backend(tmp_path: Path) -> None:
    path = known.path_for(tmp_path, "a")
    found = Known(path).recorded("0.11.2", "cpu text\n").recorded("0.11.2", "gpu text\n", "gpu")
    known.save(found)
    again = known.load(tmp_path, "a")
    assert again.for_release("0.11.2").text == "cpu text\n"
    assert again.for_release("0.11.2", "gpu").text == "gpu text\n"
    assert again.releases() == {("0.11.2", "cpu"), ("0.11.2", "gpu")}
    assert 'backend = "gpu"' in path.read_text() and path.read_text().count("backend") == 1
    assert again.without("0.11.2", "gpu").releases() == {("0.11.2", "cpu")}
    path.write_text(path.read_text().replace('"gpu"', '"npu"'))
    with pytest.raises(JaxwaitsError, match=r"output 2\.backend: 'npu' is not one of"):
        known.load(tmp_path, "a")


def test_on_a_gpu_the_recorded_text_itself_can_be_kept_to_be_classified(tmp_path: Path) -> None:
    """A snippet that runs its work on CPU whatever the machine prints its recorded text on a
    GPU too: named when recorded there, it is kept, so that a maintainer says it shows nothing."""
    (tmp_path / "a.py").write_text("print('a')\n")
    (tmp_path / "a.out").write_text("a\n")
    snippet = read_snippet(tmp_path / "a.py")
    twice = judge(snippet, (run("a\n"), run("a\n", Via.FRESH)), "0.11.2", "gpu")
    lines, classified = record.apply([twice], GPU, known=True, backs={"a": ["says"]})
    assert not classified and "jax 0.11.2 on gpu recorded" in lines[0]
    output = known.load(tmp_path, "a").for_release("0.11.2", "gpu")
    assert output is not None and output.verdicts["says"].verdict == known.UNCLASSIFIED
    cpu = judge(snippet, (run("a\n"), run("a\n", Via.FRESH)), "0.11.2")
    lines, _ = record.apply([cpu], CPU, known=True)
    assert lines == ["a: prints its recorded output; no known difference kept"]


def project_with(tmp_path: Path, printed: dict[str, str]) -> Project:
    """A checkout of snippets that print their names, and observations of them on a GPU."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text("")
    (tmp_path / "snippets").mkdir()
    for name in printed:
        (tmp_path / "snippets" / f"{name}.py").write_text(f"print({name!r})\n")
        (tmp_path / "snippets" / f"{name}.out").write_text(f"{name}\n")
    project = Project(tmp_path)
    sources = {n: observed.source_hash(read_snippet(project.snippets / f"{n}.py")) for n in printed}
    runs = {n: (run(text), run(text, Via.FRESH)) for n, text in printed.items()}
    made = Observed(GPU, sources, runs, {"p": (PieceOutcome.IDENTICAL, "p: identical")}, "cmd")
    observed.save(made, observed.folder(project) / made.filename)
    return project


def test_observations_read_back_and_judge_into_the_ledger_file(tmp_path: Path) -> None:
    project = project_with(tmp_path, {"same": "same\n", "other": "on a gpu\n"})
    path = observed.folder(project) / "jax-0.11.2-gpu.json"
    made = observed.read(path)
    assert made == Observed.from_json(made.to_json()) and made.platform == GPU
    said: list[str] = []
    found = verify.judge_observed(project, made, {}, say=said.append)
    assert found.filename == "jax-0.11.2-gpu.json" and said == []
    assert found.snippets["same"].outcome is Outcome.MATCHED
    assert found.snippets["same"].same_when_fresh
    assert found.snippets["other"].outcome is Outcome.DIFFERS  # until recorded and classified
    assert found.pieces["p"].outcome is PieceOutcome.IDENTICAL
    recorded = verify.judge_observed(project, made, {"other": ["says"]}, {"other"}, said.append)
    assert recorded.snippets["other"].outcome is Outcome.MATCHED_KNOWN
    fingerprint = read_snippet(project.snippets / "other.py").fingerprint("0.11.2", backend="gpu")
    assert recorded.snippets["other"].fingerprint == fingerprint
    cpu_print = read_snippet(project.snippets / "other.py").fingerprint("0.11.2")
    assert fingerprint != cpu_print  # the GPU's known output is part of what was judged


def test_a_snippet_changed_since_it_was_observed_is_not_judged_on_it(tmp_path: Path) -> None:
    project = project_with(tmp_path, {"same": "same\n"})
    (project.snippets / "same.py").write_text("print('same')  # changed\n")
    said: list[str] = []
    made = observed.read(observed.folder(project) / "jax-0.11.2-gpu.json")
    found = verify.judge_observed(project, made, {}, say=said.append)
    assert found.snippets == {}
    assert said == [f"same: changed since it ran on {GPU.describe()}: run it there again"]


def test_an_observations_file_that_does_not_read_is_named(tmp_path: Path) -> None:
    project = project_with(tmp_path, {"same": "same\n"})
    path = observed.folder(project) / "jax-0.11.2-gpu.json"
    data = json.loads(path.read_text())
    del data["snippets"]["same"]["runs"]
    path.write_text(json.dumps(data))
    with pytest.raises(JaxwaitsError, match="not an observations file as verify writes it"):
        observed.read(path)
    again = tmp_path / "again"
    again.mkdir()
    moved = observed.folder(project_with(again, {"same": "same\n"}))
    (moved / "jax-0.11.2-gpu.json").rename(moved / "jax-0.12.0-gpu.json")
    with pytest.raises(JaxwaitsError, match=r"holds jax-0\.11\.2-gpu\.json; rename it"):
        observed.load(Project(again))


def test_the_gpu_ledger_is_what_its_committed_observations_judge_to(project: Project) -> None:
    """The build never runs a GPU: it judges the entries the observations made, and those must
    be the ones committed (a ledger file edited by hand, or judged before a known output was
    recorded, is caught here)."""
    made = observed.load(project)
    assert made, "no GPU observations are committed"
    backs = facts.registry(project).backs()
    for found in made:
        judged = verify.judge_observed(project, found, backs)
        saved = ledger.read_file(project.verified / judged.filename)
        assert replace(saved, recorded_on="") == judged
        assert judged.platform.device and judged.platform.driver


def test_the_backend_axis_is_what_ran() -> None:
    cpu_holds = {"0.11.2": HOLDS, "0.12.0": HOLDS}
    on_gpu = [Elsewhere("gpu", "0.11.2", "NVIDIA H200", HOLDS)]
    assert backends.problems(claim(("cpu", "gpu")), cpu_holds, on_gpu) == []
    [missing] = backends.problems(claim(("cpu",)), cpu_holds, on_gpu)
    assert "holds on GPU too: add gpu to its :backend:" in missing
    wrong = [Elsewhere("gpu", "0.11.2", "NVIDIA H200", ClaimVerdict(Verdict.DOES_NOT_HOLD, "no"))]
    [listed] = backends.problems(claim(("cpu", "gpu")), cpu_holds, wrong)
    assert "lists :backend: gpu, but on GPU it does not hold (no)" in listed
    assert backends.problems(claim(("cpu",)), cpu_holds, wrong) == []  # limited to CPU: said
    [nowhere] = backends.problems(claim(("cpu", "tpu")), cpu_holds, on_gpu[:0])
    assert "lists :backend: tpu, where the ledger has no run" in nowhere
    assert backends.problems(claim(("gpu",), rests_on="the source"), {}, []) == []
    [unsaid] = backends.problems(claim(("gpu",)), {}, [])
    assert "(or say what it rests on: :rests-on:)" in unsaid
    failing = [Elsewhere("gpu", "0.11.2", "NVIDIA H200", ClaimVerdict(Verdict.FAILS, "a: raised"))]
    [fails] = backends.problems(claim(("cpu",)), cpu_holds, failing)
    assert fails.startswith("claim says fails on GPU (NVIDIA H200, jax 0.11.2): a: raised")


def test_verdicts_elsewhere_are_said_beside_the_cpu_releases() -> None:
    on_gpu = [Elsewhere("gpu", "0.11.2", "NVIDIA H200", DIFFERS)]
    said = verdicts.summary({"0.11.2": HOLDS, "0.12.0": HOLDS}, on_gpu)
    assert said == (
        "holds on CPU 0.11.2 – 0.12.0; on GPU (NVIDIA H200, jax 0.11.2): holds, output differs"
    )
    link = cite.link(claim(("gpu",)), {}, "https://x/", on_gpu)
    assert "(limited to GPU; on GPU (NVIDIA H200, jax 0.11.2): holds, output differs)" in link
    nothing = cite.link(claim(("gpu",), rests_on="the source"), {}, "https://x/")
    assert "not verified: it needs gpu, which these checks do not run on" in nothing


def test_a_claim_about_a_gpu_says_what_its_run_there_showed() -> None:
    ran = (Ran("a", Outcome.MATCHED),)
    about = claim(("gpu",), rests_on="the source")
    on_gpu = [Elsewhere("gpu", "0.11.2", "NVIDIA H200", HOLDS)]
    seen = standing(about, ran, CPU, on_gpu)
    assert seen.standing is Standing.NEEDS_BACKEND
    assert seen.detail == (
        "cannot be shown on CPU, so not verified here; a recorded run on GPU (NVIDIA "
        "H200, jax 0.11.2): holds"
    )
    assert standing(about, ran, CPU).detail.endswith("; rests on the source")


def test_known_outputs_on_a_gpu_need_a_verdict_for_cpu_claims_too(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("print('a')\n")
    (tmp_path / "a.out").write_text("a\n")
    gpu_output = KnownOutput("A\n", ("0.11.2",), {}, "gpu")
    known.save(Known(known.path_for(tmp_path, "a"), (gpu_output,)))
    judge_ = verdicts.judge_for([read_snippet(tmp_path / "a.py")])
    cpu_claim = replace(claim(("cpu",)), id="on-cpu")
    [unsaid] = verdicts.unclassified(judge_, [cpu_claim])
    assert "the output of jax 0.11.2 on gpu says nothing for claim on-cpu" in unsaid
    said = {"on-cpu": Classification("not-observable", "one GPU")}
    known.save(Known(known.path_for(tmp_path, "a"), (replace(gpu_output, verdicts=said),)))
    judge_ = verdicts.judge_for([read_snippet(tmp_path / "a.py")])
    assert verdicts.unclassified(judge_, [cpu_claim]) == []


def test_a_sorting_of_the_claims_names_each_left_out_twice_or_unknown() -> None:
    assert sorting_problems(["a", "b"], ["a", "b"]) == []
    assert sorting_problems(["a", "a", "typo"], ["a", "b"]) == [
        "claim a is listed 2 times",
        "typo is no claim",
        "claim b is not listed",
    ]


def test_the_gpu_page_sorts_every_claim_once(project: Project) -> None:
    """Issue 38, point 1: a claim added to the site and not sorted on ``docs/gpu.md`` fails here
    (and the build), before anyone builds the site."""
    text = (project.docs / "gpu.md").read_text(encoding="utf-8")
    blocks = "".join(re.findall(r"^```\{claims-on\} gpu 0\.11\.2\n(.*?)^```", text, re.M | re.S))
    listed = re.findall(r"^- \{claim\}`(?:[^`<]*<)?([a-z0-9-]+)>?`", blocks, flags=re.MULTILINE)
    assert sorting_problems(listed, facts.registry(project).claims) == []


def test_a_release_that_prints_an_older_era_text_is_told_it_inherits_its_verdicts(
    tmp_path: Path,
) -> None:
    """A new release printing what releases long before it printed joins that output, and its
    verdicts (written for those releases) with it: the recording says so, naming the file. A
    release given an output of its own with the same text stays there when recorded again."""
    (tmp_path / "a.py").write_text("print('a')\n")
    (tmp_path / "a.out").write_text("a\n")
    snippet = read_snippet(tmp_path / "a.py")
    old = known.KnownOutput(
        "old\n",
        ("0.4.18", "0.4.31"),
        {"says": known.Classification("not-observable", "synchronous then")},
    )
    known.save(Known(known.path_for(tmp_path, "a"), (old,)))
    new = Platform(jax="0.12.1", jaxlib="0.12.1", python="3.13.0", backend="cpu")
    twice = judge(snippet, (run("old\n"), run("old\n", Via.FRESH)), "0.12.1")
    lines, classified = record.apply([twice], new, known=True, backs={"a": ["says"]})
    assert classified, lines
    assert "jax 0.12.1 printed what jax 0.4.18 – 0.4.31 printed" in "\n".join(lines)
    assert "a.toml" in "\n".join(lines)
    # the maintainer gives 0.12.1 an output of its own; recording it again keeps it there
    own = known.KnownOutput(
        "old\n", ("0.12.1",), {"says": known.Classification("does-not-hold", "now")}
    )
    known.save(Known(known.path_for(tmp_path, "a"), (old, own)))
    again = known.load(tmp_path, "a").recorded("0.12.1", "old\n")
    assert [o.releases for o in again.outputs] == [("0.4.18", "0.4.31"), ("0.12.1",)]
    lines, _ = record.apply([twice], new, known=True, backs={"a": ["says"]})
    assert not any("printed what" in line for line in lines), lines


def test_a_snippet_that_prints_otherwise_when_fresh_is_told_how_to_find_out_why(
    tmp_path: Path,
) -> None:
    """The one failure no known output can mend names what to run and what each answer means."""
    (tmp_path / "a.py").write_text("print('a')\n")
    (tmp_path / "a.out").write_text("a\n")
    snippet = read_snippet(tmp_path / "a.py")
    child = judge(snippet, (run("a\n"),), "0.12.1")
    fresh = judge(snippet, (run("b\n", Via.FRESH),), "0.12.1")
    entry = verify.snippet_entry(child, "0.12.1", ("says",), None)
    split = verify._both_ways(entry, child, fresh)
    assert split.outcome is Outcome.SPLIT
    assert "--repeat 5" in split.detail and "--fresh" in split.detail
    assert "test_snippets_can_fail.py" in split.detail
    assert verify._both_ways(entry, child, child).outcome is Outcome.MATCHED
