"""Where findings link: the jax-waits site release the installed jaxwaits wheel was made from
(read as data from the claims index it carries, ``jaxwaits/chain/claims.json``: its
``release-url`` where the wheel was made from the release's tag), else the newest build. The
checker never imports the site's package for it: it finds the file and reads two fields."""

from __future__ import annotations

import functools
import importlib.util
import json
import re
from pathlib import Path

from harnesscheck.errors import ReviewError

# The newest build of the site; kept equal to [tool.jaxwaits] site-url (a test).
SITE_URL = "https://jax-waits.readthedocs.io/en/latest/"
INDEX = Path("chain", "claims.json")  # in the jaxwaits package, where its wheel puts it
FORMAT = 2  # the index's format this reader knows (jaxwaits.chain.packaged.FORMAT; a test)
CLAIM_PAGES = "claim"  # each claim's own page: <site>/claim/<id>.html (jaxwaits.chain.cite)
URL = re.compile(r"https://[A-Za-z0-9.-]+(?:/[A-Za-z0-9._~-]+)*/")
REINSTALL = "reinstall jaxwaits (pip install --force-reinstall jaxwaits)"


@functools.cache
def site() -> str:
    """The site findings link to (read once)."""
    path = index_path()
    if path is None:
        return SITE_URL
    try:
        data = path.read_bytes()
    except FileNotFoundError:  # a checkout's source, an editable install: no index
        return SITE_URL
    except OSError as error:
        raise ReviewError(f"{path}: cannot be read ({error.strerror}); {REINSTALL}") from None
    return site_of(data, path)


def index_path() -> Path | None:
    """Where the installed jaxwaits keeps its claims index (None: no jaxwaits installed)."""
    spec = importlib.util.find_spec("jaxwaits")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / INDEX


def site_of(data: bytes, path: Path) -> str:
    """The site named by the claims index ``data`` (read from ``path``): its release's, where
    it names one, else the newest build's; an error that says a reinstall mends it when the
    file is not an index this reader knows."""
    try:
        top = json.loads(data.decode("utf-8"))
        if not isinstance(top, dict) or top.get("format") != FORMAT:
            raise ValueError(f"not format {FORMAT}")
        release = top.get("release-url")
        chosen = top.get("site-url") if release is None else release
        if not isinstance(chosen, str) or not URL.fullmatch(chosen):
            raise ValueError("its site URL is not an https:// URL ending in /")
        return chosen
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise ReviewError(
            f"{path}: the packaged claims index cannot be read: {error}; {REINSTALL}"
        ) from None


def claim_url(claim_id: str) -> str:
    """A claim's page on the site findings link to."""
    return f"{site()}{CLAIM_PAGES}/{claim_id}.html"
