"""The shell logic of the jax-waits GitHub Action (``action.yml`` at the repository root), kept
here so that it runs, and is tested, without GitHub: standard library only, no jaxwaits import
(it runs on the runner's ``python3``, before and beside the installed tool).

``install``
    Make a virtual environment in ``$RUNNER_TEMP`` and install the tool there: from the action's
    own checkout (``JAXWAITS_ACTION_PATH``), or ``jaxwaits==JAXWAITS_VERSION`` from PyPI. Writes
    the output ``python``, the environment's interpreter.
``review``
    Decide the files to review (``JAXWAITS_PATHS``, one a line; by default the ``.py``,
    ``.ipynb`` and ``.md`` files the pull request or push changed and did not delete), run
    ``jaxwaits review`` on them (with ``JAXWAITS_ARGS``) to write SARIF, print workflow
    annotations and the report in ``JAXWAITS_FORMAT``, and add a Markdown summary to the step
    summary. Writes the outputs ``exit-code`` (the review's: 0 clean, 1 findings, 2 error),
    ``files``, ``sarif-file`` (empty when nothing was reviewed) and ``root``. Exits with the
    review's status, but 0 for findings when ``JAXWAITS_FAIL_ON_FINDINGS`` is false.

What changed is read from the event the runner describes: ``GITHUB_EVENT_NAME`` and the event
JSON at ``GITHUB_EVENT_PATH``; a pull request (or merge queue group) is compared with its base
commit (``pull_request.base.sha``, else ``origin/$GITHUB_BASE_REF``), a push with the commit
before it (``before``; a new branch: the pushed commit's parent). A base missing from a shallow
checkout is fetched from ``origin``. Any other event reviews every tracked file. The event's
fields are checked before git sees them: a base must be a full commit name, a branch a branch
name (a value such as ``--upload-pack=CMD`` would be an option to git).

The files reviewed are the pull request's, which anyone can open: a file's name, and so the
report, can hold a line break and a workflow command (``::stop-commands::``, ``::error``). What
they hold is printed between ``::stop-commands::TOKEN`` and ``::TOKEN::`` (a fresh token each
time), so that the runner takes none of it as a command, and names one a line, their control
characters escaped. Only the ``github`` format's annotations, which escape what they quote, are
printed for the runner to read.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import traceback
import uuid
from collections.abc import Iterable
from pathlib import Path

SUFFIXES = (".py", ".ipynb", ".md")  # what `jaxwaits review` reads (harnesscheck/sources SUFFIXES)
FORMATS = ("text", "markdown", "github", "sarif", "json")
# The options of `jaxwaits review` that take a value (src/jaxwaits/cli/arguments.py; a test keeps
# them equal): what follows one of them in args is its value, anything else not an option is a path
VALUED = ("--format", "--select", "--ignore")
COMMIT = re.compile(r"[0-9a-fA-F]{40}|[0-9a-fA-F]{64}")  # a full SHA-1 or SHA-256 object name
PULL_REQUESTS = ("pull_request", "pull_request_target")
# How a shallow checkout is deepened until a pull request's head and base meet, the last try
# fetching all of their history
DEEPER = ("--depth=64", "--depth=1024", "--unshallow")


class ActionError(Exception):
    """A problem with the inputs or the checkout: reported as an error, exit 2."""


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("install", "review"):
        print("usage: review.py install|review (inputs come from the environment)")
        return 2
    try:
        return install() if argv[0] == "install" else review()
    except ActionError as error:
        message = str(error)
    except Exception as error:  # a fault of this script's: an error of the step all the same
        _untrusted(traceback.format_exc().splitlines())
        message = f"unexpected {type(error).__name__}: {error}"
    set_output("exit-code", "2")
    print(f"::error title=jaxwaits review::{_escape(message)}")
    return 2


# --- install -------------------------------------------------------------------------------


def requirement(version: str, action_path: str) -> str:
    """What pip installs: a release from PyPI when a version is given (``latest``: the newest),
    else the action's own checkout."""
    version = version.strip()
    if version == "latest":
        return "jaxwaits"
    if version:
        return f"jaxwaits=={version.removeprefix('v')}"
    if not action_path:
        raise ActionError("no version given and no action path (GITHUB_ACTION_PATH) to install")
    return action_path


def install() -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 (the runner's python3 may be any version)
        found = ".".join(map(str, sys.version_info[:3]))
        raise ActionError(
            f"jaxwaits needs Python 3.11 or newer and this runner's python3 is {found}: "
            "run actions/setup-python before this action"
        )
    spec = requirement(os.environ.get("JAXWAITS_VERSION", ""), _action_path())
    venv = Path(os.environ.get("RUNNER_TEMP") or Path.cwd()) / "jaxwaits-venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    print(f"installing {spec} into {venv}")
    _run([*pip, spec])
    _run([str(python), "-m", "jaxwaits", "review", "--help"], quiet=True)
    set_output("python", str(python))
    return 0


def _action_path() -> str:
    return os.environ.get("JAXWAITS_ACTION_PATH") or os.environ.get("GITHUB_ACTION_PATH", "")


def _run(command: list[str], quiet: bool = False) -> None:
    done = subprocess.run(command, capture_output=quiet, text=True)
    if done.returncode != 0:
        raise ActionError(f"{shlex.join(command)} failed (exit {done.returncode})")


# --- review --------------------------------------------------------------------------------


def review() -> int:
    form = os.environ.get("JAXWAITS_FORMAT", "").strip() or "text"
    if form not in FORMATS:
        raise ActionError(f"format {form!r} is not one of {', '.join(FORMATS)}")
    fail_on_findings = _boolean("JAXWAITS_FAIL_ON_FINDINGS", default=True)
    try:
        args = shlex.split(os.environ.get("JAXWAITS_ARGS", ""))
    except ValueError as error:
        raise ActionError(f"args cannot be read as a command line: {error}") from None
    _options_only(args)
    python = os.environ.get("JAXWAITS_PYTHON") or sys.executable
    given = [line.strip() for line in os.environ.get("JAXWAITS_PATHS", "").splitlines()]
    given = [line for line in given if line]
    if given:
        root = Path.cwd()
        paths, why = given, "the paths given"
    else:
        root = toplevel(Path.cwd())
        paths, why = changed_files(root)
    print(f"jaxwaits review: {_count(len(paths), 'path')} to review ({why})")
    _untrusted(f"  {_shown(path)}" for path in paths)
    set_output("root", str(root))
    set_output("files", str(len(paths)))
    if not paths:
        message = f"no changed {', '.join(SUFFIXES)} files to review ({why}): nothing to do"
        print(f"jaxwaits review: {message}")
        summary(f"**jaxwaits review**: {message}.\n")
        set_output("exit-code", "0")
        set_output("sarif-file", "")
        return 0

    def jaxwaits(form: str) -> subprocess.CompletedProcess[str]:
        command = [python, "-m", "jaxwaits", "review", *args, "--format", form, "--", *paths]
        return subprocess.run(command, cwd=root, capture_output=True, text=True)

    sarif = jaxwaits("sarif")
    code = sarif.returncode if sarif.returncode in (0, 1, 2) else 2
    # A usage error (a misspelt --select) says why here; on stdout, where the region that holds
    # it is, since the runner reads stdout and stderr apart
    _untrusted(sarif.stderr.splitlines())
    sarif_file = ""
    if _is_json(sarif.stdout):
        where = Path(os.environ.get("RUNNER_TEMP") or root) / "jaxwaits-review.sarif"
        where.write_text(sarif.stdout, encoding="utf-8")
        sarif_file = str(where)
    set_output("sarif-file", sarif_file)
    set_output("exit-code", str(code))
    if sarif.stdout and not sarif_file:
        _untrusted(sarif.stdout.splitlines())
    if sarif_file:
        _show(jaxwaits("github").stdout)  # annotations on the pull request's lines
        if form != "github":
            _untrusted(jaxwaits(form).stdout.rstrip().splitlines())
        summary(jaxwaits("markdown").stdout)
    if code == 2:
        print("jaxwaits review: an error (exit 2): see above")
        return 2
    if code == 1 and not fail_on_findings:
        print("jaxwaits review: findings, not failing the step (fail-on-findings is false)")
        return 0
    return code


def toplevel(here: Path) -> Path:
    done = _git(here, "rev-parse", "--show-toplevel", check=False)
    if done.returncode != 0:
        raise ActionError(
            f"{here} is not a git checkout: run actions/checkout first, or give paths"
        )
    return Path(done.stdout.strip())


def _options_only(args: list[str]) -> None:
    """Refuse a path in args: it would be reviewed beside (or instead of) the changed files."""
    value_next = False
    for arg in args:
        if value_next:
            value_next = False
        elif arg in ("-", "--") or not arg.startswith("-"):
            raise ActionError(
                f"args takes options only (such as --select JW101), not {_json(arg)}: "
                "give the paths to review in paths"
            )
        else:  # argparse also takes a long option's prefix (--sel)
            value_next = "=" not in arg and len(arg) > 2 and any(o.startswith(arg) for o in VALUED)


def changed_files(root: Path) -> tuple[list[str], str]:
    """The reviewable files that the event changed and that are there, and which comparison
    found them; every tracked one for an event that has no base to compare with."""
    event = os.environ.get("GITHUB_EVENT_NAME", "")
    base, why, fork = _base(root, event, _payload())
    if base is None:
        names = _names(_git(root, "ls-files", "-z").stdout)
        why = why or f"every tracked file: the {event or 'unknown'} event has no base to compare"
    else:
        names = _names(
            _git(
                root,
                *("diff", "--name-only", "-z", "--no-ext-diff", "--diff-filter=ACMRT"),
                *_range(root, base, fork),
            ).stdout
        )
    reviewable = [name for name in names if name.endswith(SUFFIXES)]
    present = [name for name in reviewable if (root / name).is_file()]
    _untrusted(
        f"jaxwaits review: {_shown(name)} is not in the checkout; left out"
        for name in sorted(set(reviewable) - set(present))
    )
    return present, why


def _payload() -> dict:
    path = os.environ.get("GITHUB_EVENT_PATH", "")
    if not path or not Path(path).is_file():
        return {}
    try:
        payload = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ActionError(f"the event file {path} cannot be read: {error}") from None
    if not isinstance(payload, dict):
        raise ActionError(
            f"the event file {path} holds {_json(payload)}, not an object: "
            "give the paths to review in paths"
        )
    return payload


def _field(payload: dict, *names: str) -> str:
    """The event's text at ``names`` (``pull_request``, ``base``, ``sha``), empty when it is
    absent or null; an error naming it when it, or an object on the way to it, is of another
    type (the event is not one GitHub writes)."""
    value: object = payload
    for i, name in enumerate(names):
        if not isinstance(value, dict):
            raise _not(names[:i], value, "an object")
        value = value.get(name)
        if value is None:
            return ""
    if not isinstance(value, str):
        raise _not(names, value, "a string")
    return value


def _commit(payload: dict, *names: str) -> str:
    """The event's commit at ``names``: a full object name, never what git could read as an
    option or a revision's expression."""
    sha = _field(payload, *names)
    if sha and not COMMIT.fullmatch(sha):
        raise _not(names, sha, "a commit's full name (40 or 64 hexadecimal digits)")
    return sha


def _not(names: tuple[str, ...], value: object, what: str) -> ActionError:
    return ActionError(
        f"the event's {'.'.join(names)} is {_json(value)}, not {what}: "
        "give the paths to review in paths"
    )


def _base_ref() -> str:
    """``GITHUB_BASE_REF``, the pull request's base branch, checked to be a branch's name."""
    ref = os.environ.get("GITHUB_BASE_REF", "")
    if ref:
        checked = subprocess.run(
            ["git", "check-ref-format", "--branch", ref], capture_output=True, text=True
        )  # --branch also expands @{-1}: the name must come back as it went
        if checked.returncode != 0 or checked.stdout.strip() != ref:
            raise ActionError(
                f"GITHUB_BASE_REF is {_json(ref)}, not a branch's name: "
                "give the paths to review in paths"
            )
    return ref


def _base(root: Path, event: str, payload: dict) -> tuple[str | None, str, bool]:
    """The commit to compare HEAD with, present in the checkout (fetched if it must be), how it
    was chosen, and whether it is a branch HEAD forked from (a pull request's base, which may
    have moved on since: compare from where they parted); None (and why, or nothing) when there
    is none."""
    if event in PULL_REQUESTS:
        parents = _parents(root)
        head = _field(payload, "pull_request", "head", "sha")
        if len(parents) == 2 and head and parents[1] == head:
            # actions/checkout's merge commit of the pull request into its base: its own change
            # is the pull request's, whatever the base has done since the event
            return _present(root, parents[0]), f"the {event}'s merge commit against its base", False
        sha = _commit(payload, "pull_request", "base", "sha")
        if sha:
            return _present(root, sha), f"the {event} against its base {sha[:12]}", True
        ref = _base_ref()
        if not ref:
            raise ActionError(f"a {event} event without a base: no base.sha, no GITHUB_BASE_REF")
        if _has_commit(root, f"refs/remotes/origin/{ref}"):
            return _present(root, f"refs/remotes/origin/{ref}"), f"the {event} against {ref}", True
        return _present(root, f"refs/heads/{ref}", local=False), f"the {event} against {ref}", True
    if event == "merge_group":
        sha = _commit(payload, "merge_group", "base_sha")
        if sha:
            return _present(root, sha), f"the merge group against its base {sha[:12]}", True
    if event == "push":
        before = _commit(payload, "before")
        if before.strip("0"):  # all zeros: the branch is new
            return _present(root, before), f"the push against {before[:12]}", False
        parent = _parent(root)
        if parent is None:
            return None, "every tracked file: a new branch whose first commit has no parent", False
        return parent, "a new branch: its last commit against its parent", False
    return None, "", False


def _present(root: Path, rev: str, local: bool = True) -> str:
    """``rev`` as a commit of the checkout, fetched from origin (one commit deep) if it is
    missing, as it is from actions/checkout's default shallow clone (or, ``local`` false, if it
    names a branch of origin)."""
    if local and _has_commit(root, rev):
        return _commit_of(root, rev)
    fetched = _git(
        root, "fetch", "--quiet", "--no-tags", "--depth=1", "--", "origin", rev, check=False
    )
    if fetched.returncode != 0 or not _has_commit(root, "FETCH_HEAD"):
        raise ActionError(
            f"the base {rev} is not in the checkout and cannot be fetched from origin "
            f"({fetched.stderr.strip() or 'no origin'}): use actions/checkout with "
            "fetch-depth: 0, or give paths"
        )
    return _commit_of(root, "FETCH_HEAD")


def _commit_of(root: Path, rev: str) -> str:
    return _git(
        root, "rev-parse", "--verify", "--end-of-options", f"{rev}^{{commit}}"
    ).stdout.strip()


def _parents(root: Path) -> list[str]:
    """HEAD's parents as its commit names them, even those a shallow checkout lacks."""
    commit = _git(root, "cat-file", "commit", "HEAD", check=False).stdout
    header = commit.split("\n\n", 1)[0].splitlines()
    return [line.split()[1] for line in header if line.startswith("parent ")]


def _parent(root: Path) -> str | None:
    if not _has_commit(root, "HEAD^") and _shallow(root):
        _git(root, "fetch", "--quiet", "--no-tags", "--deepen=1", "--", "origin", check=False)
    if _has_commit(root, "HEAD^"):
        return _commit_of(root, "HEAD^")
    return None


def _range(root: Path, base: str, fork: bool) -> list[str]:
    """What to compare: the base with HEAD; for a branch HEAD forked from, from where they
    parted (what the pull request shows), with the history a shallow checkout lacks fetched
    until it is found. Without any common history, the base itself."""
    if not fork:
        return [base, "HEAD"]
    head = _git(root, "rev-parse", "HEAD").stdout.strip()
    for deeper in ("", *DEEPER):
        if deeper:
            fetch = ("fetch", "--quiet", "--no-tags", deeper, "--", "origin")
            _git(root, *fetch, base, head, check=False)
        parted = _git(root, "merge-base", "--", base, head, check=False)
        if parted.returncode == 0:
            return [parted.stdout.strip(), head]
        if not _shallow(root):
            break
    print(f"jaxwaits review: no common history with {base[:12]}: comparing with it")
    return [base, head]


def _has_commit(root: Path, rev: str) -> bool:
    return _git(root, "cat-file", "-e", "--", f"{rev}^{{commit}}", check=False).returncode == 0


def _shallow(root: Path) -> bool:
    return _git(root, "rev-parse", "--is-shallow-repository").stdout.strip() == "true"


def _git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    command = ["git", "-c", "core.quotepath=off", *args]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise ActionError(f"{shlex.join(command)} failed: {done.stderr.strip()}")
    return done


def _names(nul_separated: str) -> list[str]:
    return [name for name in nul_separated.split("\0") if name]


# --- the runner's files --------------------------------------------------------------------


def set_output(name: str, value: str) -> None:
    """A step output, in the delimited form (safe whatever the value holds)."""
    path = os.environ.get("GITHUB_OUTPUT")
    if not path:
        return
    delimiter = f"jaxwaits_{uuid.uuid4().hex}"
    with open(path, "a", encoding="utf-8") as out:
        out.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")


def summary(markdown: str) -> None:
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if path and markdown.strip():
        with open(path, "a", encoding="utf-8") as out:
            out.write(markdown.rstrip() + "\n")


def _boolean(name: str, default: bool) -> bool:
    text = os.environ.get(name, "").strip().lower()
    if not text:
        return default
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off"):
        return False
    raise ActionError(f"{name} must be true or false, not {text!r}")


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return bool(text.strip())


def _show(text: str) -> None:
    if text.strip():
        print(text.rstrip())


def _untrusted(lines: Iterable[str]) -> None:
    """Print what a pull request's files can hold (their names, the report on them) where the
    runner reads no workflow command: after ``::stop-commands::`` with a token none of it can
    know, until that token."""
    lines = list(lines)
    if lines:
        token = uuid.uuid4().hex
        print(f"::stop-commands::{token}")
        print("\n".join(lines))
        print(f"::{token}::")


def _shown(text: str) -> str:
    """A name on one line: its control characters (a line break) escaped as Python writes them."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _json(value: object) -> str:
    """A value for a message: on one line, quoted, and short."""
    text = json.dumps(value)
    return text if len(text) <= 200 else f"{text[:197]}..."


def _escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
