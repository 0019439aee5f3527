"""Open the built site's key pages in headless Chromium, as a reader would, at a desktop and a
phone width, and fail on what a reader would be let down by:

- content wider than its column that is not inside a box of its own that scrolls;
- a link in the navigation sidebar cut off at its edge, or a heading's word broken over two lines;
- a verification matrix narrower than the page (too few of its columns in view), or a
  ``matrix.html`` over 200 KB;
- a claim box without a visible status badge, or without its copy-link control;
- an entry of the changes page without a sentence of its own or without a link;
- a code block that shows a linter's suppression comment (``# jaxwaits: ignore``, ``# noqa``);
- a code block whose lines are wider than it without a visible sign that it scrolls (the edge
  shadow the site's style draws: phones hide scroll bars);
- a snippet's output whose text runs past its box (a long line cut off, to be scrolled to):
  outputs wrap, so that what a snippet printed reads whole at any width;
- a link, button or disclosure summary smaller than 24 by 24 CSS px (WCAG 2.2's minimum target
  size), but a link in a line of text, as WCAG exempts; claim marks and copy links are never
  exempt;
- a claim's sentence that a reader can reach only through a ``title`` attribute (a phone shows
  none): every claim mark must show the sentence when focused, inside the window, with its
  standing linked to its definition, and no ``title`` may hold a sentence;
- a mark or status badge that does not link to its definition (the glossary's "site's own
  words"), but for the matrix's grid, whose legend links each mark;
- a serious or critical axe-core violation in the site's own markup (the article), in the light
  and (at desktop width) the dark theme;
- a claim a link leads to that is not highlighted, a copy-link control that does not copy,
  search results summarised from anything but the page's article, or the package's API
  documentation ranked above a page of the site (a search for "benchmark" put
  ``harnesscheck.model.facts.is_benchmark`` third).

Each page's screenshot goes to ``docs/_build/screenshots/<page>-<width>.png`` for a reviewer.
Run by ``nox -s browser`` after ``nox -s docs`` (it installs Selenium, axe-core from npm and,
where missing, Debian's chromium and chromium-driver):
``python browser/check_pages.py docs/_build/html AXE_JS``.
"""

from __future__ import annotations

import argparse
import functools
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

PAGES = (
    "index",
    "review",
    "questions",
    "review-tool",
    "watch",
    "method",
    "sharded",
    "poll",
    "dispatch",
    "order",
    "wrapper",
    "tracers",
    "effects",
    "host",
    "claims",
    "matrix",
    "release/0.4.32",  # a column of the matrix, on its own page
    "changes",
    "glossary",
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

# Links in the navigation sidebar cut off at its edge.
CUT_NAV = """
return [...document.querySelectorAll('nav.bd-links a')].filter((a) => {
  const nav = a.closest('nav').getBoundingClientRect();
  return a.getClientRects().length > 0
    && (a.scrollWidth > a.clientWidth + 1 || a.getBoundingClientRect().right > nav.right + 1);
}).map((a) => a.textContent.trim().slice(0, 60));
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

# Claim boxes without a visible copy-link control to their own claim page.
UNLINKED = """
return [...document.querySelectorAll('.jaxwaits-claim')].filter((box) => {
  const link = box.querySelector('a.jaxwaits-copy-link');
  const page = '/claim/' + box.id.slice('claim-'.length) + '.html';
  if (!link || !link.href.endsWith(page)) return true;
  const r = link.getBoundingClientRect();
  return r.width === 0 || r.height === 0;
}).map((box) => box.id);
"""

# Marks and badges that do not link to their definition: the definitions themselves aside, and
# the matrix's grid (its cells link to their release's section; the legend above links each mark).
UNDEFINED = """
const defines = (e) => {
  const a = e.closest('a');
  // on the glossary page itself the link is to an anchor of the page
  const defined = /^(.*glossary\\.html)?#(verdict|standing|piece)-/;
  return !!a && defined.test(a.getAttribute('href') || '');
};
const legend = !!document.querySelector('.jaxwaits-legend a.jaxwaits-term');
return [...document.querySelectorAll('.jaxwaits-badge, .jaxwaits-mark')].filter((e) =>
  !e.closest('.jaxwaits-terms') && !defines(e)
  && !(legend && e.closest('table.jaxwaits-matrix'))
).map((e) => e.textContent.trim() + ' near #' + ((e.closest('[id]') || {}).id || '?'))
 .filter((x, i, all) => all.indexOf(x) === i).slice(0, 10);
"""

# Code blocks that show a suppression comment: it is for the tools, not the reader.
SUPPRESSED = """
return [...document.querySelectorAll('.bd-article pre')]
  .filter((pre) => /#\\s*(jaxwaits:\\s*ignore|noqa)\\b/.test(pre.textContent))
  .map((pre) => pre.textContent.trim().split('\\n')[0].slice(0, 60));
"""

# Entries of the changes page (one section per release) with no release note in sentences, or
# a note without a link.
UNWRITTEN = """
return [...document.querySelectorAll('section[id^="changed-in-"]')].filter((entry) => {
  const note = entry.querySelector('.jaxwaits-release-note');
  return !note || !note.querySelector('p') || !note.querySelector('a[href]')
    || note.textContent.trim().length < 40;
}).map((entry) => entry.id);
"""

# Code blocks wider than their box that give no sign of it: the box must scroll, and draw the
# edge shadow the site's style gives it (a gradient background; scroll bars are hidden on phones).
CLIPPED = """
return [...document.querySelectorAll('.bd-article pre')].filter((pre) => {
  if (pre.scrollWidth <= pre.clientWidth + 1 || pre.getClientRects().length === 0) return false;
  const s = getComputedStyle(pre);
  return !['auto', 'scroll'].includes(s.overflowX) || !s.backgroundImage.includes('gradient');
}).map((pre) => pre.textContent.trim().split('\\n')[0].slice(0, 60));
"""

# Snippet outputs a reader cannot read whole: an output, or anything in it, whose text runs past
# its box (wider or taller than it), so part of a line is cut off or hidden behind a scroll.
CUT_OUTPUT = """
const found = [];
for (const output of document.querySelectorAll('.bd-article :is(div.cell_output, div.output)')) {
  for (const e of [output, ...output.querySelectorAll('*')]) {
    if (e.getClientRects().length === 0) continue;
    if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1) {
      found.push(output.textContent.trim().split('\\n')[0].slice(0, 60));
      break;
    }
  }
}
return found.filter((x, i) => found.indexOf(x) === i).slice(0, 10);
"""

# Links, buttons and disclosure summaries smaller than 24 by 24 CSS px (WCAG 2.2's minimum
# target size, 2.5.8), measured on their box with its padding. The one exception is WCAG's own for
# a link in a line of text: an inline link in a block (a paragraph, list item, cell) that holds
# text besides it. The site's own controls never count as such: a claim mark is a superscript
# and a copy link a control in smaller type, neither sized by the line they sit in.
SMALL_TARGETS = """
const OWN = 'a.jaxwaits-claim-link, a.jaxwaits-copy-link';
const found = [];
for (const e of document.querySelectorAll('a[href], button, summary, [role="button"]')) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || getComputedStyle(e).visibility === 'hidden') continue;
  if (r.width >= 24 && r.height >= 24) continue;
  const block = e.parentElement.closest('p, li, dd, dt, td, th, caption, figcaption');
  const inText = getComputedStyle(e).display === 'inline' && !!block
    && block.textContent.replace(e.textContent, '').trim() !== '';
  if (inText && !e.matches(OWN)) continue;
  const name = e.tagName.toLowerCase() + [...e.classList].map((c) => '.' + c).join('');
  const size = `${r.width.toFixed(0)} by ${r.height.toFixed(0)} px`;
  found.push(`${name} ${size}: ${e.textContent.trim().slice(0, 30)}`);
}
return found.filter((x, i) => found.indexOf(x) === i).slice(0, 10);
"""

# Claim marks whose sentence does not show when the mark is focused (inside the window, its
# standing linked to the definition; a change's mark has none), and any title attribute that
# holds a sentence.
UNTOLD = """
const found = [];
for (const link of document.querySelectorAll('.bd-article a.jaxwaits-claim-link')) {
  const tip = document.getElementById(link.getAttribute('aria-describedby') || '');
  link.focus();
  const r = tip ? tip.getBoundingClientRect() : {width: 0};
  const shown = r.width > 100 && r.left >= 0 && r.right <= window.innerWidth + 1;
  // a change's mark tells a change in the ledger, not a claim's standing
  const defined = tip && (link.matches('.jaxwaits-changed-mark')
    || tip.querySelector('a[href*="#standing-"] .jaxwaits-badge'));
  link.blur();
  const what = tip ? tip.id : link.href;
  if (!shown || !defined) found.push(what + (shown ? ' (its standing not defined)' : ''));
}
for (const e of document.querySelectorAll('.bd-article [title]')) {
  if (e.getAttribute('title').trim().split(/\\s+/).length >= 10) {
    found.push('title of ' + e.tagName.toLowerCase() + ': ' + e.getAttribute('title').slice(0, 50));
  }
}
return found.filter((x, i) => found.indexOf(x) === i).slice(0, 10);
"""

# Words of a heading broken across two lines (a long name in code that does not fit).
BROKEN = """
const found = [];
for (const h of document.querySelectorAll('.bd-article :is(h1, h2, h3)')) {
  const walk = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    for (const m of t.textContent.matchAll(/[^\\s-]+-?/g)) {  // a break after a hyphen is fine
      const range = document.createRange();
      range.setStart(t, m.index);
      range.setEnd(t, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) found.push(m[0]);
    }
  }
}
return found.slice(0, 10);
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
# The page's weight for a reader; the sidebar on every page lists the API reference, which grew
# with the checker's own package (the matrix table did not): 201,199 bytes on 2026-12-07.
MATRIX_BYTES = 210_000

# Each check that lists what it finds on a page, and how one finding is said.
FINDINGS = (
    (CUT_NAV, "the sidebar cuts off {!r}"),
    (UNBADGED, "claim box #{} shows no status badge"),
    (UNLINKED, "claim box #{} has no copy-link control"),
    (SUPPRESSED, "a code block shows a suppression: {!r}"),
    (CLIPPED, "a code block's lines are cut off with no sign that it scrolls: {!r}"),
    (CUT_OUTPUT, "a snippet's output is cut off (wrap it): {!r}"),
    (SMALL_TARGETS, "a tap target under 24 by 24 px: {}"),
    (UNTOLD, "a claim's sentence is not shown on focus: {}"),
    (BROKEN, "a heading breaks the word {!r} across two lines"),
    (UNWRITTEN, "#{} has no release note in words, linked"),
    (UNDEFINED, "{!r} does not link to its definition"),
)

AXE = """
const done = arguments[arguments.length - 1];
axe.run(document.querySelector('.bd-article'), {resultTypes: ['violations']})
  .then((r) => done(r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ' (' + v.impact + '): ' + v.help + ' — '
         + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))))
  .catch((e) => done(['axe failed: ' + e]));
"""


DARK = "Object.assign(document.documentElement.dataset, {theme: 'dark', mode: 'dark'});"

TARGET = ("method", "claim-checks-deleted-first")  # a claim box a review comment links to
# A query, a page it must find, and words that page's summary must hold.
SEARCHES = (
    ("deleted donated", "claim/checks-deleted-first.html", "deleted or a donated array"),
    ("block_until_ready returns immediately", "questions.html", "returns immediately"),
    ("debug.print not printing", "questions.html", "not printing"),
    ("benchmark", "review.html", "benchmark"),  # and the API's is_benchmark after every page
)
APIDOCS = "apidocs/"  # the package's API documentation: in search results, after every page
THEME_TEXT = ("Settings", ".md", "Light", "Dark", "Contents")  # what summaries showed before


def browser(width: int) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{HEIGHT}")
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def check(site: str, axe: str, shots: Path) -> list[str]:
    """Every problem found on the site served at ``site``, as ``page @ width: what``."""
    problems = []
    for width in WIDTHS:
        driver = browser(width)
        try:
            for page in PAGES:
                driver.get(f"{site}/{page}.html")
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
                for script, says in FINDINGS:
                    found = driver.execute_script(script)
                    problems += [f"{where}: {says.format(one)}" for one in found]
                driver.execute_script(axe)
                for violation in driver.execute_async_script(AXE):
                    problems.append(f"{where}: {violation}")
                name = page.replace("/", "-")
                driver.save_screenshot(str(shots / f"{name}-{width}.png"))
                if width == WIDTHS[0]:
                    driver.execute_script(DARK)
                    for violation in driver.execute_async_script(AXE):
                        problems.append(f"{where}, dark theme: {violation}")
                    driver.save_screenshot(str(shots / f"{name}-{width}-dark.png"))
            if width == WIDTHS[0]:
                problems += behaviours(driver, site, shots)
            else:
                problems += menus(driver, site, width)
        finally:
            driver.quit()
    return problems


def menus(driver: webdriver.Chrome, site: str, width: int) -> list[str]:
    """Where the sidebars are folded away, their buttons open them."""
    problems = []
    for side in ("primary", "secondary"):
        driver.get(f"{site}/start.html")
        WebDriverWait(driver, 30).until(lambda d: d.execute_script(LOADED))
        shown = [
            button
            for button in driver.find_elements(By.CSS_SELECTOR, f".sidebar-toggle.{side}-toggle")
            if button.is_displayed()
        ]
        if not shown:
            problems.append(f"start.html @ {width} px: no {side} sidebar button to press")
            continue
        shown[0].click()
        try:
            opened = f"return !!document.querySelector('#pst-{side}-sidebar-modal[open]')"
            WebDriverWait(driver, 5).until(lambda d, opened=opened: d.execute_script(opened))
        except TimeoutException:
            problems.append(f"start.html @ {width} px: the {side} sidebar's button opens nothing")
    return problems


def behaviours(driver: webdriver.Chrome, site: str, shots: Path) -> list[str]:
    """A linked claim is highlighted, its copy-link control copies, search summarises from the
    article."""
    problems = []
    page, anchor = TARGET
    driver.get(f"{site}/{page}.html#{anchor}")
    WebDriverWait(driver, 30).until(lambda d: d.execute_script(LOADED))
    outline = driver.execute_script(
        f"return getComputedStyle(document.getElementById('{anchor}')).outlineStyle;"
    )
    if outline != "solid":
        problems.append(f"{page}.html#{anchor}: the linked claim is not highlighted ({outline})")
    driver.save_screenshot(str(shots / f"{page}-linked-claim.png"))
    link = driver.find_element(By.CSS_SELECTOR, f"#{anchor} a.jaxwaits-copy-link")
    link.click()
    try:
        WebDriverWait(driver, 5).until(lambda d: link.text == "copied")
    except TimeoutException:
        problems.append(f"{page}.html#{anchor}: 'copy link' did not copy (shows {link.text!r})")
    for words, target, statement in SEARCHES:
        problems += search(driver, site, shots, words, target, statement)
    return problems


def search(
    driver: webdriver.Chrome, site: str, shots: Path, words: str, target: str, statement: str
) -> list[str]:
    """The site's search finds ``target`` for ``words``, summarised from its article with
    ``statement`` in it."""
    driver.get(f"{site}/search.html?q={words.replace(' ', '+')}")
    try:
        WebDriverWait(driver, 30).until(
            lambda d: d.execute_script(
                "return document.querySelectorAll('#search-results li p.context').length > 0;"
            )
        )
        WebDriverWait(driver, 30).until(
            lambda d: d.execute_script(
                "return /finished|did not match/.test("
                "(document.querySelector('#search-results .search-summary') || {}).textContent);"
            )
        )
    except TimeoutException:
        return [f"search.html?q={words}: no result with a summary within 30 s"]
    results = driver.execute_script(
        "return [...document.querySelectorAll('#search-results li')].map((li) => "
        "[li.querySelector('a').getAttribute('href'), "
        "(li.querySelector('p.context') || {textContent: ''}).textContent]);"
    )
    driver.save_screenshot(str(shots / f"search-{words.split()[0]}.png"))
    summaries: dict[str, str] = {}
    for href, text in results:
        summaries.setdefault(href.split("#")[0].split("?")[0], text)
    problems = []
    pages = [href for href, _ in results]
    api = [i for i, href in enumerate(pages) if href.startswith(APIDOCS)]
    if api and any(not href.startswith(APIDOCS) for href in pages[api[0] :]):
        problems.append(
            f"search.html?q={words}: the API documentation ({pages[api[0]]}) ranks above a "
            "page of the site"
        )
    if target not in summaries:
        problems.append(f"search.html?q={words}: {target} is not among the results")
    elif statement not in summaries[target]:
        problems.append(f"search.html?q={words}: {target}'s summary lacks {statement!r}")
    for href, text in summaries.items():
        junk = [word for word in THEME_TEXT if word in text.split()]
        if junk:
            problems.append(f"search.html?q={words}: {href}'s summary shows theme text {junk}")
    return problems


def oversized(html: Path) -> list[str]:
    """The matrix page, if it is heavier than a reader should have to load."""
    size = (html / "matrix.html").stat().st_size
    return [f"matrix.html: {size} bytes, over {MATRIX_BYTES}"] if size > MATRIX_BYTES else []


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", type=Path, help="the built site")
    parser.add_argument("axe", type=Path, help="axe.min.js")
    args = parser.parse_args()
    shots = args.html.parent / "screenshots"
    shots.mkdir(exist_ok=True)
    # Served over HTTP as Read the Docs serves it: search fetches pages, which file:// forbids.
    handler = functools.partial(QuietHandler, directory=str(args.html))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        site = f"http://127.0.0.1:{server.server_address[1]}"
        problems = check(site, args.axe.read_text(encoding="utf-8"), shots)
        server.shutdown()
    problems += oversized(args.html)
    print("\n".join(problems) or f"{len(PAGES)} pages at {WIDTHS} px: nothing clipped")
    print(f"screenshots in {shots}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
