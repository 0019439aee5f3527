"""The claims index a wheel carries, so that ``cite`` and ``claims`` answer where there is no
checkout (``pip install jaxwaits``): the claims, each one's verdict on every release (CPU) and on
each release verified on another backend, and where the site release is published (if it was
made from the release's tag; else links go to the newest build). ``setup.py``
writes it from the checkout a wheel is built from; in a checkout the command line makes the same
index from the checkout itself, so both print from one kind of value, and a test builds the
wheel and compares what each prints."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jaxwaits import files
from jaxwaits.chain import cite, facts, verdicts
from jaxwaits.chain.verdicts import ClaimVerdict, Elsewhere, Verdict
from jaxwaits.claims import scope
from jaxwaits.claims.registry import ID, Claim, Registry
from jaxwaits.claims.scope import Scope
from jaxwaits.errors import JaxwaitsError
from jaxwaits.project import Project

FILE = "claims.json"  # beside this module in the wheel
FORMAT = 2  # what a reader of the file expects; the writer and the reader are one release
REINSTALL = "reinstall jaxwaits (pip install --force-reinstall jaxwaits)"
# What a field may hold, read from a file that may have been damaged or tampered with: text
# printed on a line of its own or into a Markdown link must not end the line; releases, devices
# and the site's URLs are plain words (no Markdown, no space in a URL), the URLs https:// ones.
ONE_LINE = re.compile(r"[^\x00-\x1f\x7f\x85\u2028\u2029]*")
RELEASE = re.compile(r"[0-9]+(?:\.[0-9A-Za-z]+)*")
DEVICE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]*")
URL = re.compile(r"https://[A-Za-z0-9.-]+(?:/[A-Za-z0-9._~-]+)*/")
AXES = {axis.name: axis for axis in scope.AXES}


@dataclass(frozen=True)
class Index:
    """What ``cite`` and ``claims`` print from; claims' files are relative to the checkout."""

    version: str  # the site release it was made from ([project] version)
    site_url: str
    release_url: str | None  # None where it was not made from the release's tag (cite.from_tag)
    registry: Registry  # the claims alone
    releases: list[str]  # the universe's, oldest first
    verdicts: dict[str, dict[str, ClaimVerdict]]  # claim ID -> release -> verdict (CPU)
    elsewhere: dict[str, list[Elsewhere]]  # claim ID -> its verdicts on other backends

    def site(self, *, latest: bool) -> str:
        """Where links point: this site release, if made from its tag; else, or with ``latest``,
        the newest build."""
        return self.site_url if latest or self.release_url is None else self.release_url


def of(found: facts.Facts) -> Index:
    """The index of a checkout's facts."""
    project = found.project
    claims = {
        claim.id: replace(claim, file=Path(project.relative(claim.file)))
        for claim in found.registry.claims.values()
    }
    return Index(
        project.version,
        project.site_url,
        project.release_url if cite.from_tag(project) else None,
        Registry(claims, (), (), ()),
        found.releases,
        found.verdicts,
        found.elsewhere,
    )


def dumps(index: Index) -> str:
    claims = {
        claim.id: {
            "statement": claim.statement,
            "evidence": list(claim.evidence),
            "rests-on": claim.rests_on,
            "renamed-from": list(claim.renamed_from),
            "file": claim.file.as_posix(),
            "line": claim.line,
            "sources": list(claim.sources),
            "since": claim.since,
            "until": claim.until,
            "scope": {axis: list(values) for axis, values in claim.scope.values},
            "verdicts": [
                [run.first, run.last, run.verdict.verdict.value, run.verdict.why]
                for run in verdicts.spans(index.verdicts[claim.id])
            ],
            "elsewhere": [
                [e.backend, e.release, e.device, e.verdict.verdict.value, e.verdict.why]
                for e in index.elsewhere[claim.id]
            ],
        }
        for claim in sorted(index.registry.claims.values(), key=lambda c: c.id)
    }
    top = {
        "format": FORMAT,
        "version": index.version,
        "site-url": index.site_url,
        "release-url": index.release_url,
        "releases": index.releases,
        "claims": claims,
    }
    return json.dumps(top, ensure_ascii=False, indent=1) + "\n"


def loads(text: str, where: str = FILE) -> Index:
    """The index in ``text`` (read from ``where``); an error naming what is wrong, and that a
    reinstall mends it, if it is not one this release writes."""
    try:
        return _index(json.loads(text))
    except (ValueError, RecursionError) as error:  # not JSON, or not the index (_Invalid)
        raise JaxwaitsError(
            f"{where}: the packaged claims index cannot be read: {error}; {REINSTALL}"
        ) from None


class _Invalid(ValueError):
    """A field of the index that is not what this release writes."""


# What each JSON value is, in words (bool before int: true is no number here).
KINDS = {
    dict: "an object",
    list: "a list",
    str: "a string",
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    type(None): "null",
}


def _field(value: dict[str, Any], key: str, where: str) -> Any:
    if key not in value:
        raise _Invalid(f"{where}{key} is missing")
    return value[key]


def _of(value: object, kind: type, where: str) -> Any:
    if type(value) is not kind:
        raise _Invalid(f"{where} must be {KINDS[kind]}, not {KINDS[type(value)]}")
    return value


def _matching(value: object, pattern: re.Pattern[str], what: str, where: str) -> str:
    text = _of(value, str, where)
    if not pattern.fullmatch(text):
        raise _Invalid(f"{where} must be {what}, not {text[:80]!r}")
    return text


def _line(value: object, where: str) -> str:
    return _matching(value, ONE_LINE, "one line of text", where)


def _release(value: object, where: str) -> str:
    return _matching(value, RELEASE, "a release (0.4.30)", where)


def _optional_release(value: object, where: str) -> str | None:
    return None if value is None else _release(value, where)


def _url(value: object, where: str) -> str:
    return _matching(value, URL, "an https:// URL of plain characters ending in /", where)


def _list(value: object, where: str, each: Callable[[object, str], Any]) -> list[Any]:
    return [each(item, f"{where}[{i}]") for i, item in enumerate(_of(value, list, where))]


def _row(value: object, size: int, where: str) -> list[str]:
    row = _list(value, where, _line)
    if len(row) != size:
        raise _Invalid(f"{where} must hold {size} strings, not {len(row)}")
    return row


def _id(value: object, where: str) -> str:
    return _matching(value, ID, "a kebab-case claim ID", where)


def _index(top: object) -> Index:
    top = _of(top, dict, "the file")
    if _field(top, "format", "") != FORMAT:
        raise _Invalid(f"format is {top['format']!r:.40}, not {FORMAT}: another release wrote it")
    site = _url(_field(top, "site-url", ""), "site-url")
    release = _field(top, "release-url", "")
    if release is not None:
        release = _url(release, "release-url")
    if release is not None and urlsplit(release).netloc != urlsplit(site).netloc:
        raise _Invalid(f"release-url {release!r} is not on the site {site!r}")
    releases = _list(_field(top, "releases", ""), "releases", _release)
    claims: dict[str, Claim] = {}
    found: dict[str, dict[str, ClaimVerdict]] = {}
    others: dict[str, list[Elsewhere]] = {}
    for key, value in _of(_field(top, "claims", ""), dict, "claims").items():
        claim_id = _id(key, "a key of claims")
        where = f"claim {claim_id!r}: "
        value = _of(value, dict, f"{where}its entry")
        claims[claim_id] = _claim(claim_id, value, where)
        found[claim_id] = _verdicts(releases, _field(value, "verdicts", where), f"{where}verdicts")
        others[claim_id] = _elsewhere(_field(value, "elsewhere", where), f"{where}elsewhere")
    version = _release(_field(top, "version", ""), "version")
    return Index(version, site, release, Registry(claims, (), (), ()), releases, found, others)


def _claim(claim_id: str, value: dict[str, Any], where: str) -> Claim:
    def get(key: str) -> Any:
        return _field(value, key, where)

    axes = _of(get("scope"), dict, f"{where}scope")
    for axis, values in axes.items():
        known = AXES.get(axis)
        if known is None:
            raise _Invalid(f"{where}scope names no axis {axis!r} (axes: {', '.join(AXES)})")
        for i, code in enumerate(_of(values, list, f"{where}scope.{axis}")):
            if code not in known.values:
                raise _Invalid(f"{where}scope.{axis}[{i}] is no value of the axis: {code!r}")
    rests_on = get("rests-on")
    return Claim(
        id=claim_id,
        statement=_line(get("statement"), f"{where}statement"),
        evidence=tuple(_list(get("evidence"), f"{where}evidence", _line)),
        rests_on=None if rests_on is None else _line(rests_on, f"{where}rests-on"),
        renamed_from=tuple(_list(get("renamed-from"), f"{where}renamed-from", _id)),
        file=Path(_line(get("file"), f"{where}file")),
        line=_of(get("line"), int, f"{where}line"),
        sources=tuple(_list(get("sources"), f"{where}sources", _line)),
        since=_optional_release(get("since"), f"{where}since"),
        until=_optional_release(get("until"), f"{where}until"),
        scope=Scope(tuple((axis, tuple(values)) for axis, values in axes.items())),
    )


def _verdict(code: str, why: str, where: str) -> ClaimVerdict:
    try:
        return ClaimVerdict(Verdict(code), why)
    except ValueError:
        raise _Invalid(f"{where} names no verdict: {code!r}") from None


def _verdicts(releases: list[str], runs: object, where: str) -> dict[str, ClaimVerdict]:
    """Runs of releases with one verdict (first, last, code, why) as a verdict per release."""
    found = {}
    for i, run in enumerate(_of(runs, list, where)):
        first, last, code, why = _row(run, 4, f"{where}[{i}]")
        if first not in releases or last not in releases:
            raise _Invalid(f"{where}[{i}] names a release not in releases")
        verdict = _verdict(code, why, f"{where}[{i}]")
        found |= dict.fromkeys(releases[releases.index(first) : releases.index(last) + 1], verdict)
    if list(found) != releases:
        raise _Invalid(f"{where}: the runs do not cover the releases, in order")
    return found


def _elsewhere(rows: object, where: str) -> list[Elsewhere]:
    """Verdicts on other backends (backend, release, device, code, why)."""
    found = []
    for i, row in enumerate(_of(rows, list, where)):
        backend, release, device, code, why = _row(row, 5, f"{where}[{i}]")
        if backend not in AXES["backend"].values:
            raise _Invalid(f"{where}[{i}] names no backend: {backend!r}")
        _release(release, f"{where}[{i}] release")
        _matching(device, DEVICE, "a device's name", f"{where}[{i}] device")
        found.append(Elsewhere(backend, release, device, _verdict(code, why, f"{where}[{i}]")))
    return found


def write(project: Project, package: Path) -> Path:
    """Write the checkout's index into the ``jaxwaits`` package below ``package`` (a wheel's
    build folder, an sdist's ``src``)."""
    path = package / "jaxwaits" / "chain" / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    files.write_atomic(path, dumps(of(facts.load(project))))
    return path


def carried() -> Index | None:
    """The index this installed jaxwaits carries (None where it carries none: a checkout's
    source, an editable install)."""
    found = resources.files(__package__) / FILE
    try:
        data = found.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise JaxwaitsError(f"{found}: cannot be read ({error.strerror}); {REINSTALL}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise JaxwaitsError(
            f"{found}: the packaged claims index cannot be read: byte {error.start} is not "
            f"UTF-8; {REINSTALL}"
        ) from None
    return loads(text, str(found))
