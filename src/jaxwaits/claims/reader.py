"""A small reader for the MyST that jax-waits writes: claim blocks, claim references, and code
cells that load a snippet, each with its file and line.

Sphinx parses the same text for the site; this reader lets tests and the command line find
claims in a fraction of a second, without building anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_FENCE = re.compile(
    r"^(?P<indent>\s*)(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}\s*(?P<arg>.*?)\s*$"
)
_OPTION = re.compile(r"^\s*:(?P<key>[\w-]+):\s*(?P<value>.*?)\s*$")
_ROLE = re.compile(r"\{claim\}`(?:[^`<]*<)?(?P<id>[^`>]+)>?`")
_FRONT_KERNEL = re.compile(r"^\s+name:\s*(?P<name>\S+)\s*$")


@dataclass(frozen=True)
class Block:
    """A fenced directive (its name, argument, options and body), the line it starts on and the
    line of its closing fence."""

    file: Path
    line: int
    name: str
    argument: str
    options: dict[str, str]
    body: str
    end: int


@dataclass(frozen=True)
class RoleUse:
    """A reference made with the ``claim`` role, wherever it appears."""

    file: Path
    line: int
    target: str


def blocks(path: Path) -> Iterator[Block]:
    """Every fenced directive in a MyST file, nested ones included, in order."""
    return blocks_in(path.read_text(encoding="utf-8"), path)


def blocks_in(text: str, path: Path) -> Iterator[Block]:
    """Every fenced directive in the MyST ``text`` of file ``path``, nested ones included."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        fence = match["fence"]
        start = i
        options: dict[str, str] = {}
        i += 1
        while i < len(lines) and (option := _OPTION.match(lines[i])):
            options[option["key"]] = option["value"]
            i += 1
        body_start = i
        closing = re.compile(rf"^\s*{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        while i < len(lines) and not closing.match(lines[i]):
            i += 1
        body = "\n".join(lines[body_start:i]).strip()
        yield Block(path, start + 1, match["name"], match["arg"], options, body, i + 1)
        i = body_start  # directives may nest (a claim inside an admonition)


def claim_targets(text: str) -> list[str]:
    """The claim IDs referenced with the ``claim`` role in one line of MyST."""
    return [match["id"].strip() for match in _ROLE.finditer(text)]


def role_uses(path: Path) -> Iterator[RoleUse]:
    """Every claim reference (the ``claim`` role) in a MyST page or an annotated source."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        for target in claim_targets(line):
            yield RoleUse(path, number, target)


def kernel_name(path: Path) -> str | None:
    """The kernel a MyST-NB page names in its front matter (``kernelspec: name:``)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    in_kernelspec = False
    for line in lines[1:]:
        if line.strip() == "---":
            return None
        if line.startswith("kernelspec:"):
            in_kernelspec = True
        elif in_kernelspec and (match := _FRONT_KERNEL.match(line)):
            return match["name"]
        elif line and not line[0].isspace():
            in_kernelspec = False
    return None
