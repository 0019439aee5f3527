"""The scope axes: what JAX's waiting behaviour varies along, and what a claim says of each.

A snippet builds one point on each axis; a claim's sentence is easily wider than that. So every
claim names, per axis, the values its evidence exercises, as an option of its own::

    ```{claim} device-get-and-the-guard
    :evidence: device_get_and_guard
    :backend: cpu
    :threads: one
    :devices: single sharded replicated
    :failures: none
    :dtype: wide sub-byte key
    :context: eager
    ...
    ```

An axis that lists every value is *covered*; one that lists fewer is *limited to* them, and the
limit is shown wherever the claim is (its status line, its page, ``cite``). The values are stored
codes; the words shown for them may change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Axis:
    """One axis: its option name, what it is called, and its values (code -> shown words)."""

    name: str
    title: str
    values: Mapping[str, str]


AXES = (
    Axis("backend", "backend", {"cpu": "CPU", "gpu": "GPU", "tpu": "TPU"}),
    Axis(
        "threads",
        "dispatching threads",
        {"one": "one dispatching thread", "several": "several dispatching threads"},
    ),
    Axis(
        "devices",
        "devices and sharding",
        {
            "single": "single-device arrays",
            "sharded": "sharded arrays",
            "replicated": "replicated arrays",
        },
    ),
    Axis(
        "failures",
        "pending failures",
        {
            "none": "no failure pending",
            "one": "one failure pending",
            "several": "several failures pending",
        },
    ),
    Axis(
        "dtype",
        "dtype",
        {
            "wide": "numeric dtypes of 8 bits and wider",
            "sub-byte": "sub-byte dtypes",
            "key": "typed key arrays",
        },
    ),
    Axis("context", "context", {"eager": "eager calls", "traced": "inside jit, vmap or grad"}),
)
NAMES = tuple(axis.name for axis in AXES)


@dataclass(frozen=True)
class Scope:
    """The values a claim's evidence exercises, per axis: (axis, values) pairs, codes in the
    axes' order."""

    values: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def of(self, axis: str) -> tuple[str, ...]:
        """The values given for an axis (none if it was not addressed)."""
        return dict(self.values).get(axis, ())

    def covered(self, axis: Axis) -> bool:
        return set(self.of(axis.name)) == set(axis.values)

    def limits(self) -> list[str]:
        """The words for each axis the claim is limited on ("CPU", "one dispatching thread"),
        in the axes' order."""
        return [
            " or ".join(axis.values[v] for v in self.of(axis.name))
            for axis in AXES
            if self.of(axis.name) and not self.covered(axis)
        ]


def read(options: Mapping[str, str]) -> tuple[Scope, list[str]]:
    """A claim's scope from its options, and what is wrong with it: each axis it does not
    address, each value no axis has, a value named twice."""
    values: list[tuple[str, tuple[str, ...]]] = []
    problems = []
    for axis in AXES:
        given = options.get(axis.name)
        if given is None or not given.split():
            allowed = " ".join(axis.values)
            problems.append(
                f"does not address the {axis.title} axis: add :{axis.name}: with the values its "
                f"evidence exercises (of: {allowed})"
            )
            continue
        words = given.replace(",", " ").split()
        unknown = [w for w in words if w not in axis.values]
        if unknown:
            problems.append(
                f":{axis.name}: {' '.join(unknown)} is no value of the {axis.title} axis "
                f"(values: {' '.join(axis.values)})"
            )
        if len(set(words)) != len(words):
            problems.append(f":{axis.name}: names a value twice")
        values.append((axis.name, tuple(v for v in axis.values if v in words)))
    return Scope(tuple(values)), problems
