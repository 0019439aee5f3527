"""Links to claims for pasting into a code review, and a check that they resolve in a build."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from urllib.parse import quote

from jaxwaits.chain import verdicts
from jaxwaits.chain.facts import Facts
from jaxwaits.chain.verdicts import ClaimVerdict, Elsewhere
from jaxwaits.claims.registry import Claim, Registry
from jaxwaits.project import Project

PAGES = "claim"  # each claim's own page: <site>/claim/<id>.html


def page(claim_id: str) -> str:
    """A claim's page, relative to the site."""
    return f"{PAGES}/{claim_id}.html"


def pinned(site: str, claim_id: str) -> str:
    """A claim's page on the site published at ``site`` (ending in a slash)."""
    return f"{site}{page(claim_id)}"


def url(project: Project, claim_id: str, *, latest: bool = False) -> str:
    """The claim's page in this site release (which keeps showing what it showed when the link
    was made), or with ``latest`` in the newest build."""
    return pinned(project.site_url if latest else project.release_url, claim_id)


def markdown(facts: Facts, claim: Claim, *, latest: bool = False) -> str:
    """A Markdown link to the claim, judged on ``facts`` (:func:`link`)."""
    found = verdicts.per_release(facts.judge, facts.universe, facts.ledger, claim)
    others = facts.elsewhere[claim.id]
    return link(claim, found, url(facts.project, claim.id, latest=latest), others)


def link(
    claim: Claim,
    found: Mapping[str, ClaimVerdict],
    target: str,
    others: Sequence[Elsewhere] = (),
) -> str:
    """A Markdown link to ``target``: the claim's ID, statement, what it is limited to along the
    scope axes and the releases it declares, and its verdict on every release (``found``) and on
    each release verified on another backend (``others``); a claim that only another backend can
    show, and no run there verified, says it is not verified."""
    if claim.needs not in (None, "cpu") and not others:
        verified = f"not verified: it needs {claim.needs}, which these checks do not run on"
    elif claim.needs not in (None, "cpu"):
        verified = verdicts.summary_elsewhere(others)
    else:
        verified = verdicts.summary(found, others)
    if claim.releases:
        verified = f"declared to hold {claim.releases}; {verified}"
    limits = claim.scope.limits()
    if limits:
        verified = f"limited to {', '.join(limits)}; {verified}"
    text = f"{_shown(claim.statement)} ({_shown(verified)})"
    return f"[`{claim.id}`: {text}]({quote(target, safe=URL_SAFE)})"


URL_SAFE = ":/?#@!$&'*+,;=%~"  # kept in a link's target; a space, ( ) < > ` [ ] are %-escaped
# A line break or another control character: shown as a space, so a link stays on its line.
BREAKS = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]+")
# In a statement's Markdown: an escaped character, a run of backticks, or what could end or open
# a link in a link's text ([ ] and <, which starts an autolink or raw HTML).
MARKUP = re.compile(r"\\[!-/:-@\[-`{-~]|`+|[\[\]<]")


def _shown(markdown: str) -> str:
    """A statement's Markdown, made safe inside a link's text on one line: its code spans (where
    nothing makes a link) and its escapes as they are; a bracket, a ``<`` and a backtick that
    opens no code span escaped, so that none can end the link, open another or swallow it."""
    text = BREAKS.sub(" ", markdown)
    shown = []
    at = 0
    while found := MARKUP.search(text, at):
        shown.append(text[at : found.start()])
        mark, at = found.group(), found.end()
        if mark.startswith("\\"):
            shown.append(mark)
        elif mark.startswith("`"):
            close = next(
                (m for m in re.finditer("`+", text[at:]) if len(m.group()) == len(mark)), None
            )
            if close is None:
                shown.append("\\`" * len(mark))
            else:
                shown.append(text[found.start() : at + close.end()])
                at += close.end()
        else:
            shown.append("\\" + mark)
    return "".join([*shown, text[at:]])


def _words(text: str) -> list[str]:
    """The words of a text, without markup, punctuation or quote styles."""
    return re.findall(r"[A-Za-z0-9_]+", text)


def _text(page: Path) -> str:
    """The visible text of an HTML page (roughly: tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8")))


# A failing claim's status line, or a mark citing it (not the legend's example of the word).
FAILING = re.compile(r'class="jaxwaits-claim-(status|link) jaxwaits-failing\b')


def check_site(project: Project, registry: Registry, html: Path) -> list[str]:
    """Every claim's page, anchor and cite link resolves in a built site at ``html``, and no page
    shows a claim as failing."""
    problems = [
        f"{page.relative_to(html)}: shows a failing claim; this site must not be published"
        for page in sorted(html.rglob("*.html"))
        if FAILING.search(page.read_text(encoding="utf-8"))
    ]
    for claim in registry.claims.values():
        link = page(claim.id)
        built = html / link
        if not built.is_file():
            problems.append(f"{claim.id}: cite links to {link}, which the build lacks")
        elif " ".join(_words(claim.statement)) not in " ".join(_words(_text(built))):
            problems.append(f"{claim.id}: {link} does not state the claim")
        declared = html / claim.file.relative_to(project.docs).with_suffix(".html")
        text = declared.read_text(encoding="utf-8") if declared.is_file() else ""
        for anchor in (claim.id, *claim.renamed_from):
            if f'id="claim-{anchor}"' not in text:
                problems.append(f"{claim.id}: no anchor #claim-{anchor} on {declared.name}")
        for old in claim.renamed_from:
            if not (html / PAGES / f"{old}.html").is_file():
                problems.append(
                    f"{claim.id}: renamed from {old}, but {PAGES}/{old}.html is missing"
                )
    return problems
