"""A repository's source distribution from PyPI, kept as a bare git mirror the whole-repository
sets read like any other.

Most repositories the library's ``fetch`` can reach have been used by the blind sets; the
packages on PyPI are a second supply of code nobody here has read. A set names the archive
(``sdist``, its ``sha256``) beside the project's repository; the mirror is one commit of the
archive's files with a fixed author, date and message, so that anyone who builds it again from
the same archive gets the same commit, the one the labels name.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tarfile
import tempfile
import urllib.request
import zipfile
from pathlib import Path

from harnesscheck.errors import ReviewError

_FIXED = {
    "GIT_AUTHOR_NAME": "sdist",
    "GIT_AUTHOR_EMAIL": "sdist@pypi.invalid",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00+0000",
    "GIT_COMMITTER_NAME": "sdist",
    "GIT_COMMITTER_EMAIL": "sdist@pypi.invalid",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00+0000",
    "GIT_CONFIG_GLOBAL": os.devnull,  # no signing, hooks or templates of whoever runs it
    "GIT_CONFIG_NOSYSTEM": "1",
}


def download(url: str, sha256: str) -> bytes:
    """The archive at ``url``, refused unless its digest is ``sha256``."""
    with urllib.request.urlopen(url, timeout=120) as answer:
        data: bytes = answer.read()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ReviewError(f"{url}: its sha256 is not {sha256}")
    return data


def unpack(archive: Path, into: Path) -> Path:
    """The archive's files under ``into``; its one top folder (``name-version/``) is the root.
    A member that would land outside ``into`` is refused (tar's ``data`` filter) or kept inside
    (zip's own ``extractall`` drops ``..`` and leading slashes)."""
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as z:
            z.extractall(into)
    else:
        with tarfile.open(archive) as t:
            try:
                t.extractall(into, filter="data")
            except tarfile.FilterError as refused:
                raise ReviewError(f"{archive.name}: {refused}") from None
    tops = list(into.iterdir())
    return tops[0] if len(tops) == 1 and tops[0].is_dir() else into


def mirror(data: bytes, name: str, git_dir: Path) -> str:
    """A bare mirror at ``git_dir`` holding the archive ``data`` (file ``name``) as one commit;
    its commit, the same for the same archive wherever it is built. It is built beside
    ``git_dir`` and moved there whole, so that a failure leaves no half-made mirror."""
    git_dir.parent.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as scratch,
        tempfile.TemporaryDirectory(dir=git_dir.parent) as beside,
    ):
        archive = Path(scratch) / name
        archive.write_bytes(data)
        (Path(scratch) / "x").mkdir()
        root = unpack(archive, Path(scratch) / "x")
        env = {**os.environ, **_FIXED}
        made = Path(beside) / "repo"
        git = ["git", "--git-dir", str(made), "--work-tree", str(root)]
        subprocess.run(["git", "init", "-q", "--bare", str(made)], env=env, check=True)
        subprocess.run([*git, "add", "-A", "-f", "."], env=env, check=True)
        subprocess.run([*git, "commit", "-q", "-m", f"sdist {name}"], env=env, check=True)
        head = subprocess.run(
            ["git", "--git-dir", str(made), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
        made.rename(git_dir)
    return head.stdout.strip()
