"""The one reader of the MyST that jax-waits writes: directives (with their options, wherever
they stand), role references, and the front matter, each with its file and line.

It reads the tokens of a real Markdown parser (markdown-it-py, with the plugins MyST itself uses
for front matter, ``:::`` fences and roles), so what it finds is what MyST finds: a directive
shown inside a code block (an example) is text, not a directive; options may be ``:key: value``
lines or a YAML block between ``---`` lines; directives nest. Only the bodies of directives whose
content is not MyST (code cells, code blocks, includes, math, raw) are not read further.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

_DIRECTIVE = re.compile(r"^\{(?P<name>[\w:.-]+)\}\s*(?P<argument>.*?)\s*$")
_OPTION = re.compile(r"^\s*:(?P<key>[\w-]+):\s*(?P<value>.*?)\s*$")
# Directives whose body is code or data, not MyST: never read for directives or roles.
LITERAL = {"code-cell", "code-block", "code", "sourcecode", "literalinclude", "math", "raw"}


@dataclass(frozen=True)
class Directive:
    """A fenced directive: its name, argument, options and body, the line its fence opens on and
    the line its fence closes on (1-based)."""

    file: Path
    line: int
    name: str
    argument: str
    options: dict[str, str]
    body: str
    end: int


@dataclass(frozen=True)
class RoleUse:
    """A role in the text (``{claim}`id```), with its target and the line it stands on."""

    file: Path
    line: int
    role: str
    target: str


@dataclass(frozen=True)
class Unreadable:
    """Something the reader could not read, located."""

    file: Path
    line: int
    message: str


@dataclass(frozen=True)
class Page:
    """What one MyST file holds, in the order it holds it."""

    file: Path
    directives: tuple[Directive, ...] = ()
    roles: tuple[RoleUse, ...] = ()
    front_matter: dict[str, Any] = field(default_factory=dict)
    problems: tuple[Unreadable, ...] = ()

    def claim_references(self) -> list[RoleUse]:
        return [use for use in self.roles if use.role == "claim"]


@cache
def _parser() -> MarkdownIt:
    return (
        MarkdownIt("commonmark")
        .enable("table")
        .use(front_matter_plugin)
        .use(colon_fence_plugin)
        .use(myst_role_plugin)
    )


def read(path: Path) -> Page:
    """Read one MyST file."""
    return read_text(path.read_text(encoding="utf-8"), path)


def read_text(text: str, path: Path) -> Page:
    """Read the MyST ``text`` of file ``path``."""
    reading = _Reading(path)
    reading.walk(text, 0)
    return Page(
        path,
        tuple(reading.directives),
        tuple(reading.roles),
        reading.front_matter,
        tuple(reading.problems),
    )


def role_targets(text: str) -> list[tuple[int, str, str]]:
    """Every role in a fragment of MyST (a note, say), as (line offset, role, target)."""
    page = read_text(text, Path("<text>"))
    return [(use.line - 1, use.role, use.target) for use in page.roles]


def _role_target(content: str) -> str:
    """``text <target>`` or ``target``: the target."""
    text, _, target = content.partition("<")
    return (target.rstrip(">") if target else text).strip()


class _Reading:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.directives: list[Directive] = []
        self.roles: list[RoleUse] = []
        self.front_matter: dict[str, Any] = {}
        self.problems: list[Unreadable] = []

    def walk(self, text: str, offset: int) -> None:
        """Read ``text``, whose first line is line ``offset + 1`` of the file."""
        for token in _parser().parse(text):
            if token.type == "front_matter" and offset == 0:
                self.front_matter = self.yaml(token.content, offset + 2) or {}
            elif token.type in ("fence", "colon_fence"):
                self.fence(token, offset)
            elif token.type == "inline":
                self.inline(token, offset)

    def yaml(self, text: str, line: int) -> dict[str, Any] | None:
        try:
            found = yaml.safe_load(text)
        except yaml.YAMLError as error:
            self.problems.append(Unreadable(self.path, line, f"not readable as YAML: {error}"))
            return None
        if found is not None and not isinstance(found, dict):
            self.problems.append(Unreadable(self.path, line, "YAML here must be a mapping"))
            return None
        return found

    def fence(self, token: Token, offset: int) -> None:
        match = _DIRECTIVE.match(token.info.strip())
        if not match or token.map is None:
            return  # a code block: an example at most, never read
        start, stop = token.map
        line = offset + start + 1
        lines = token.content.splitlines()
        options, skip = self.options(lines, line + 1)
        body = "\n".join(lines[skip:])
        directive = Directive(
            self.path,
            line,
            match["name"],
            match["argument"],
            options,
            body.strip(),
            offset + stop,
        )
        self.directives.append(directive)
        if directive.name not in LITERAL:
            self.walk(body, line + skip)

    def options(self, lines: list[str], line: int) -> tuple[dict[str, str], int]:
        """The options at the head of a directive's content (``:key: value`` lines, or a YAML
        block between ``---`` lines), and how many lines they take."""
        if lines and lines[0].strip() == "---":
            end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
            if end is None:
                self.problems.append(
                    Unreadable(self.path, line, "a YAML option block never closes")
                )
                return {}, 0
            found = self.yaml("\n".join(lines[1:end]), line + 1) or {}
            return {str(k): _option_text(v) for k, v in found.items()}, end + 1
        options: dict[str, str] = {}
        count = 0
        for text in lines:
            option = _OPTION.match(text)
            if not option:
                break
            options[option["key"]] = option["value"]
            count += 1
        return options, count

    def inline(self, token: Token, offset: int) -> None:
        if token.map is None:
            return
        line = offset + token.map[0] + 1
        for child in token.children or []:
            if child.type in ("softbreak", "hardbreak"):
                line += 1
            elif child.type == "myst_role":
                role = str(child.meta.get("name", ""))
                self.roles.append(RoleUse(self.path, line, role, _role_target(child.content)))


def _option_text(value: object) -> str:
    """An option's value as the text a ``:key: value`` line would give."""
    if isinstance(value, list | tuple):
        return " ".join(str(item) for item in value)
    return "" if value is None else str(value)


def directives_named(page: Page, name: str) -> Iterator[Directive]:
    return (directive for directive in page.directives if directive.name == name)
