"""The whole-repository sets (benchmarks/wholerepos/) read as their README says, and what scores
them (harnesscheck.measure.wholerepos) counts what it should: tried on a repository made here, as a
bare mirror."""

from __future__ import annotations

import hashlib
import io
import subprocess
import tarfile
from pathlib import Path

import pytest

from harnesscheck.errors import ReviewError
from harnesscheck.measure import sdist, wholerepos

ROOT = Path(__file__).resolve().parents[2]
SETS = sorted((ROOT / "benchmarks" / "wholerepos").glob("*.toml"))

HARNESS = """import time
import jax

step = jax.jit(lambda a: a * 2)
x = jax.numpy.ones(3)
step(x).block_until_ready()
t0 = time.perf_counter()
y = step(x)
found = time.perf_counter() - t0
t0 = time.perf_counter()
z = other(x)
missed = time.perf_counter() - t0
t0 = time.perf_counter()
y = step(x)
judged = time.perf_counter() - t0
fresh = jax.jit(lambda a: a + 1)
t0 = time.perf_counter()
fresh(x).block_until_ready()
first = time.perf_counter() - t0
"""


def test_there_are_sets_and_each_reads() -> None:
    assert {s.name for s in SETS} >= {"dev-a.toml", "dev-b.toml", "blind-3.toml"}
    for set_file in SETS:
        assert wholerepos.load(set_file), f"{set_file.name} has no repositories"


def _mirror(tmp_path: Path, files: dict[str, str] | None = None) -> tuple[Path, str]:
    work = tmp_path / "work"
    for path, text in (files or {"bench/run.py": HARNESS}).items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(text)
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "harness"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True)
    mirrors = tmp_path / "mirrors"
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(work), str(mirrors / "someone+bench" / "repo")],
        check=True,
    )
    return mirrors, commit.stdout.strip()


def _set(tmp_path: Path, commit: str, extra: str = "") -> Path:
    text = f"""
[[repo]]
github = "someone/bench"
commit = "{commit}"
licence = "MIT"
files = ["bench/run.py"]
[[repo.mistake]]
path = "bench/run.py"
line = 9
code = "JW101"
[[repo.mistake]]
path = "bench/run.py"
line = 12
code = "JW101"
[[repo.mistake]]
path = "bench/run.py"
line = 19
code = "JW102"
[[repo.judged]]
path = "bench/run.py"
line = 15
code = "JW101"
verdict = "false"
{extra}"""
    path = tmp_path / "set.toml"
    path.write_text(text)
    return path


def test_the_score_counts_found_missed_and_judged(tmp_path: Path) -> None:
    mirrors, commit = _mirror(tmp_path)
    report = wholerepos.report(wholerepos.score([_set(tmp_path, commit)], mirrors))
    # JW102 is found at the call (line 18), and stands for the label at the timer's reading
    assert report["labels"] == 3 and report["labels found"] == 2
    assert report["missed"] == ["someone/bench bench/run.py:12 JW101"]
    assert report["false alarms"] == ["someone/bench bench/run.py:15 JW101"]
    assert (report["precision"], report["recall"]) == (0.67, 0.67)
    assert report["per rule"]["JW101"] == {"labels": 2, "found": 1, "false": 1}


def test_a_mirror_with_its_git_directory_inside_serves_as_well(tmp_path: Path) -> None:
    mirrors, commit = _mirror(tmp_path)
    bare = mirrors / "someone+bench" / "repo"
    inside = tmp_path / "inside"
    bare.rename(inside)
    bare.mkdir()
    inside.rename(bare / ".git")  # the layout `fetch` sometimes leaves: repo/.git
    report = wholerepos.report(wholerepos.score([_set(tmp_path, commit)], mirrors))
    assert report["labels found"] == 2


TIMER = """import time

class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.elapsed = time.perf_counter() - self.start
"""

TIMED = """import jax
from bench.timer import Timer

step = jax.jit(lambda a: a * 2)
x = jax.numpy.ones(3)
with Timer():
    y = step(x)
"""


def test_a_timer_of_a_sibling_module_is_followed_whole_not_alone(tmp_path: Path) -> None:
    files = {"bench/__init__.py": "", "bench/timer.py": TIMER, "bench/run.py": TIMED}
    mirrors, commit = _mirror(tmp_path, files)
    set_file = tmp_path / "set.toml"
    set_file.write_text(f"""
[[repo]]
github = "someone/bench"
commit = "{commit}"
licence = "MIT"
files = ["bench/run.py", "bench/timer.py"]
[[repo.mistake]]
path = "bench/run.py"
line = 6
code = "JW101"
[[repo.mistake]]
path = "bench/run.py"
line = 7
code = "JW102"
""")
    whole = wholerepos.report(wholerepos.score([set_file], mirrors))
    alone = wholerepos.report(wholerepos.score([set_file], mirrors, alone=True))
    labels = ["someone/bench bench/run.py:6 JW101", "someone/bench bench/run.py:7 JW102"]
    assert sorted(whole["found"]) == labels and not whole["unjudged"]
    assert sorted(alone["missed"]) == labels and not alone["unjudged"]


def test_a_finding_of_another_rule_beside_a_label_does_not_find_it(tmp_path: Path) -> None:
    mirrors, commit = _mirror(tmp_path)
    other = '[[repo.mistake]]\npath = "bench/run.py"\nline = 11\ncode = "JW103"'
    report = wholerepos.report(wholerepos.score([_set(tmp_path, commit, other)], mirrors))
    assert "someone/bench bench/run.py:11 JW103" in report["missed"]


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ('[[repo.borderline]]\npath = "bench/other.py"\nline = 3\ncode = "JW101"', "not among"),
        ('[[repo.borderline]]\npath = "bench/run.py"\nline = 3\ncode = "JW199"', "no rule"),
        (
            '[[repo.judged]]\npath = "bench/run.py"\nline = 3\ncode = "JW101"\nverdict = "maybe"',
            "verdict",
        ),
    ],
)
def test_a_bad_label_is_named(tmp_path: Path, extra: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        wholerepos.load(_set(tmp_path, "0" * 40, extra))


def _sdist(tmp_path: Path, members: dict[str, str]) -> tuple[str, str]:
    """A source distribution holding ``members``, as a file URL and its sha256."""
    archive = tmp_path / "bench-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name, text in members.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return archive.as_uri(), hashlib.sha256(archive.read_bytes()).hexdigest()


def test_a_repository_read_as_its_sdist_is_mirrored_the_same_everywhere(tmp_path: Path) -> None:
    url, digest = _sdist(tmp_path, {"bench-1.0/bench/run.py": HARNESS})
    data = sdist.download(url, digest)
    commit = sdist.mirror(data, "bench-1.0.tar.gz", tmp_path / "elsewhere")
    assert commit == sdist.mirror(data, "bench-1.0.tar.gz", tmp_path / "again")
    set_file = _set(tmp_path, commit)
    set_file.write_text(
        set_file.read_text().replace(
            'licence = "MIT"', f'licence = "MIT"\nsdist = "{url}"\nsha256 = "{digest}"'
        )
    )
    mirrors = tmp_path / "mirrors"  # none yet: the score builds it from the archive
    report = wholerepos.report(wholerepos.score([set_file], mirrors))
    assert report["labels found"] == 2
    assert (mirrors / "someone+bench" / "repo" / "HEAD").is_file()


def test_an_sdist_that_is_not_the_one_named_is_refused(tmp_path: Path) -> None:
    url, _ = _sdist(tmp_path, {"bench-1.0/bench/run.py": HARNESS})
    with pytest.raises(ReviewError, match="sha256"):
        sdist.download(url, "0" * 64)
    escaping = _sdist(tmp_path, {"bench-1.0/../../evil.py": "x = 1\n"})
    with pytest.raises(ReviewError, match=r"evil\.py"):
        sdist.mirror(sdist.download(*escaping), "bench-1.0.tar.gz", tmp_path / "m")


def test_an_sdist_without_its_digest_is_named(tmp_path: Path) -> None:
    set_file = tmp_path / "set.toml"
    set_file.write_text(
        f'[[repo]]\ngithub = "a/b"\ncommit = "{"0" * 40}"\nlicence = "MIT"\nfiles = []\n'
        'sdist = "https://pypi.org/b-1.0.tar.gz"\n'
    )
    with pytest.raises(ValueError, match="sdist and sha256 go together"):
        wholerepos.load(set_file)
