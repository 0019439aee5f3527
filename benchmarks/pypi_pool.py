"""A pool of code nobody here has read, for a blind set's collector: the PyPI packages whose
name matches a pattern and whose metadata names a GitHub repository never used here, whose
source distribution holds a Python file that imports JAX and reads a clock. Each is made a
mirror (harnesscheck.measure.sdist) and listed with what a set's ``[[repo]]`` needs."""

from __future__ import annotations

import argparse
import io
import json
import re
import tarfile
import urllib.parse
import urllib.request
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from harnesscheck.errors import ReviewError
from harnesscheck.measure import sdist

INDEX = "https://pypi.org/simple/"
GITHUB = re.compile(r"github\.com/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)")
JAX = re.compile(rb"^\s*(import jax|from jax\b|import flax|import equinox)", re.M)
CLOCK = re.compile(rb"perf_counter|time\.time\(\)|timeit|monotonic\(\)|block_until_ready")
SETS = Path(__file__).parent / "wholerepos"


def used() -> set[str]:
    """Every repository a set names, and every one a collector read: ``owner/name``, lower case."""
    named = {
        m.lower()
        for toml in SETS.glob("*.toml")
        for m in re.findall(r'^github = "([^"]+)"', toml.read_text(), re.M)
    }
    lines = (SETS / "used-repositories.txt").read_text().splitlines()
    return named | {line.strip().lower() for line in lines if "/" in line and "#" not in line}


def candidate(name: str, seen: set[str], seen_names: set[str]) -> dict | None:
    """The package's latest sdist and GitHub repository, where neither it nor its name was
    used; None otherwise."""
    url = f"https://pypi.org/pypi/{name}/json"
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            meta = json.load(answer)
    except (OSError, ValueError):
        return None  # gone, or not answered: one package less, the others still asked
    info = meta["info"]
    links = [info.get("home_page"), *(info.get("project_urls") or {}).values()]
    found = next((m for link in links if (m := GITHUB.search(link or ""))), None)
    archives = [u for u in meta.get("urls", []) if u["packagetype"] == "sdist"]
    if found is None or not archives:
        return None
    github = f"{found.group(1)}/{found.group(2).removesuffix('.git')}"
    if github.lower() in seen or github.split("/")[1].lower() in seen_names:
        return None
    archive = archives[0]
    return {
        "package": name,
        "version": info["version"],
        "github": github,
        "sdist": urllib.parse.urljoin(url, archive["url"]),  # a mirror of PyPI may answer relative
        "sha256": archive["digests"]["sha256"],
        "summary": info.get("summary"),
    }


def timed_files(data: bytes) -> list[str]:
    """The archive's Python files that import JAX and read a clock, below its top folder."""
    if zipfile.is_zipfile(io.BytesIO(data)):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            files = [(n, z.read(n)) for n in z.namelist() if n.endswith(".py")]
    else:
        with tarfile.open(fileobj=io.BytesIO(data)) as t:
            members = [m for m in t.getmembers() if m.isfile() and m.name.endswith(".py")]
            files = [(m.name, t.extractfile(m).read()) for m in members]  # type: ignore[union-attr]
    return [
        name.split("/", 1)[-1] for name, text in files if JAX.search(text) and CLOCK.search(text)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pattern", help="a regular expression package names must match")
    parser.add_argument("out", type=Path, help="the pool, as JSON")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    args = parser.parse_args()
    with urllib.request.urlopen(INDEX, timeout=300) as answer:
        index = answer.read().decode()
    names = re.findall(r'<a href="[^"]*">([^<]+)</a>', index)
    wanted = [n for n in names if re.search(args.pattern, n, re.I)]
    seen = used()
    seen_names = {s.split("/")[1] for s in seen}
    with ThreadPoolExecutor(16) as pool:
        found = [c for c in pool.map(lambda n: candidate(n, seen, seen_names), wanted) if c]
    kept = []
    for entry in found:
        git_dir = args.mirrors / entry["github"].replace("/", "+") / "repo"
        if git_dir.exists() or entry["github"].lower() in {k["github"].lower() for k in kept}:
            continue  # a mirror already there is a repository somebody fetched: not fresh
        try:
            data = sdist.download(entry["sdist"], entry["sha256"])
            files = timed_files(data)
            if files:
                name = entry["sdist"].rsplit("/", 1)[-1]
                kept.append({**entry, "commit": sdist.mirror(data, name, git_dir), "files": files})
        except (ReviewError, OSError, tarfile.TarError, zipfile.BadZipFile) as failed:
            print(f"{entry['package']}: left out: {failed}")
    args.out.write_text(json.dumps(kept, indent=1))
    print(f"{len(wanted)} names, {len(found)} with an unused repository, {len(kept)} in the pool")


if __name__ == "__main__":
    main()
