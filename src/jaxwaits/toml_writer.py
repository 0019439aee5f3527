"""A tiny TOML writer for the shapes the manifest uses; the standard ``tomllib`` reads it back.

Values: strings, integers, booleans, lists of those, tables (dicts) and lists of tables.
Multi-line strings are written as literal ``'''`` blocks where TOML allows it, so diffs and
docstrings stay readable in the file.

Why not a maintained writer: neither writes these files as they are (tried on the committed
manifest, December 2026). ``tomli_w`` 1.2 puts each release of a list on a line of its own and
has no literal strings, so a diff stored in the manifest loses its readable form (its output is
a 422-line diff from the file); ``tomlkit`` 0.15 writes multi-line text as one line of ``\\n``
escapes (478 lines). Both would make the manifest and the known-output files unreadable in the
diffs a reviewer reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

Scalar = str | int | bool
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _basic(key)


def _basic(text: str) -> str:
    escaped = "".join(_ESCAPES.get(c, c) for c in text)
    return '"' + _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", escaped) + '"'


def _string(text: str) -> str:
    if "\n" not in text:
        return _basic(text)
    literal_ok = "'''" not in text and not text.endswith("'") and not _CONTROL.search(text)
    if literal_ok and "\r" not in text:
        return "'''\n" + text + "'''"
    return _basic(text)


def _value(value: Scalar | Sequence[Scalar]) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    return "[" + ", ".join(_value(item) for item in value) + "]"


def _is_table_list(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _table(path: list[str], table: Mapping[str, object], out: list[str]) -> None:
    for key, value in table.items():
        if not isinstance(value, Mapping) and not _is_table_list(value):
            out.append(f"{_key(key)} = {_value(value)}")  # type: ignore[arg-type]
    for key, value in table.items():
        name = ".".join(_key(part) for part in [*path, key])
        if isinstance(value, Mapping):
            if not value or not all(isinstance(v, Mapping) for v in value.values()):
                out += ["", f"[{name}]"]  # a table of tables only needs no header of its own
            _table([*path, key], value, out)
        elif _is_table_list(value):
            for item in value:  # type: ignore[attr-defined]
                out += ["", f"[[{name}]]"]
                _table([*path, key], item, out)


def dumps(data: Mapping[str, object], header: str = "") -> str:
    """TOML text for ``data``, after ``header`` written as comment lines."""
    out = [f"# {line}".rstrip() for line in header.splitlines()]
    _table([], data, out)
    return "\n".join(out).lstrip("\n") + "\n"
