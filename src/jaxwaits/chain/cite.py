"""Links to claims for pasting into a code review, and a check that they resolve in a build."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from urllib.parse import quote, urlsplit

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


def tag(project: Project) -> str:
    """The tag a site release is built from, as its published site names it: the last part of
    its release URL (``v<version>``)."""
    return urlsplit(project.release_url).path.rstrip("/").rsplit("/", 1)[-1]


def from_tag(project: Project) -> bool:
    """Whether this is made from the site release's tag, so that a link pinned to the release
    leads to a published site: on Read the Docs, as its build says (a build of a tag, the tag's
    own); elsewhere, as git says (the checkout's HEAD carries the tag). No git, no tag."""
    built = os.environ.get("READTHEDOCS_VERSION_TYPE")  # branch, tag, external (a pull request)
    if built is not None:
        return built == "tag" and os.environ.get("READTHEDOCS_VERSION") == tag(project)
    try:
        tags = subprocess.run(
            ["git", "-C", str(project.root), "tag", "--points-at", "HEAD"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return tags.returncode == 0 and tag(project) in tags.stdout.split()


def site(project: Project, *, latest: bool = False) -> str:
    """Where links to claims point: this site release, when made from its tag (its page keeps
    showing what it showed when the link was made); else, or with ``latest``, the newest build,
    whose pages move."""
    return project.release_url if not latest and from_tag(project) else project.site_url


def url(project: Project, claim_id: str, *, latest: bool = False) -> str:
    """The claim's page in the site :func:`site` names."""
    return pinned(site(project, latest=latest), claim_id)


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


def local_paths(project: Project) -> list[str]:
    """Paths only the machine that builds has: the checkout's, and this Python's environment
    when it is one of its own (a virtual environment; a system's prefix such as /usr is not)."""
    paths = [str(project.root.resolve())]
    if sys.prefix != sys.base_prefix:
        paths.append(str(Path(sys.prefix).resolve()))
        paths.append(sys.prefix)
    return sorted(set(paths))


CACHE = ".doctrees"  # Sphinx's own cache, kept outside the published output on Read the Docs


def leaked(html: Path, paths: Sequence[str]) -> list[str]:
    """Each file of the site at ``html`` that holds one of ``paths``: a file of the builder's
    (a kernel spec naming its interpreter, a traceback) that a reader would be served."""
    found = re.compile(b"|".join(re.escape(p.encode()) + rb"(?![\w.-])" for p in paths))
    problems = []
    for file in sorted(html.rglob("*")):
        if file.is_file() and CACHE not in file.relative_to(html).parts:
            hit = found.search(file.read_bytes())
            if hit:
                problems.append(
                    f"{file.relative_to(html)}: holds {hit.group().decode()}, a path of the "
                    "machine that built it; it must not be published"
                )
    return problems


def check_site(project: Project, registry: Registry, html: Path) -> list[str]:
    """Every claim's page, anchor and cite link resolves in a built site at ``html``, no page
    shows a claim as failing, and no file holds a path of the machine that built it."""
    problems = [
        f"{page.relative_to(html)}: shows a failing claim; this site must not be published"
        for page in sorted(html.rglob("*.html"))
        if FAILING.search(page.read_text(encoding="utf-8"))
    ]
    problems += leaked(html, local_paths(project))
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
