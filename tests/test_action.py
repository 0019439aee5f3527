"""The GitHub Action (``action.yml``, its logic in ``.github/action/review.py``), tried without
GitHub: a temporary git repository with a base and changes (a harness with a mistake, a clean
file, deleted files, a name with a space), the environment a runner sets for a pull request or a
push, and the script run as the action's steps run it. Its log is read as the runner reads it,
for workflow commands: a pull request's file names and a hostile event run none. Also:
``action.yml`` declares every input it uses and uses every input it declares, and its steps call
the script."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib import parse

import jsonschema
import pytest
import yaml
from conftest import ROOT

from harnesscheck import sources
from jaxwaits import cli

SCRIPT = ROOT / ".github" / "action" / "review.py"
ACTION = ROOT / "action.yml"
SARIF_SCHEMA = ROOT / "tests" / "data" / "sarif-schema-2.1.0.json"

HEAD = """\
import time
import jax
import jax.numpy as jnp

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))
step(x).block_until_ready()
t0 = time.perf_counter()
y = step(x)
"""
WRONG = HEAD + "elapsed = time.perf_counter() - t0\n"  # JW101 on line 10: not waited on
WRONG_LINE = 10
RIGHT = HEAD + "total = float(y.sum())\nelapsed = time.perf_counter() - t0\n"
TIMED = "bench/timed step.py"  # a name with a space, changed with a mistake


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """base: a harness with a mistake that no later commit touches (kept.py), files to delete
    (old.py, gone.md), a file to fix (clean.py), data; c1: the timed file with a mistake, clean.py
    made right, old.py deleted; c2: only data changed and gone.md deleted (nothing to review)."""
    repo = tmp_path_factory.mktemp("action") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "test")
    git(repo, "config", "user.email", "test@example.com")
    (repo / "bench").mkdir()
    (repo / "bench" / "kept.py").write_text(WRONG)
    (repo / "old.py").write_text(WRONG)
    (repo / "gone.md").write_text(f"```python\n{WRONG}```\n")
    (repo / "clean.py").write_text(WRONG)
    (repo / "data.txt").write_text("1\n")
    base = commit(repo, "base")
    (repo / TIMED).write_text(WRONG)
    (repo / "clean.py").write_text(RIGHT)
    (repo / "old.py").unlink()
    c1 = commit(repo, "c1")
    (repo / "data.txt").write_text("2\n")
    (repo / "gone.md").unlink()
    c2 = commit(repo, "c2")
    return {"repo": repo, "base": base, "c1": c1, "c2": c2}


def run_action(
    checkout: Path, tmp_path: Path, event: str, payload: dict, base_ref: str = "main", **inputs: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, str], str]:
    """The review step as the runner runs it: its outputs and step summary read back."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "JAXWAITS_"))}
    event_path = tmp_path / "event.json"
    event_path.write_text(json.dumps(payload))
    (tmp_path / "runner").mkdir(exist_ok=True)
    env.update(
        GITHUB_EVENT_NAME=event,
        GITHUB_EVENT_PATH=str(event_path),
        GITHUB_OUTPUT=str(tmp_path / "output"),
        GITHUB_STEP_SUMMARY=str(tmp_path / "summary.md"),
        GITHUB_SHA=subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=checkout, capture_output=True, text=True
        ).stdout.strip(),
        RUNNER_TEMP=str(tmp_path / "runner"),
        JAXWAITS_PYTHON=sys.executable,  # the installed tool: here, this checkout's
        PYTHONPATH=str(ROOT / "src"),
    )
    if event in ("pull_request", "pull_request_target"):
        env["GITHUB_BASE_REF"] = base_ref
    env.update({f"JAXWAITS_{name.upper()}": value for name, value in inputs.items()})
    for name in ("output", "summary.md"):
        (tmp_path / name).write_text("")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "review"], cwd=checkout, env=env, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    outputs = read_outputs((tmp_path / "output").read_text())
    return done, outputs, (tmp_path / "summary.md").read_text()


def read_outputs(text: str) -> dict[str, str]:
    """GITHUB_OUTPUT as the runner reads it: ``name<<DELIMITER``, the value, the delimiter."""
    outputs, lines = {}, iter(text.splitlines())
    for line in lines:
        name, delimiter = line.split("<<")
        value = []
        for line in lines:
            if line == delimiter:
                break
            value.append(line)
        outputs[name] = "\n".join(value)
    return outputs


def reviewed(done: subprocess.CompletedProcess[str]) -> list[str]:
    """The paths the script said it reviews (an indented line each, after its count, in a region
    where the runner reads no command)."""
    lines = done.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if " to review (" in line)
    if start + 1 == len(lines) or not lines[start + 1].startswith("::stop-commands::"):
        return []
    end = lines.index(f"::{lines[start + 1].removeprefix('::stop-commands::')}::", start)
    listed = lines[start + 2 : end]
    assert all(line.startswith("  ") for line in listed), listed
    return [line[2:] for line in listed]


def workflow_command(line: str) -> tuple[str, dict[str, str], str] | None:
    """A line of the log as the runner parses it (actions/runner, ActionCommand.TryParseV2 then
    TryParse): ``::name key=value,...::data`` after leading blanks, or ``##[name ...]data``
    anywhere in it; its name, properties (unescaped) and data, or None when it is no command."""
    text = line.lstrip()
    if text.startswith("::") and (end := text.find("::", 2)) >= 0:
        name, _, listed = text[2:end].partition(" ")
        pairs = [pair.split("=", 1) for pair in listed.strip().split(",") if "=" in pair]
        return name, {key: unescape_property(value) for key, value in pairs}, text[end + 2 :]
    if (start := line.find("##[")) >= 0 and (end := line.find("]", start)) >= 0:
        return line[start + 3 : end].partition(" ")[0], {}, line[end + 1 :]
    return None


def unescape_property(value: str) -> str:
    for escaped, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        value = value.replace(escaped, char)
    return value


def runner_reads(stdout: str) -> list[tuple[str, dict[str, str], str]]:
    """The workflow commands the runner takes from a step's log: a line at a time, none between
    ``::stop-commands::TOKEN`` and ``::TOKEN::``. Every region is the script's own (a fresh
    token) and ends."""
    commands, token = [], None
    for line in stdout.split("\n"):
        command = workflow_command(line)
        if command is None:
            continue
        name, _, data = command
        if token is not None:
            if name.lower() == token.lower():
                token = None
        elif name.lower() == "stop-commands":
            assert re.fullmatch(r"[0-9a-f]{32}", data), f"stopped by the log: {line!r}"
            token = data
        else:
            commands.append(command)
    assert token is None, "the log leaves commands stopped"
    return commands


def stopped(stdout: str) -> list[str]:
    """The text of each region of the log where the runner reads no command."""
    regions = re.finditer(r"^::stop-commands::(\w+)\n(.*?)\n::\1::$", stdout, re.M | re.S)
    return [region[2] for region in regions]


def one_error(done: subprocess.CompletedProcess[str], outputs: dict[str, str]) -> str:
    """The step failed with exit 2, said so in its exit-code output, and its log has one
    command, an error on one line: its message."""
    assert done.returncode == 2 and outputs.get("exit-code") == "2", done.stdout + done.stderr
    commands = runner_reads(done.stdout)
    assert [(name, properties) for name, properties, _ in commands] == [
        ("error", {"title": "jaxwaits review"})
    ], done.stdout
    assert "\n" not in commands[0][2] and "Traceback" not in done.stderr
    return commands[0][2]


def sarif_results(outputs: dict[str, str]) -> list[tuple[str, str, int]]:
    sarif = json.loads(Path(outputs["sarif-file"]).read_text())
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text())).validate(sarif)
    return [
        (
            result["ruleId"],
            parse.unquote(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]),
            result["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for result in sarif["runs"][0]["results"]
    ]


def pull_request(history: dict, base: str = "") -> dict:
    return {"pull_request": {"base": {"sha": base or history["base"]}, "head": {"sha": "0" * 40}}}


def test_a_pull_request_reviews_what_it_changed(history: dict, tmp_path: Path) -> None:
    done, outputs, summary = run_action(
        history["repo"], tmp_path, "pull_request", pull_request(history)
    )
    # Changed and there: the timed file (a space in its name) and clean.py; not kept.py (a
    # mistake, unchanged), old.py and gone.md (deleted), data.txt (not reviewable)
    assert sorted(reviewed(done)) == [TIMED, "clean.py"], done.stdout
    assert done.returncode == 1, done.stdout + done.stderr
    assert outputs["exit-code"] == "1" and outputs["files"] == "2"
    assert Path(outputs["root"]) == history["repo"]
    assert sarif_results(outputs) == [("JW101", TIMED, WRONG_LINE)]
    [(name, properties, _)] = runner_reads(done.stdout)
    assert name == "warning" and properties["file"] == TIMED, done.stdout
    assert properties["line"] == str(WRONG_LINE) and properties["title"].startswith("JW101 ")
    assert f"{TIMED}:{WRONG_LINE}:1 JW101" in done.stdout  # the text report in the log
    assert "**jaxwaits review**: 1 finding in 2 files." in summary
    assert f"### `{TIMED}`" in summary


def test_findings_need_not_fail_the_step(history: dict, tmp_path: Path) -> None:
    done, outputs, _ = run_action(
        history["repo"], tmp_path, "pull_request", pull_request(history), fail_on_findings="false"
    )
    assert done.returncode == 0 and outputs["exit-code"] == "1"
    assert "not failing the step (fail-on-findings is false)" in done.stdout
    assert sarif_results(outputs) == [("JW101", TIMED, WRONG_LINE)]  # still uploaded


def test_a_push_is_compared_with_the_commit_before_it(history: dict, tmp_path: Path) -> None:
    """A push of c1 and c2 reviews what c1 changed; a push of c2 alone, only data and a deleted
    page, has nothing to review: success, said so, no SARIF to upload."""
    done, outputs, _ = run_action(history["repo"], tmp_path, "push", {"before": history["base"]})
    assert sorted(reviewed(done)) == [TIMED, "clean.py"] and done.returncode == 1
    done, outputs, summary = run_action(
        history["repo"], tmp_path, "push", {"before": history["c1"]}
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no changed .py, .ipynb, .md files to review" in done.stdout
    assert outputs == {
        "root": str(history["repo"]),
        "files": "0",
        "exit-code": "0",
        "sarif-file": "",
    }
    assert "nothing to do" in summary
    assert not runner_reads(done.stdout)


def test_a_new_branch_is_its_last_commit(history: dict, tmp_path: Path) -> None:
    done, _, _ = run_action(history["repo"], tmp_path, "push", {"before": "0" * 40})
    assert reviewed(done) == [] and done.returncode == 0  # c2 against c1
    assert "a new branch" in done.stdout


def test_an_event_without_a_base_reviews_every_tracked_file(history: dict, tmp_path: Path) -> None:
    done, outputs, _ = run_action(history["repo"], tmp_path, "workflow_dispatch", {})
    assert sorted(reviewed(done)) == ["bench/kept.py", TIMED, "clean.py"]
    assert sorted(sarif_results(outputs)) == [
        ("JW101", "bench/kept.py", WRONG_LINE),
        ("JW101", TIMED, WRONG_LINE),
    ]


@pytest.fixture
def origin(history: dict, tmp_path: Path) -> Path:
    """The repository on GitHub: the pull request's branch (c2) and its base branch, which has
    moved on since the branch left it (a new harness with a mistake, main_only.py, and an edit
    of bench/kept.py), and the merge of the two that GitHub makes (refs/pull/N/merge)."""
    origin = tmp_path / "origin"
    git(tmp_path, "clone", "-q", str(history["repo"]), str(origin))
    git(origin, "config", "user.name", "test")
    git(origin, "config", "user.email", "test@example.com")
    git(origin, "checkout", "-q", "-b", "target", history["base"])
    (origin / "main_only.py").write_text(WRONG)
    (origin / "bench" / "kept.py").write_text(WRONG + "# edited on the base\n")
    commit(origin, "the base moves on")
    git(origin, "checkout", "-q", "-b", "pull-merge")
    git(origin, "merge", "-q", "--no-ff", "-m", "Merge into target", history["c2"])
    git(origin, "branch", "-q", "feature", history["c2"])
    return origin


def shallow_clone(origin: Path, branch: str, into: Path) -> Path:
    """As actions/checkout clones: one commit deep."""
    git(into.parent, "clone", "-q", "--depth=1", "-b", branch, f"file://{origin}", str(into))
    assert git(into, "rev-parse", "--is-shallow-repository") == "true"
    return into


def test_a_shallow_checkout_of_the_merge_commit(
    history: dict, origin: Path, tmp_path: Path
) -> None:
    """actions/checkout's default for a pull request: the merge, one commit deep; the event's
    base.sha is where the branch left (the base has moved on since): the merge commit's own
    change is the pull request's, compared with the merge's first parent, fetched."""
    checkout = shallow_clone(origin, "pull-merge", tmp_path / "checkout")
    event = {"pull_request": {"base": {"sha": history["base"]}, "head": {"sha": history["c2"]}}}
    done, outputs, _ = run_action(checkout, tmp_path, "pull_request", event)
    assert sorted(reviewed(done)) == [TIMED, "clean.py"], done.stdout + done.stderr
    assert "merge commit against its base" in done.stdout
    assert sarif_results(outputs) == [("JW101", TIMED, WRONG_LINE)]


def test_a_shallow_checkout_of_the_head_finds_where_it_left_the_base(
    origin: Path, tmp_path: Path
) -> None:
    """The head checked out (ref: head.sha), one commit deep, and no base commit in the event:
    origin/$GITHUB_BASE_REF is fetched, and the history until the two meet, so that what the
    base did since (main_only.py, bench/kept.py) is not reviewed and what the branch did is."""
    checkout = shallow_clone(origin, "feature", tmp_path / "checkout")
    done, outputs, _ = run_action(
        checkout, tmp_path, "pull_request", {"pull_request": {}}, base_ref="target"
    )
    assert sorted(reviewed(done)) == [TIMED, "clean.py"], done.stdout + done.stderr
    assert "the pull_request against target" in done.stdout
    assert "no common history" not in done.stdout  # found, fetching deeper
    assert sarif_results(outputs) == [("JW101", TIMED, WRONG_LINE)]


def test_paths_args_and_format(history: dict, tmp_path: Path) -> None:
    repo = history["repo"]
    kept = "bench/kept.py\n\n"  # one a line; blank lines ignored
    done, outputs, _ = run_action(repo, tmp_path, "pull_request", pull_request(history), paths=kept)
    assert reviewed(done) == ["bench/kept.py"] and done.returncode == 1
    assert sarif_results(outputs) == [("JW101", "bench/kept.py", WRONG_LINE)]
    done, outputs, _ = run_action(
        repo, tmp_path, "pull_request", pull_request(history), args="--select JW102"
    )
    assert done.returncode == 0 and outputs["exit-code"] == "0"
    assert sarif_results(outputs) == []
    done, _, _ = run_action(repo, tmp_path, "pull_request", pull_request(history), format="json")
    report = json.loads(stopped(done.stdout)[-1])
    assert [f["code"] for f in report["findings"]] == ["JW101"]
    done, _, _ = run_action(repo, tmp_path, "pull_request", pull_request(history), format="github")
    assert [name for name, _, _ in runner_reads(done.stdout)] == ["warning"]


def test_errors_fail_the_step_whatever_the_inputs(history: dict, tmp_path: Path) -> None:
    repo = history["repo"]
    done, outputs, _ = run_action(
        repo, tmp_path, "pull_request", pull_request(history), args="--select NOPE",
        fail_on_findings="false",
    )  # fmt: skip
    assert done.returncode == 2 and outputs["exit-code"] == "2" and outputs["sarif-file"] == ""
    assert "names no rule" in stopped(done.stdout)[1]  # after the paths listed
    broken = tmp_path / "broken.py"
    broken.write_text("def (:\n")
    done, outputs, _ = run_action(repo, tmp_path, "push", {}, paths=str(broken))
    assert done.returncode == 2 and outputs["exit-code"] == "2"
    assert sarif_results(outputs) == []  # the SARIF says why, as a notification
    assert "::error::" in done.stdout
    done, _, _ = run_action(repo, tmp_path, "pull_request", pull_request(history), format="xml")
    assert done.returncode == 2 and "format 'xml' is not one of" in done.stdout
    done, _, _ = run_action(tmp_path, tmp_path, "pull_request", pull_request(history))
    assert done.returncode == 2 and "is not a git checkout" in done.stdout


def test_the_suffixes_are_the_reviews() -> None:
    script = SCRIPT.read_text()
    suffixes = re.search(r"^SUFFIXES = (\(.*?\))", script, re.M)
    assert suffixes and set(eval(suffixes.group(1))) == sources.SUFFIXES


def test_install_chooses_the_checkout_or_a_release() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("action_review", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.requirement("", "/runner/_actions/jax-waits/v0.1.0") == (
        "/runner/_actions/jax-waits/v0.1.0"
    )
    assert module.requirement("0.1.0", "/a") == module.requirement("v0.1.0", "/a")
    assert module.requirement("0.1.0", "/a") == "jaxwaits==0.1.0"
    assert module.requirement("latest", "/a") == "jaxwaits"


def test_action_yml_declares_what_it_uses_and_calls_the_script() -> None:
    action = yaml.safe_load(ACTION.read_text())
    text = ACTION.read_text()
    declared = set(action["inputs"])
    used = set(re.findall(r"\$\{\{[^}]*?\binputs\.([\w-]+)", text))
    assert used == declared, f"used, not declared: {used - declared}; unused: {declared - used}"
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    script = SCRIPT.relative_to(ROOT).as_posix()
    runs = {step.get("id"): step for step in steps if "run" in step}
    assert set(runs) == {"install", "review"}
    for name, step in runs.items():
        assert step["run"] == f'python3 "$JAXWAITS_ACTION_PATH/{script}" {name}', name
        assert step["env"]["JAXWAITS_ACTION_PATH"] == "${{ github.action_path }}"
        assert "${{" not in step["run"]  # inputs reach the script through env, not the shell
    # Every variable the script reads is set by the step that runs it, and no other
    read = set(re.findall(r"\"(JAXWAITS_\w+)\"", SCRIPT.read_text()))
    set_by_steps = set(runs["install"]["env"]) | set(runs["review"]["env"])
    assert read == set_by_steps, (read, set_by_steps)
    # Every step output the action reads is one the script writes
    written = set(re.findall(r"set_output\(\"([\w-]+)\"", SCRIPT.read_text()))
    for step_id, name in re.findall(r"steps\.(\w+)\.outputs\.([\w-]+)", text):
        assert name in written, (step_id, name)
    upload = [step for step in steps if "upload-sarif" in step.get("uses", "")]
    assert len(upload) == 1 and "inputs.upload-sarif == 'true'" in upload[0]["if"]
    assert upload[0]["with"]["sarif_file"] == "${{ steps.review.outputs.sarif-file }}"
    assert "!cancelled()" in upload[0]["if"]  # uploaded when findings failed the review step


# --- hostile input: a pull request's file names and a forged event ---------------------------

# Names a pull request can add: a line break and a command in one, or a command at the start of
# a printed line, in either of the runner's syntaxes; and a name that needs its property escaped
HOSTILE = (
    "evil\n::stop-commands::pwned\n.py",
    "::warning::at the start.py",
    "forged\n::error file=forged.py,line=1::forged\n.py",
    "old ##[error]syntax.py",
    "a,b:c%0A.py",
)
GITLINK = "gone\n::error::left out.py"  # a submodule: changed, reviewable by name, not a file


@pytest.mark.parametrize("form", ["text", "markdown", "github", "sarif", "json"])
def test_file_names_run_no_workflow_command(tmp_path: Path, form: str) -> None:
    """A pull request adds files whose names hold workflow commands: the log lists them, one a
    line, and reports them, and the runner reads in it only the github format's annotations,
    one for each file's mistake, the file named as it is."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "test")
    git(repo, "config", "user.email", "test@example.com")
    (repo / "data.txt").write_text("1\n")
    base = commit(repo, "base")
    for name in HOSTILE:
        (repo / name).write_text(WRONG)
    git(repo, "add", "-A")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{base},{GITLINK}")
    git(repo, "commit", "-q", "-m", "hostile names")
    event = {"pull_request": {"base": {"sha": base}, "head": {"sha": "0" * 40}}}
    (tmp_path / "step").mkdir()
    done, outputs, _ = run_action(repo, tmp_path / "step", "pull_request", event, format=form)
    annotations = runner_reads(done.stdout)
    assert {
        (name, properties["file"], properties["line"]) for name, properties, _ in annotations
    } == {("warning", name, str(WRONG_LINE)) for name in HOSTILE}, done.stdout
    assert len(annotations) == len(HOSTILE)
    assert done.returncode == 1 and outputs["exit-code"] == "1", done.stdout + done.stderr
    assert sorted(reviewed(done)) == sorted(name.replace("\n", "\\n") for name in HOSTILE)
    assert "jaxwaits review: gone\\n::error::left out.py is not in the checkout" in done.stdout


@pytest.mark.parametrize(
    ("event", "payload", "field"),
    [
        (
            "pull_request",
            lambda bad: {"pull_request": {"base": {"sha": bad}}},
            "pull_request.base.sha",
        ),
        ("push", lambda bad: {"before": bad}, "before"),
        ("merge_group", lambda bad: {"merge_group": {"base_sha": bad}}, "merge_group.base_sha"),
    ],
)
def test_an_event_base_is_never_a_git_option(
    origin: Path, tmp_path: Path, event: str, payload: object, field: str
) -> None:
    """A base that git would read as an option (it would run the command, fetching a base the
    shallow checkout lacks): refused, named, before git sees it; nothing runs."""
    checkout = shallow_clone(origin, "feature", tmp_path / "checkout")
    marker = tmp_path / "ran"
    bad = f"--upload-pack=touch {marker}"
    done, outputs, _ = run_action(checkout, tmp_path, event, payload(bad))
    assert not marker.exists(), "the event's base ran a command"
    message = one_error(done, outputs)
    assert message == (
        f"the event's {field} is \"{bad}\", not a commit's full name (40 or 64 hexadecimal "
        "digits): give the paths to review in paths"
    )


@pytest.mark.parametrize("ref", ["--upload-pack=touch {marker}", "main~1"])
def test_the_base_branch_is_a_branch_name(history: dict, tmp_path: Path, ref: str) -> None:
    """GITHUB_BASE_REF, used when the event has no base commit, must be a branch's name, not an
    option nor a revision's expression (main~1 would compare with main's parent)."""
    checkout = tmp_path / "checkout"
    git(tmp_path, "clone", "-q", str(history["repo"]), str(checkout))
    marker = tmp_path / "ran"
    ref = ref.format(marker=marker)
    done, outputs, _ = run_action(
        checkout, tmp_path, "pull_request", {"pull_request": {}}, base_ref=ref
    )
    assert not marker.exists()
    assert one_error(done, outputs) == (
        f'GITHUB_BASE_REF is "{ref}", not a branch\'s name: give the paths to review in paths'
    )


@pytest.mark.parametrize(
    ("event", "payload", "said"),
    [
        ("pull_request", {"pull_request": "x"}, 'the event\'s pull_request is "x", not an object'),
        ("pull_request", {"pull_request": {"base": 5}}, "pull_request.base is 5, not an object"),
        ("pull_request", {"pull_request": {"head": {"sha": []}}}, "head.sha is [], not a string"),
        ("push", {"before": 123}, "the event's before is 123, not a string"),
        ("merge_group", {"merge_group": ["x"]}, 'merge_group is ["x"], not an object'),
        ("pull_request", ["x"], 'holds ["x"], not an object'),
    ],
)
def test_an_event_of_the_wrong_shape_is_an_error(
    history: dict, tmp_path: Path, event: str, payload: object, said: str
) -> None:
    done, outputs, _ = run_action(history["repo"], tmp_path, event, payload)
    message = one_error(done, outputs)
    assert said in message and message.endswith(": give the paths to review in paths"), message


def test_args_take_options_only(history: dict, tmp_path: Path) -> None:
    """A path in args would be reviewed beside (or instead of) the changed files: refused."""
    repo = history["repo"]
    for args, bad in [("bench/kept.py", "bench/kept.py"), ("--select JW101 src/", "src/")]:
        done, outputs, _ = run_action(
            repo, tmp_path, "pull_request", pull_request(history), args=args
        )
        assert one_error(done, outputs) == (
            f'args takes options only (such as --select JW101), not "{bad}": give the paths '
            "to review in paths"
        )
    for args in ("--sel JW102", "--ignore=JW101", "--select JW102 --ignore JW101"):
        done, outputs, _ = run_action(
            repo, tmp_path, "pull_request", pull_request(history), args=args
        )
        assert done.returncode == 0 and outputs["exit-code"] == "0", args


def test_the_options_that_take_a_value_are_the_reviews() -> None:
    review = next(
        action.choices["review"]
        for action in cli.parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    valued = {
        option
        for action in review._actions
        for option in action.option_strings
        if action.nargs != 0
    }
    script = SCRIPT.read_text()
    listed = re.search(r"^VALUED = (\(.*?\))", script, re.M)
    assert listed and set(eval(listed.group(1))) == valued


def test_an_unexpected_error_fails_the_step_with_its_output(history: dict, tmp_path: Path) -> None:
    done, outputs, _ = run_action(
        history["repo"], tmp_path, "pull_request", pull_request(history),
        python=str(tmp_path / "no-python"),
    )  # fmt: skip
    assert one_error(done, outputs).startswith("unexpected FileNotFoundError: ")
