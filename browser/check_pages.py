"""Open the built site's key pages in headless Chromium, as a reader would, at a desktop and a
phone width, and fail on what a reader would be let down by:

- content wider than its column that is not inside a box of its own that scrolls;
- a verification matrix narrower than the page (too few of its columns in view);
- a claim box without a visible status badge;
- a serious or critical axe-core violation in the site's own markup (the article).

Each page's screenshot goes to ``docs/_build/screenshots/<page>-<width>.png`` for a reviewer.
Run by ``nox -s browser`` after ``nox -s docs`` (it installs Selenium, axe-core from npm and,
where missing, Debian's chromium and chromium-driver):
``python browser/check_pages.py docs/_build/html AXE_JS``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.wait import WebDriverWait

PAGES = (
    "index",
    "review",
    "method",
    "sharded",
    "poll",
    "order",
    "wrapper",
    "tracers",
    "effects",
    "host",
    "claims",
    "matrix",
    "changes",
    "claim/returns-self",
    "source/index",
    "source/api.block_until_ready",
)
WIDTHS = (1440, 420)
HEIGHT = 1000

LOADED = "return document.readyState === 'complete' && !!document.querySelector('.bd-article');"

# Every element of the article whose right edge passes the article's, unless an ancestor inside
# the article clips or scrolls it (a table in its own scrolling box is fine).
OVERFLOW = """
const article = document.querySelector('.bd-article');
if (!article) return ['the page has no article (.bd-article)'];
const edge = article.getBoundingClientRect().right + 1;
const scrolls = (e) => ['auto', 'scroll', 'hidden'].includes(getComputedStyle(e).overflowX);
const found = [];
for (const e of article.querySelectorAll('*')) {
  if (e.getBoundingClientRect().right <= edge || e.getClientRects().length === 0) continue;
  let a = e.parentElement, held = false;
  while (a && a !== article) { if (scrolls(a)) { held = true; break; } a = a.parentElement; }
  if (!held) found.push(e.tagName.toLowerCase() + '.' + [...e.classList].join('.') + ': '
                       + (e.textContent || '').trim().slice(0, 60));
}
return found.filter((x, i) => found.indexOf(x) === i).slice(0, 10);
"""

# Claim boxes whose badge is missing or not drawn.
UNBADGED = """
return [...document.querySelectorAll('.jaxwaits-claim')].filter((box) => {
  const badge = box.querySelector('.jaxwaits-badge');
  if (!badge) return true;
  const r = badge.getBoundingClientRect(), s = getComputedStyle(badge);
  return r.width === 0 || r.height === 0 || s.visibility === 'hidden' || s.display === 'none';
}).map((box) => box.id);
"""

# How many of the matrix's columns show without scrolling (it takes the page's whole width).
MATRIX_COLUMNS = """
const table = document.querySelector('table.jaxwaits-matrix');
if (!table) return null;
let box = table.parentElement;
const scrolls = (e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
while (box && !scrolls(box)) box = box.parentElement;
const right = (box || table).getBoundingClientRect().right + 1;
return [...table.querySelectorAll('thead tr:last-child th')]
  .filter((th) => th.getBoundingClientRect().right <= right).length;
"""
SHOWN = {1440: 8, 420: 3}  # the claim column and the newest releases

AXE = """
const done = arguments[arguments.length - 1];
axe.run(document.querySelector('.bd-article'), {resultTypes: ['violations']})
  .then((r) => done(r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ' (' + v.impact + '): ' + v.help + ' — '
         + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))))
  .catch((e) => done(['axe failed: ' + e]));
"""


def browser(width: int) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{HEIGHT}")
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def check(html: Path, axe: str, shots: Path) -> list[str]:
    """Every problem found, as ``page @ width: what``."""
    problems = []
    for width in WIDTHS:
        driver = browser(width)
        try:
            for page in PAGES:
                driver.get((html / f"{page}.html").resolve().as_uri())
                where = f"{page}.html @ {width} px"
                try:
                    WebDriverWait(driver, 30).until(lambda d: d.execute_script(LOADED))
                except TimeoutException:
                    problems.append(f"{where}: the page did not load within 30 s")
                    continue
                for found in driver.execute_script(OVERFLOW):
                    problems.append(f"{where}: wider than its column, not scrollable: {found}")
                shown = driver.execute_script(MATRIX_COLUMNS)
                if shown is not None and shown < SHOWN[width]:
                    problems.append(
                        f"{where}: the matrix shows {shown} columns without scrolling, "
                        f"fewer than {SHOWN[width]}: does it take the page's whole width?"
                    )
                for box in driver.execute_script(UNBADGED):
                    problems.append(f"{where}: claim box #{box} shows no status badge")
                driver.execute_script(axe)
                for violation in driver.execute_async_script(AXE):
                    problems.append(f"{where}: {violation}")
                name = page.replace("/", "-")
                driver.save_screenshot(str(shots / f"{name}-{width}.png"))
        finally:
            driver.quit()
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", type=Path, help="the built site")
    parser.add_argument("axe", type=Path, help="axe.min.js")
    args = parser.parse_args()
    shots = args.html.parent / "screenshots"
    shots.mkdir(exist_ok=True)
    problems = check(args.html, args.axe.read_text(encoding="utf-8"), shots)
    print("\n".join(problems) or f"{len(PAGES)} pages at {WIDTHS} px: nothing clipped")
    print(f"screenshots in {shots}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
