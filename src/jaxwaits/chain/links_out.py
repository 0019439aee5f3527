"""The pages of JAX's own documentation the site links to. The build is offline and cannot fetch
them, so each is listed, checked by hand, in ``docs/links-out.toml``; a page that links one the
list lacks, and a listed one no page links any more, are problems (a list, not a crawl)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from jaxwaits.project import Project

FILE = "links-out.toml"
WATCHED = re.compile(r"https://docs\.jax\.dev/[^\s)\]>\"'`]*")
_GENERATED = {"_build", "claim", "apidocs"}  # pages the build writes


def listed(path: Path) -> tuple[set[str], list[str]]:
    """The URLs the list holds, and what is wrong with the file (if it cannot be read)."""
    if not path.exists():
        return set(), []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        links = data.get("link", [])
        urls = {str(link["url"]) for link in links}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, KeyError, TypeError) as error:
        return set(), [f"not a list of [[link]] tables with a url each ({error})"]
    return urls, []


def linked(project: Project) -> dict[str, str]:
    """Each watched URL the pages link, and the first ``file:line`` that does."""
    found: dict[str, str] = {}
    for page in sorted(project.docs.rglob("*.md")):
        if _GENERATED & set(page.relative_to(project.docs).parts[:-1]):
            continue
        where = project.relative(page)
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
            for match in WATCHED.finditer(line):
                found.setdefault(match.group(0).rstrip(".,;:"), f"{where}:{number}")
    return found


def problems(project: Project) -> list[tuple[str, str]]:
    """(where, message) for each link the list lacks and each listed link no page has."""
    path = project.docs / FILE
    urls, unreadable = listed(path)
    if unreadable:
        return [(project.relative(path), message) for message in unreadable]
    pages = linked(project)
    found = [
        (where, f"links {url}, which {FILE} does not list: check it by hand and list it")
        for url, where in sorted(pages.items())
        if url not in urls
    ]
    found += [
        (project.relative(path), f"{url} is linked from no page: take it out of the list")
        for url in sorted(urls - set(pages))
    ]
    return found
