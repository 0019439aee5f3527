"""``jaxwaits review`` scored on whole real repositories against labels written before it ran.

Each set is a TOML file in ``benchmarks/wholerepos/`` (its format: that folder's README): the
repositories at a commit, the files a reader read, the mistakes, borderline cases and clean
regions they found, and the findings judged after a run. No code is stored: each repository's
Python files are taken from a bare git mirror (the library's ``fetch`` puts one under
``/work/.mirror/OWNER+NAME/repo``) into a scratch folder and reviewed there whole, as one
project; only the findings in the files read are scored. Reviewed ``alone``, each file read is
copied by itself into a folder of its own, so that no other module of its repository is seen:
what a file's own code shows, as when one file is handed to the review.

A finding matches a label on the same file within two lines (a JW102 or JW107 finding, found at
a call, also at the reading of its region's timer); a finding that matches none is counted by
its judgement (``true``: a mistake nobody labelled, ``false``: a false alarm) or, with none,
shown as unjudged, to be read before the figures are believed.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from harnesscheck import review
from harnesscheck.errors import ReviewError
from harnesscheck.measure import sdist
from harnesscheck.model.program import Program
from harnesscheck.regions import regions
from harnesscheck.rules import RULES

NEAR = 2  # lines between a finding and the label it matches
AT_THE_CALL = {"JW102", "JW107"}  # found at the call in a timed region, not at its timer


@dataclass(frozen=True)
class Mark:
    """One labelled line: a mistake, a borderline case or a judged finding."""

    repo: str
    path: str
    line: int
    code: str
    why: str = ""
    spans: tuple[tuple[int, int], ...] = ()  # a finding's: the timed regions it lies in
    says: str = ""  # a finding's message


@dataclass
class RepoScore:
    labels: list[Mark] = field(default_factory=list)
    borderline: list[Mark] = field(default_factory=list)
    judged: dict[tuple[str, str, int, str], str] = field(default_factory=dict)
    matched: dict[Mark, list[Mark]] = field(default_factory=dict)  # label -> findings
    unlabelled: dict[str, list[Mark]] = field(default_factory=dict)  # verdict -> findings
    outside: int = 0  # findings in files nobody read: neither scored nor judged
    unreadable: list[str] = field(default_factory=list)  # files the review could not read


KINDS = ("mistake", "borderline", "clean", "judged")
SDIST = {"sdist", "sha256"}  # the repository read as its source distribution on PyPI
VERDICTS = {"true", "false"}


def load(set_file: Path) -> list[dict]:
    """The repositories of one set, each checked: a label that names a file not read, a
    rule code that does not exist or a commit that is not one is named, with its place."""
    repos = tomllib.loads(set_file.read_text(encoding="utf-8")).get("repo", [])
    for repo in repos:
        where = f"{set_file.name}: {repo.get('github', '?')}"
        missing = {"github", "commit", "licence", "files"} - repo.keys()
        if missing:
            raise ValueError(f"{where}: no {', '.join(sorted(missing))}")
        if not re.fullmatch(r"[0-9a-f]{40}", repo["commit"]):
            raise ValueError(f"{where}: commit {repo['commit']!r} is not 40 hex digits")
        for kind in repo.keys() - {"github", "commit", "licence", "files", *SDIST, *KINDS}:
            raise ValueError(f"{where}: unknown key {kind!r}")
        if len(SDIST & repo.keys()) == 1:
            raise ValueError(f"{where}: sdist and sha256 go together")
        for kind in KINDS:
            for label in repo.get(kind, []):
                at = f"{where}: {kind} {label.get('path')}:{label.get('line', label.get('lines'))}"
                if label.get("path") not in repo["files"]:
                    raise ValueError(f"{at}: the file is not among those read")
                if kind != "clean" and label.get("code") not in RULES:
                    raise ValueError(f"{at}: no rule {label.get('code')!r}")
                if kind == "judged" and label.get("verdict") not in VERDICTS:
                    raise ValueError(f"{at}: verdict must be one of {sorted(VERDICTS)}")
    return repos


def marks(repo: str, table: dict, kind: str) -> list[Mark]:
    return [
        Mark(repo, m["path"], int(m["line"]), m.get("code", ""), m.get("why", ""))
        for m in table.get(kind, [])
    ]


def materialise(repo: dict, mirrors: Path, into: Path) -> Path:
    """Every Python file of ``repo`` at its commit, under ``into``/OWNER+NAME: the project is
    reviewed whole, as its authors would review it, so that its imports resolve; only the
    files read are scored."""
    git_dir = mirrors / repo["github"].replace("/", "+") / "repo"
    if (git_dir / ".git").is_dir():  # a mirror fetched with a .git inside, not bare
        git_dir = git_dir / ".git"
    if not git_dir.is_dir() and "sdist" in repo:
        name = repo["sdist"].rsplit("/", 1)[-1]
        made = sdist.mirror(sdist.download(repo["sdist"], repo["sha256"]), name, git_dir)
        if made != repo["commit"]:
            raise ReviewError(f"{repo['github']}: {name} makes commit {made}, not {repo['commit']}")
    if not git_dir.is_dir():
        name = repo["github"]
        raise ReviewError(f"{name}: no mirror at {git_dir} (fetch github:{name})")
    root = into / repo["github"].replace("/", "+")
    root.mkdir(parents=True)
    git = ["git", "--git-dir", str(git_dir)]
    listed = subprocess.run(
        [*git, "ls-tree", "-r", "--name-only", "-z", repo["commit"]],
        capture_output=True,
        check=False,
    )
    if listed.returncode:
        raise ReviewError(f"{repo['github']} at {repo['commit'][:12]}: {listed.stderr.decode()}")
    paths = [p for p in listed.stdout.decode().split("\0") if p.endswith(".py")]
    asked = "".join(f"{repo['commit']}:{p}\n" for p in paths).encode()
    batch = subprocess.run([*git, "cat-file", "--batch"], input=asked, capture_output=True)
    out, at = batch.stdout, 0
    for path in paths:  # each answer: "<id> blob <size>\n<bytes>\n", or "<name> missing\n"
        header_end = out.index(b"\n", at)
        header = out[at:header_end].split()
        at = header_end + 1
        if header[-1] == b"missing":
            continue  # a mirror may lack its largest files: then the file is not there
        size = int(header[2])
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(out[at : at + size])
        at += size + 1
    for path in repo["files"]:
        if not (root / path).is_file():
            raise ReviewError(f"{repo['github']}: {path} is not at {repo['commit'][:12]}")
    return root


def each_alone(repo: dict, root: Path, into: Path) -> list[Path]:
    """Each file read of the repository materialised at ``root``, copied by itself into a
    folder of its own under ``into``, at its path in the repository: the roots to review."""
    roots = []
    for number, path in enumerate(repo["files"]):
        own = into / repo["github"].replace("/", "+") / str(number)
        (own / path).parent.mkdir(parents=True)
        shutil.copyfile(root / path, own / path)
        roots.append(own)
    return roots


def findings(repo: dict, root: Path, unreadable: list[str]) -> list[Mark]:
    found = review.review([root], set(RULES))
    scratch = f"{root}/"  # named from the repository's root: the scratch folder is gone after
    unreadable.extend(f"{repo['github']}: {p.replace(scratch, '')}" for p in found.unreadable)
    program = Program([root])
    spans: dict[Path, list[tuple[int, int]]] = {}
    marks = []
    for f in found.findings:
        if f.path not in spans:
            source = f.path.read_text(encoding="utf-8")
            module = program.add(f.path, ast.parse(source), source)
            program.resolve()
            assert module is not None
            spans[f.path] = [(r.start, r.end.end_lineno or r.end.lineno) for r in regions(module)]
        line = f.finding.line
        inside = tuple(s for s in spans[f.path] if s[0] <= line <= s[1])
        path, rule = rel(f.path, root), f.finding.rule
        marks.append(Mark(repo["github"], path, line, rule, spans=inside, says=f.finding.message))
    return marks


def rel(path: Path, root: Path) -> str:
    return path.resolve().relative_to(root.resolve()).as_posix()


def score(sets: list[Path], mirrors: Path, alone: bool = False) -> RepoScore:
    """The sets' labels against the review of their repositories, each reviewed whole or,
    with ``alone``, each file read reviewed by itself."""
    result = RepoScore()
    with tempfile.TemporaryDirectory(prefix="wholerepos-") as scratch:
        for set_file in sets:
            for repo in load(set_file):
                name = repo["github"]
                labels = marks(name, repo, "mistake")
                result.labels += labels
                result.borderline += marks(name, repo, "borderline")
                for j in repo.get("judged", []):
                    result.judged[(name, j["path"], int(j["line"]), j["code"])] = j["verdict"]
                for label in labels:
                    result.matched.setdefault(label, [])
                root = materialise(repo, mirrors, Path(scratch))
                roots = each_alone(repo, root, Path(scratch) / "alone") if alone else [root]
                for found in [f for r in roots for f in findings(repo, r, result.unreadable)]:
                    if found.path in repo["files"]:
                        place(result, found, labels)
                    else:
                        result.outside += 1
    return result


def near(found: Mark, marks: list[Mark]) -> list[Mark]:
    """The labels a finding stands for: of its rule, on its file, within two lines, or, for a
    rule that reports a call inside a timed region (JW102, JW107), at the line that reads the
    region's timer (where a labeller puts it). A finding of another rule beside a label is not
    that mistake found."""
    return [
        m
        for m in marks
        if m.repo == found.repo
        and m.path == found.path
        and m.code == found.code
        and (
            abs(m.line - found.line) <= NEAR
            or (
                found.code in AT_THE_CALL
                and any(abs(m.line - end) <= NEAR for _, end in found.spans)
            )
        )
    ]


def place(result: RepoScore, found: Mark, labels: list[Mark]) -> None:
    hits = near(found, labels)
    for label in hits:
        result.matched[label].append(found)
    if hits:
        return
    if near(found, result.borderline):
        verdict = "borderline"
    else:
        key = (found.repo, found.path, found.line, found.code)
        verdict = result.judged.get(key, "unjudged")
    result.unlabelled.setdefault(verdict, []).append(found)


def shown(mark: Mark) -> str:
    return f"{mark.repo} {mark.path}:{mark.line} {mark.code}"


def report(result: RepoScore) -> dict:
    hit = [label for label, found in result.matched.items() if found]
    true = sum(len(f) for f in result.matched.values()) + len(result.unlabelled.get("true", []))
    false = len(result.unlabelled.get("false", []))
    open_ = len(result.unlabelled.get("unjudged", []))
    per_rule = {}
    codes = sorted(
        {m.code for m in result.labels}
        | {
            f.code
            for found in [*result.matched.values(), *result.unlabelled.values()]
            for f in found
        }
    )
    for code in codes:
        per_rule[code] = {
            "labels": sum(1 for m in result.labels if m.code == code),
            "found": sum(1 for m in hit if m.code == code),
            "false": sum(1 for f in result.unlabelled.get("false", []) if f.code == code),
        }
    return {
        "labels": len(result.labels),
        "labels found": len(hit),
        "recall": round(len(hit) / len(result.labels), 2) if result.labels else None,
        "findings true": true,
        "findings false": false,
        "precision": round(true / (true + false), 2) if true + false else None,
        "precision, were every unjudged finding false": round(true / (true + false + open_), 2)
        if true + false + open_
        else None,
        "borderline": len(result.unlabelled.get("borderline", [])),
        "findings in files not read": result.outside,
        "files not read by the review": result.unreadable,
        "found": [shown(m) for m in hit],
        "unjudged": [f"{shown(f)}: {f.says}" for f in result.unlabelled.get("unjudged", [])],
        "borderline findings": [shown(f) for f in result.unlabelled.get("borderline", [])],
        "judged true": [shown(f) for f in result.unlabelled.get("true", [])],
        "false alarms": [shown(f) for f in result.unlabelled.get("false", [])],
        "missed": [shown(m) for m, found in result.matched.items() if not found],
        "per rule": per_rule,
    }
