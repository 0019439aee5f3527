"""The packaged claims index and ``cite`` hold against hostile input (issue 37, points 4 and 11):
an index that is damaged or tampered with is refused in one line naming the file, the field and
the claim, and that a reinstall mends it; what ``cite`` prints is one Markdown link, to the
claim's page, whatever a statement holds. (Point 12, ``claims`` where there is no JAX, runs the
installed wheel in ``test_wheel.py``.)"""

from __future__ import annotations

import json
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from jaxwaits import cli
from jaxwaits.chain import cite, facts, packaged
from jaxwaits.claims.registry import Claim
from jaxwaits.project import Project

TARGET = "https://jax-waits.readthedocs.io/en/v0.1.0/claim/says-one.html"


def _claim(statement: str) -> Claim:
    return Claim("says-one", statement, ("one",), None, (), Path("docs/index.md"), 1)


def _links(markdown: str) -> list[str]:
    """The target of every link or image the Markdown makes, and 'html' for raw HTML in it."""
    (paragraph,) = [t for t in MarkdownIt("commonmark").parse(markdown) if t.type == "inline"]
    found = []
    for token in paragraph.children or []:
        if token.type in ("link_open", "image"):
            found.append(str(token.attrGet("href") or token.attrGet("src")))
        elif token.type == "html_inline":
            found.append("html")
    return found


@pytest.mark.parametrize(
    "statement",
    [
        "It holds](https://evil.example/) [and more",
        "It holds [a link](https://evil.example/) of its own",
        "It holds <https://evil.example/> or <img src=x onerror=alert(1)>",
        "It holds\\](https://evil.example/)",  # a backslash that would undo an escape
        "It `holds` ` and one backtick](https://evil.example/)",
        "It holds\n\n[x](https://evil.example/)\r\u2028more",
    ],
)
def test_4_cite_makes_one_link_on_one_line_whatever_the_statement(statement: str) -> None:
    said = cite.link(_claim(statement), {}, TARGET)
    assert "\n" not in said and "\r" not in said and "\u2028" not in said
    assert _links(said) == [TARGET], said


def test_4_cite_keeps_a_statement_s_code_and_escapes_what_a_target_must_not_carry() -> None:
    said = cite.link(_claim("`f(x)[0]` is `y` ([docs])"), {}, "https://site/claim/a b).html")
    assert said.startswith(r"[`says-one`: `f(x)[0]` is `y` (\[docs\]) (")
    assert said.endswith("](https://site/claim/a%20b%29.html)")
    assert _links(said) == ["https://site/claim/a%20b%29.html"]


@pytest.fixture(scope="module")
def written(project: Project) -> dict[str, Any]:
    """The checkout's index, as a wheel carries it."""
    return json.loads(packaged.dumps(packaged.of(facts.load(project))))


def _carrying(
    monkeypatch: pytest.MonkeyPatch, folder: Path, content: str | bytes
) -> Callable[..., tuple[int, str, str]]:
    """``cli.main`` outside any checkout, in a jaxwaits whose package holds ``content`` as its
    claims index (``folder`` stands for the installed package's folder)."""
    index = folder / "package" / packaged.FILE
    index.parent.mkdir()
    index.write_bytes(content.encode() if isinstance(content, str) else content)
    monkeypatch.setattr(packaged, "resources", types.SimpleNamespace(files=lambda _: index.parent))
    (folder / "elsewhere").mkdir()
    monkeypatch.chdir(folder / "elsewhere")

    def main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
        code = cli.main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return main


def _refused(err: str, index: Path, *says: str) -> None:
    """One line naming the file, what is wrong and what to do."""
    (line,) = err.splitlines()
    assert line.startswith(f"jaxwaits: {index}: the packaged claims index cannot be read: ")
    assert line.endswith("; reinstall jaxwaits (pip install --force-reinstall jaxwaits)")
    for said in says:
        assert said in line, line


def _first(written: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    claim_id = sorted(written["claims"])[0]
    return claim_id, written["claims"][claim_id]


HOSTILE: dict[str, tuple[Callable[[dict[str, Any], dict[str, Any]], object], str]] = {
    "a statement that is an object": (
        lambda top, claim: claim.update(statement={"text": "x"}),
        "{claim}statement must be a string, not an object",
    ),
    "a statement on two lines": (
        lambda top, claim: claim.update(statement="It holds.\n[x](https://evil.example/)"),
        "{claim}statement must be one line of text",
    ),
    "a javascript: release URL": (
        lambda top, claim: top.update({"release-url": "javascript:alert(1)//"}),
        "release-url must be an https:// URL of plain characters ending in /",
    ),
    "a site URL that would end the link": (
        lambda top, claim: top.update({"site-url": "https://evil.example/) [x](y/"}),
        "site-url must be an https:// URL",
    ),
    "a release URL on another site": (
        lambda top, claim: top.update({"release-url": "https://evil.example/v0.1.0/"}),
        "release-url 'https://evil.example/v0.1.0/' is not on the site",
    ),
    "a line that is true": (
        lambda top, claim: claim.update(line=True),
        "{claim}line must be a whole number, not true or false",
    ),
    "a device with Markdown": (
        lambda top, claim: claim.update(elsewhere=[["gpu", "0.11.2", "H200](x)", "holds", ""]]),
        "{claim}elsewhere[0] device must be a device's name",
    ),
    "an unknown scope value": (
        lambda top, claim: claim["scope"].update(backend=["cpu", "abacus"]),
        "{claim}scope.backend[1] is no value of the axis: 'abacus'",
    ),
    "a verdict run naming no release": (
        lambda top, claim: claim["verdicts"][0].__setitem__(0, "9.9.9"),
        "{claim}verdicts[0] names a release not in releases",
    ),
    "a since that is no release": (
        lambda top, claim: claim.update(since="0.5.0](https://evil.example/)"),
        "{claim}since must be a release",
    ),
    "a field missing": (
        lambda top, claim: claim.pop("renamed-from"),
        "{claim}renamed-from is missing",
    ),
    "releases that are not a list": (
        lambda top, claim: top.update(releases="0.4.30"),
        "releases must be a list, not a string",
    ),
}


@pytest.mark.parametrize("fault", HOSTILE)
def test_4_a_hostile_packaged_index_is_refused_naming_field_and_claim(
    fault: str,
    written: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    top = json.loads(json.dumps(written))
    claim_id, claim = _first(top)
    edit, says = HOSTILE[fault]
    edit(top, claim)
    main = _carrying(monkeypatch, tmp_path, json.dumps(top))
    index = tmp_path / "package" / packaged.FILE
    for command in (("cite", claim_id), ("claims",)):
        code, out, err = main(capsys, *command)
        assert (code, out) == (2, ""), (command, out, err)
        _refused(err, index, says.format(claim=f"claim {claim_id!r}: "))


def test_4_a_claim_id_that_is_not_kebab_case_is_refused(
    written: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    top = json.loads(json.dumps(written))
    claim_id, _ = _first(top)
    top["claims"]["x](https://evil.example/"] = top["claims"].pop(claim_id)
    main = _carrying(monkeypatch, tmp_path, json.dumps(top))
    code, out, err = main(capsys, "cite", "x](https://evil.example/")
    assert (code, out) == (2, "")
    _refused(err, tmp_path / "package" / packaged.FILE, "a key of claims must be a kebab-case")


def test_4_the_index_as_written_still_reads_and_cites(
    written: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    claim_id, _ = _first(written)
    main = _carrying(monkeypatch, tmp_path, json.dumps(written))
    code, out, _ = main(capsys, "cite", claim_id)
    site = written["release-url"] or written["site-url"]  # no release URL: not from its tag
    assert code == 0 and _links(out) == [f"{site}claim/{claim_id}.html"]


@pytest.mark.parametrize(
    ("fault", "says"),
    [
        ("truncated", "Unterminated string starting at: line"),
        ("not UTF-8", "byte 1 is not UTF-8"),
        ("empty", "Expecting value: line 1 column 1 (char 0)"),
        ("a list", "the file must be an object, not a list"),
        ("another format", "format is 3, not 2: another release wrote it"),
    ],
)
def test_11_a_truncated_or_undecodable_index_is_named_with_its_fix(
    fault: str,
    says: str,
    written: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = json.dumps(written, ensure_ascii=False, indent=1)
    content: str | bytes = {
        "truncated": text[: text.index('"statement"') + 20],
        "not UTF-8": b"{\xff" + text.encode()[1:],
        "empty": "",
        "a list": "[]",
        "another format": text.replace('"format": 2', '"format": 3'),
    }[fault]
    main = _carrying(monkeypatch, tmp_path, content)
    for command in (("cite", "anything"), ("claims",)):
        code, out, err = main(capsys, *command)
        assert (code, out) == (2, ""), (command, err)
        _refused(err, tmp_path / "package" / packaged.FILE, says)
