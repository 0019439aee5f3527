"""A review's findings as text, a pull-request comment (markdown), GitHub workflow annotations,
SARIF 2.1.0 for code scanning, or JSON. Every finding links its checklist item and claims: on the
site release of this jaxwaits where its wheel was made from the release's tag, as ``cite`` links;
else on the newest build.

Nothing that comes from the files reviewed (their names, the code a message quotes, a parser's
error) is shown raw: a line of text or Markdown holds no line break or escape character, and no
format holds what a GitHub log takes for a workflow command (``::`` at the start of a line,
``##[`` anywhere), since the Action prints each in its log; in Markdown a name is a code span, so
it makes no link, HTML or mention; an annotation's properties and message are escaped as GitHub
reads them."""

from __future__ import annotations

import enum
import json
import re
from importlib import metadata
from pathlib import Path
from urllib import parse

from harnesscheck.results import Located, Review
from harnesscheck.results.links import claim_url, site
from harnesscheck.rules import RULES, Rule
from harnesscheck.sources import named


class Format(enum.Enum):
    TEXT = "text"
    MARKDOWN = "markdown"
    GITHUB = "github"
    SARIF = "sarif"
    JSON = "json"


def checklist_url(rule: Rule) -> str:
    """The checklist item that states the rule; for a rule of the review's own (JW100), its
    section of the review-tool page."""
    if not rule.anchor:
        return f"{site()}review-tool.html#rule-{rule.code.lower()}"
    return f"{site()}review.html#{rule.anchor}"


def where(found: Located, root: Path) -> str:
    path = named(_relative(found.path, root))
    cell = f" (cell {found.cell})" if found.cell is not None else ""
    return f"{path}:{found.finding.line}:{found.finding.col}{cell}"


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def render(review: Review, form: Format, root: Path) -> str:
    return {
        Format.TEXT: _text,
        Format.MARKDOWN: _markdown,
        Format.GITHUB: _github,
        Format.SARIF: _sarif,
        Format.JSON: _json,
    }[form](review, root)


def _text(review: Review, root: Path) -> str:
    lines = []
    for found in review.findings:
        rule = RULES[found.finding.rule]
        lines.append(f"{where(found, root)} {rule.code} {_plain(found.finding.message)}")
        lines.append(f"    see {checklist_url(rule)}")
    lines += [_plain(note) for note in review.notes]
    lines += [_plain(problem) for problem in review.unreadable]
    lines.append(f"{_count(len(review.findings), 'finding')} in {_count(review.files, 'file')}")
    return "\n".join(lines)


def _plain(text: str) -> str:
    """Text on one line of a report: a character that is not printable as Python writes it in a
    string (``\\n``), and ``##[``, a command to a GitHub log anywhere in a line, as ``#\\x23[``."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return shown.replace("##[", "#\\x23[")


def _markdown(review: Review, root: Path) -> str:
    if not review.findings and not review.unreadable and not review.notes:
        return f"**jaxwaits review**: nothing found in {_count(review.files, 'file')}."
    found = f"{_count(len(review.findings), 'finding')} in {_count(review.files, 'file')}"
    lines = [f"**jaxwaits review**: {found}.", ""]
    by_file: dict[str, list[Located]] = {}
    for found in review.findings:
        by_file.setdefault(_relative(found.path, root), []).append(found)
    for path, found_here in by_file.items():
        lines += [f"### {_code(named(path))}", ""]
        for found in found_here:
            rule = RULES[found.finding.rule]
            claims = ", ".join(f"[`{c}`]({claim_url(c)})" for c in rule.claims)
            cell = f"cell {found.cell}, " if found.cell is not None else ""
            lines.append(
                f"- {cell}line {found.finding.line}: **{rule.code}** "
                f"{_inert(found.finding.message)}. "
                f"[Checklist]({checklist_url(rule)}); claims: {claims}."
            )
        lines.append("")
    lines += [f"- note: {_code(note)}" for note in review.notes]
    lines += [f"- could not read: {_code(problem)}" for problem in review.unreadable]
    return "\n".join(lines).rstrip() + "\n"


def _code(text: str) -> str:
    """Text as a Markdown code span, where nothing is a link, HTML or a mention: its fence is
    longer than any run of backticks in it."""
    text = _plain(text)
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text[:1] in ("`", " ") or text[-1:] in ("`", " ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _inert(text: str) -> str:
    """A message as Markdown: what it quotes between backticks as code spans, the rest with
    the marks that make code, emphasis, links, HTML or tables escaped."""
    parts = _plain(text).split("`")
    if len(parts) % 2 == 0:  # a backtick with no pair: none is a code span
        parts = ["`".join(parts)]
    return "".join(
        (_code(part) if part else "") if i % 2 else re.sub(r"([\\`*_\[\]<>&|~$])", r"\\\1", part)
        for i, part in enumerate(parts)
    )


def _github(review: Review, root: Path) -> str:
    lines = []
    for found in review.findings:
        rule = RULES[found.finding.rule]
        message = f"{found.finding.message} ({checklist_url(rule)})"
        lines.append(
            f"::warning file={_property(_relative(found.path, root))},line={found.finding.line},"
            f"col={found.finding.col},title={_property(f'{rule.code} {rule.name}')}"
            f"::{_escape(message)}"
        )
    lines += [f"::notice::{_escape(note)}" for note in review.notes]
    lines += [f"::error::{_escape(problem)}" for problem in review.unreadable]
    return "\n".join(lines)


def _escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value (a file name): its `,` and `:` end it, unescaped."""
    return _escape(text).replace(":", "%3A").replace(",", "%2C")


def _sarif(review: Review, root: Path) -> str:
    rules = [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "helpUri": checklist_url(rule),
            "help": {
                "text": f"{rule.summary}. Claims: " + ", ".join(claim_url(c) for c in rule.claims)
            },
        }
        for rule in RULES.values()
    ]
    index = {code: i for i, code in enumerate(RULES)}
    results = [
        {
            "ruleId": found.finding.rule,
            "ruleIndex": index[found.finding.rule],
            "level": "warning",
            "message": {"text": found.finding.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": parse.quote(_relative(found.path, root))},
                        "region": {
                            "startLine": found.finding.line,
                            "startColumn": found.finding.col,
                        },
                    }
                }
            ],
        }
        for found in review.findings
    ]
    notifications = [
        {"level": level, "message": {"text": text}}
        for level, said in (("note", review.notes), ("error", review.unreadable))
        for text in said
    ]
    run: dict[str, object] = {
        "tool": {
            "driver": {
                "name": "jaxwaits review",
                "version": metadata.version("jaxwaits"),
                "informationUri": f"{site()}review-tool.html",
                "rules": rules,
            }
        },
        "results": results,
    }
    if notifications:
        run["invocations"] = [
            {
                "executionSuccessful": not review.unreadable,
                "toolExecutionNotifications": notifications,
            }
        ]
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    return dumps(document)


def dumps(document: object) -> str:
    """JSON that a GitHub log takes for no command: ``##[`` in a string is ``#\\u0023[``."""
    return json.dumps(document, indent=2).replace("##[", "#\\u0023[")


def _json(review: Review, root: Path) -> str:
    return dumps(
        {
            "files": review.files,
            "findings": [
                {
                    "path": _relative(found.path, root),
                    "line": found.finding.line,
                    "column": found.finding.col,
                    "cell": found.cell,
                    "code": rule.code,
                    "rule": rule.name,
                    "message": found.finding.message,
                    "checklist": checklist_url(rule),
                    "claims": [claim_url(c) for c in rule.claims],
                }
                for found in review.findings
                for rule in [RULES[found.finding.rule]]
            ],
            "unreadable": review.unreadable,
            "notes": review.notes,
        }
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
