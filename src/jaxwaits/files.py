"""Writing the files the tools own (recorded outputs, the ledger, the manifest, the pages they
generate) all or nothing, and only inside the folder they belong in."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from jaxwaits.errors import JaxwaitsError


def write_atomic(path: Path, content: str | bytes) -> None:
    """Write ``content`` to ``path`` through a temporary file beside it and a rename, so that a
    failure part-way (a full disk, a kill) leaves the old file as it was and no partial file."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644  # mkstemp makes 0o600
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise JaxwaitsError(f"cannot write {path}: {error.strerror}") from None
    try:
        os.fchmod(handle, mode)
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise JaxwaitsError(f"cannot write {path} (it is unchanged): {error.strerror}") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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
