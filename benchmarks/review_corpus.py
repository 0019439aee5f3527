"""Precision and recall of `jaxwaits review`, rule by rule, on the labelled corpus of real
timing code in tests/review_corpus/ (a measurement, not a test)."""

from __future__ import annotations

from pathlib import Path

from harnesscheck.measure.corpus import score
from harnesscheck.rules import RULES


def main() -> None:
    folder = Path(__file__).resolve().parent.parent / "tests" / "review_corpus"
    found = score(folder)
    columns = ("rule", "found and labelled", "found, not labelled", "labelled, not found")
    print(f"| {' | '.join(columns)} | precision | recall |")
    print("|---|---|---|---|---|---|")
    for code, rule in RULES.items():
        p, r = found.precision(code), found.recall(code)
        print(
            f"| {code} {rule.name} | {found.hits[code]} | {found.false_alarms[code]} "
            f"| {found.misses[code]} | {'–' if p is None else f'{p:.2f}'} "
            f"| {'–' if r is None else f'{r:.2f}'} |"
        )
    hits, alarms = sum(found.hits.values()), sum(found.false_alarms.values())
    misses = sum(found.misses.values())
    print(
        f"| all rules | {hits} | {alarms} | {misses} | {hits / (hits + alarms):.2f} "
        f"| {hits / (hits + misses):.2f} |"
    )
    for code, count in sorted(found.unscored.items()):
        print(f"\n{code}: {count} findings not scored (the corpus is not labelled for it)")
    print(f"\nnot scored (not Python as excerpted): {len(found.unparsed)}")
    print("\n".join(found.unparsed + found.wrong))


if __name__ == "__main__":
    main()
