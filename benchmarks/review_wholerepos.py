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
    parser.add_argument(
        "--alone",
        action="store_true",
        help="review each file read by itself, no other module of its repository in sight",
    )
    args = parser.parse_args()
    scored = report(score(args.sets, args.mirrors, alone=args.alone))
    mode = "alone" if args.alone else "whole"
    print(json.dumps({"sets": [s.stem for s in args.sets], "mode": mode, **scored}, indent=1))


if __name__ == "__main__":
    main()
