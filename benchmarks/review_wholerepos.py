"""`jaxwaits review` on whole real repositories, scored against labels written before it ran
(benchmarks/wholerepos/; what it prints: harnesscheck.measure.wholerepos)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from harnesscheck.measure.wholerepos import report, score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="benchmarks/wholerepos/*.toml")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    args = parser.parse_args()
    print(json.dumps(report(score(args.sets, args.mirrors)), indent=1))


if __name__ == "__main__":
    main()
