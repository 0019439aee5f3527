"""Sessions: tests, checker, docs, record, lint, bench (and verify, matrix for other JAX releases).

Run from a fresh machine with only Python and pip: ``python3 -m pip install nox uv`` then
``python3 -m nox -s tests`` or ``python3 -m nox -s docs``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nox

ROOT = Path(__file__).parent
sys.path.insert(0, str(ROOT / "src"))
# The package is not installed where nox runs: import it from the checkout.
from jaxwaits.releases.interpreters import find_python  # noqa: E402

nox.options.default_venv_backend = "uv"
nox.options.error_on_missing_interpreters = True  # a missing interpreter fails; never a skip
nox.options.reuse_venv = "yes"
nox.options.sessions = ["tests", "docs"]
os.environ["UV_PYTHON_DOWNLOADS"] = "never"  # no Python downloads: find one on this machine
os.environ["UV_COMPILE_BYTECODE"] = "1"  # each snippet imports JAX afresh; bytecode saves seconds

# Pages are read two at a time or more: each executes its snippets in a kernel of its own.
BUILD_SITE = ("sphinx-build", "-W", "--keep-going", "-j", "auto", "-b", "html")
SITE = ("docs", "docs/_build/html")

# The newest JAX needs Python >= 3.12; Read the Docs builds with 3.13.
PYTHON = find_python("3.13") or find_python("3.12") or "3.13"


def install(session: nox.Session, *requirements: str) -> None:
    """Install into the session's environment; when the package index cannot be reached, from
    what uv has cached (so a warm machine needs no network)."""
    session.log(
        f"installing {' '.join(requirements)}: about a minute into a new environment (uv's "
        "cache takes about 800 MB), seconds into one that has them"
    )
    try:
        session.install(*requirements)
    except nox.command.CommandFailed:
        session.log(
            f"could not install {' '.join(requirements)} from the package index (a release it "
            "does not have, or no network); trying uv's cache alone"
        )
        session.install("--offline", *requirements)


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Every link in the chain: snippets against recorded outputs, claims, vendored pieces.

    Runs offline once the wheel cache is full; ``nox -s tests -- --refresh`` fetches the release
    list anew (and any new wheel) first. Other arguments go to pytest.
    """
    install(session, "-e", ".[test]")
    refresh = ["--refresh"] if "--refresh" in session.posargs else []
    # Fills the wheel cache (every jax release since 0.4.16) and fails if the manifest is stale.
    session.run("python", "-m", "jaxwaits", "provenance", "--check", *refresh)
    session.run("pytest", *[arg for arg in session.posargs if arg != "--refresh"])


# The checker's environment has neither: importing either there fails the session.
NO_JAX_NO_SPHINX = """
import importlib, sys
for name in ("jax", "sphinx"):
    try:
        importlib.import_module(name)
    except ImportError:
        print(f"import {name}: fails, as it should here")
    else:
        sys.exit(f"import {name} works here: the checker's tests must not need it")
"""


@nox.session(python=PYTHON)
def checker(session: nox.Session) -> None:
    """The harness checker's own tests (tests/checker/, in seconds) where it is installed
    without extras: no JAX, no Sphinx (the session makes sure), only pytest beside it and
    jsonschema for the SARIF schema. ``nox -s tests`` runs them too, with the rest."""
    install(session, "-e", ".", "pytest>=8", "jsonschema")
    session.run("python", "-c", NO_JAX_NO_SPHINX)
    # --confcutdir: the site's tests/conftest.py, which imports the site, is not loaded
    session.run("pytest", "--confcutdir=tests/checker", "tests/checker", *session.posargs)


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Build the site into docs/_build/html, executing every snippet; warnings are errors."""
    install(session, "-e", ".[docs]")
    session.run(*BUILD_SITE, *SITE, *session.posargs)
    session.run("python", "-m", "jaxwaits", "check-site", "docs/_build/html")


AXE = "axe-core@4.14.1"


@nox.session(python=PYTHON)
def browser(session: nox.Session) -> None:
    """Open the built site's key pages in headless Chromium at 1440 and 420 px; fail on content
    clipped by its column, a snippet's output cut off, a link or button under 24 by 24 px, a
    claim without a status badge, or a serious axe-core violation (browser/check_pages.py says
    all it checks). Screenshots go to docs/_build/screenshots/. Run `nox -s docs` first."""
    if not (ROOT / "docs" / "_build" / "html" / "index.html").is_file():
        session.error("no built site in docs/_build/html: run `nox -s docs` first")
    if not (Path("/usr/bin/chromium").is_file() and Path("/usr/bin/chromedriver").is_file()):
        session.run("apt-get", "install", "-y", "chromium", "chromium-driver", external=True)
    install(session, "selenium")
    axe = ROOT / ".cache" / "axe-core"
    if not (axe / "node_modules" / "axe-core" / "axe.min.js").is_file():
        session.run("npm", "install", "--silent", "--prefix", str(axe), AXE, external=True)
    script = str(axe / "node_modules" / "axe-core" / "axe.min.js")
    session.run("python", "browser/check_pages.py", "docs/_build/html", script)


@nox.session(python=PYTHON)
def record(session: nox.Session) -> None:
    """Re-run snippets (all, or those named after --) and rewrite their recorded outputs."""
    install(session, "-e", ".[test]")
    session.run("python", "-m", "jaxwaits", "record", *session.posargs)


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Medians of wall and CPU time: snippets alone, the re-check through templates and fresh,
    a warm and a clean docs build (`-- --matrix` adds the full matrix, `-- --repeat N`); and
    `jaxwaits review` next to `ast.parse` on JAX's own package; `jaxwaits watch`'s cost to
    the program it watches."""
    install(session, "-e", ".[docs]", "uv")
    session.run("python", "benchmarks/bench.py", *session.posargs)
    session.run("python", "benchmarks/review_speed.py")
    session.run("python", "benchmarks/watch_overhead.py")


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff, on the machinery, tests and noxfile."""
    install(session, "ruff")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session(python=PYTHON)
def verify(session: nox.Session) -> None:
    """Verify one JAX release (default: the newest): `nox -s verify -- 0.4.30`.

    Makes an environment with that release and a Python it supports, runs every snippet and the
    drift check there, and writes docs/verified/jax-<release>-<backend>.json.
    """
    install(session, "-e", ".", "uv")
    session.run("python", "-m", "jaxwaits", "verify", *session.posargs)


@nox.session(python=PYTHON)
def matrix(session: nox.Session) -> None:
    """Verify every release since the manifest's first (but [tool.jaxwaits] skip) into
    docs/verified/; `nox -s matrix -- --stale` only those with no or stale ledger entries."""
    install(session, "-e", ".", "uv")
    session.run("python", "-m", "jaxwaits", "matrix", *session.posargs)


@nox.session(name="verify-latest", python=PYTHON)
def verify_latest(session: nox.Session) -> None:
    """If the ledger lacks the newest JAX on the index, verify it and print a release note."""
    install(session, "-e", ".", "uv")
    session.run("python", "-m", "jaxwaits", "verify-latest", *session.posargs)
