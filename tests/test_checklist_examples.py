"""The review checklist's examples are checked as pylint checks its good and bad examples: each
item of docs/review.md shows a wrong example in an admonition titled ``Wrong (JW1xx)`` and its
twin titled ``Right``; `jaxwaits review`, given each alone as the page shows it (suppression
comments left out), finds exactly the named rule, a rule of that item, in the wrong one and
nothing in the right one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from markdown_it.renderer import RendererHTML
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.mdit import create_md_parser

from harnesscheck import review
from harnesscheck.rules import RULES
from jaxwaits.sphinxext.shown_code import shown

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "review.md"

# Items that no rule of the review finds: the page says so, and titles their wrong example
# "Wrong (no rule)"; the test checks that the review indeed finds nothing there.
NO_RULE = {"review-one-process-of-several"}
# Rules whose mistake no item shows, each with why.
NOT_SHOWN = {
    "JW100": "the review's own rule (a suppression that silences nothing), no checklist item",
    "JW107": "no claim of the site shows a NumPy input copied to the device, so no item says it",
}

TITLE = re.compile(r"\{admonition\} (?:(Right)|Wrong \((JW\d{3}|no rule)\))")
ITEM = re.compile(r"\d+\. ")  # a numbered heading: an item of the checklist


@dataclass(frozen=True)
class Example:
    item: str  # the anchor of the section it is in
    line: int  # its admonition's first line on the page
    title: str  # "Wrong (JW103)", "Wrong (no rule)", "Right"
    rule: str  # the rule a wrong one names; "" for a right one and for "no rule"
    code: str  # as the page shows it

    @property
    def wrong(self) -> bool:
        return self.title.startswith("Wrong")


def examples(page: str) -> tuple[list[str], list[Example]]:
    """The page's numbered items (their anchors) and every Wrong and Right example, in order."""
    parse = create_md_parser(MdParserConfig(enable_extensions={"colon_fence"}), RendererHTML).parse
    tokens = parse(page)
    items: list[str] = []
    found: list[Example] = []
    anchor = ""
    for i, token in enumerate(tokens):
        if token.type == "myst_target":
            anchor = token.content
            if ITEM.match(tokens[i + 2].content):  # heading_open, then its text
                items.append(anchor)
        title = TITLE.fullmatch(token.info.strip()) if token.type == "colon_fence" else None
        if title and token.map:
            fences = [t for t in parse(token.content) if t.type == "fence"]
            assert [f.info for f in fences] == ["python"], (token.map[0] + 1, token.info)
            name = token.info.removeprefix("{admonition}").strip()
            rule = (title.group(2) or "").removeprefix("no rule")
            found.append(Example(anchor, token.map[0] + 1, name, rule, shown(fences[0].content)))
    return items, found


def found_in(example: Example, folder: Path) -> list[str]:
    """The rules `jaxwaits review` finds in the example, alone in a file of its own."""
    folder.mkdir()
    path = folder / "example.py"
    path.write_text(example.code)
    return sorted({found.finding.rule for found in review.review([path], set(RULES)).findings})


def problems(page: str, tmp_path: Path) -> list[str]:
    """What does not hold of the page's examples, one line each."""
    items, shown_examples = examples(page)
    said: list[str] = []
    for n, example in enumerate(shown_examples):
        where = f"review.md:{example.line} ({example.item}) {example.title}"
        if example.rule and RULES[example.rule].anchor != example.item:
            said.append(f"{where}: {example.rule} links {RULES[example.rule].anchor}")
        found = found_in(example, tmp_path / str(n))
        expected = [example.rule] if example.rule else []
        if found != expected:
            said.append(
                f"{where}: the review finds {found or 'nothing'}, not {expected or 'nothing'}"
            )
        twin = shown_examples[n + 1 : n + 2]
        if example.wrong and not (
            twin and twin[0].title == "Right" and twin[0].item == example.item
        ):
            said.append(f"{where}: no Right twin follows it")
    for item in items:
        wrong = [e for e in shown_examples if e.item == item and e.wrong]
        if not wrong:
            said.append(f"{item}: no wrong example and right twin")
        elif not any(e.rule for e in wrong) and item not in NO_RULE:
            said.append(f"{item}: no rule finds its wrong example, and it is not in NO_RULE")
        elif any(e.rule for e in wrong) and item in NO_RULE:
            said.append(f"{item}: a rule finds its wrong example: take it out of NO_RULE")
    unshown = set(RULES) - {e.rule for e in shown_examples} - set(NOT_SHOWN)
    said += [
        f"{code}: no item shows its mistake, and it is not in NOT_SHOWN" for code in sorted(unshown)
    ]
    return said


def test_each_wrong_example_is_found_by_its_items_rule_and_each_right_twin_is_silent(
    tmp_path: Path,
) -> None:
    assert problems(PAGE.read_text(encoding="utf-8"), tmp_path) == []


OLD_ITEM_3 = """\
step = jax.jit(train_step)
jax.block_until_ready(step(params, batch))  # compiled, outside the timing
start = time.perf_counter()
loss, new_params = step(params, batch)
loss.block_until_ready()  # new_params may still be computing
elapsed = time.perf_counter() - start
"""


def test_a_wrong_example_that_is_right_is_reported(tmp_path: Path) -> None:
    """Item 3 once showed one output of a single jitted step blocked, which waits for the whole
    step (``block-the-whole-step``): no rule finds it, and the check says so."""
    page = PAGE.read_text(encoding="utf-8")
    _, shown_examples = examples(page)
    (wrong,) = [e for e in shown_examples if e.rule == "JW103"]
    fence = page.splitlines(keepends=True)[wrong.line + 2 :]  # after :class: and ```python
    end = fence.index("```\n")
    old = page.replace("".join(fence[:end]), OLD_ITEM_3)
    assert problems(old, tmp_path) == [
        f"review.md:{wrong.line} (review-one-output-of-several) Wrong (JW103): "
        "the review finds nothing, not ['JW103']"
    ]


def test_the_loop_that_measures_right_is_one_click_from_the_timing_answers() -> None:
    """The "0.1 ms" answer and checklist item 1 link the loop itself (a Right example above)."""
    for page, anchor in [
        ("questions.md", "q-instantly-fast"),
        ("review.md", "review-timing-without-blocking"),
    ]:
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        section = text.split(f"({anchor})=\n", 1)[1].split(")=\n", 1)[0]
        assert "{ref}`review-a-sound-loop`" in section, page
