"""Writing the files the tools own (recorded outputs, the ledger, the manifest, the pages they
generate) all or nothing, and only inside the folder they belong in."""

from __future__ import annotations

import os
import re
import secrets
import threading
from pathlib import Path

from jaxwaits.errors import JaxwaitsError

# What this process last wrote (size, modification time, inode) or removed (None), by path: a
# snippet run that sees such a file as it was left by the tools did not change it.
_OURS: dict[str, tuple[int, int, int] | None] = {}
_TEMPORARY: set[str] = set()  # the temporary files this process wrote through, each name new
_LOCK = threading.Lock()
# write_atomic's temporary file beside ``NAME``: ``.NAME.`` and eight random hex digits, then
# ``.tmp`` (.gitignore ignores these: one a killed writer left is no change to commit).
TEMPORARY = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        stat = os.lstat(path)
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns, stat.st_ino


def written_by_us(path: Path) -> bool:
    """Whether ``path`` is as this process last wrote or removed it."""
    key = str(path.resolve())
    with _LOCK:
        return key in _TEMPORARY or (key in _OURS and _OURS[key] == _stat(path))


def remove(path: Path) -> None:
    """Remove a file the tools own (nothing if it is gone)."""
    path.unlink(missing_ok=True)
    with _LOCK:
        _OURS[str(path.resolve())] = None


def write_atomic(path: Path, content: str | bytes) -> None:
    """Write ``content`` to ``path`` through a temporary file beside it and a rename, so that a
    failure part-way (a full disk, a kill) leaves the old file as it was and no partial file."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
        handle, temporary = _temporary_beside(path)
    except OSError as error:
        raise JaxwaitsError(f"cannot write {path}: {error.strerror}") from None
    try:
        os.fchmod(handle, mode)
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        # Known as ours before it takes the name (a rename keeps size, time and inode), so a
        # snapshot of the checkout taken meanwhile by a snippet's run never blames the snippet.
        with _LOCK:
            _OURS[str(path.resolve())] = _stat(Path(temporary))
        os.replace(temporary, path)
        with _LOCK:
            _OURS[str(path.resolve())] = _stat(path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise JaxwaitsError(f"cannot write {path} (it is unchanged): {error.strerror}") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _temporary_beside(path: Path) -> tuple[int, str]:
    """A new temporary file beside ``path``, open for writing, known as ours before it exists
    (a snapshot taken between its making and its naming as ours blamed a snippet for it)."""
    while True:
        temporary = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
        with _LOCK:
            _TEMPORARY.add(str(temporary.resolve()))
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), str(temporary)
        except FileExistsError:
            continue


def left_behind(folder: Path) -> list[Path]:
    """The temporary files of :func:`write_atomic` in ``folder``: each one a writer was killed
    before its rename left, where no writer is at work in ``folder``."""
    return sorted(path for path in folder.glob(".*.tmp") if TEMPORARY.fullmatch(path.name))


def inside(folder: Path, name: str) -> Path:
    """``folder / name``, refused unless it names a file directly in ``folder``: a name read from
    a page (a claim ID) never makes a path that climbs out of it or into another folder."""
    path = folder / name
    if (
        Path(name).name != name
        or name in ("", ".", "..")
        or path.resolve().parent != folder.resolve()
    ):
        raise JaxwaitsError(f"refusing to write {name!r}: not a file name inside {folder}")
    return path


def write_folder(folder: Path, wanted: dict[str, str], pattern: str = "*.md") -> None:
    """Make ``folder`` hold exactly the files ``wanted`` (name -> text) among those matching
    ``pattern``: each written only when its text changed, the others matching removed."""
    folder.mkdir(exist_ok=True)
    for stale in {p.name for p in folder.glob(pattern)} - set(wanted):
        remove(folder / stale)
    for name, text in wanted.items():
        path = inside(folder, name)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            write_atomic(path, text)
