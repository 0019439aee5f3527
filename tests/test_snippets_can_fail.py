"""Each snippet here can fail: run with the wrong behaviour its claim denies put into JAX (a
mutant, applied in the snippet's own fresh interpreter before it starts), it prints something
other than its recorded output.

A snippet that printed its recorded output under its mutant would be no evidence: it would pass
whether the claim held or not.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import ROOT

from jaxwaits.evidence.output import canonical
from jaxwaits.evidence.report import diff
from jaxwaits.evidence.snippets import read_snippet

ONE_BUFFER = """
from jax._src import array
waits = array.ArrayImpl.block_until_ready
def one_buffer_only(self):
    waits(self._arrays[{index}])
    return self
array.ArrayImpl.block_until_ready = one_buffer_only
"""
BATCHING = """
import jax
from jax._src import api, array
def batching_from(x):
    arrays = [leaf for leaf in jax.tree_util.tree_leaves(x) if isinstance(leaf, array.ArrayImpl)]
    if len(arrays) >= {least}:
        api.xc.batched_block_until_ready(arrays)
    else:
        for leaf in arrays:
            leaf.block_until_ready()
    return x
jax.block_until_ready = batching_from
"""
TRACER_WITH_METHOD = """
from jax._src import core
core.Tracer.block_until_ready = lambda self: self
"""
BARRIER_WAITS_FOR_NOTHING = """
import jax
jax.effects_barrier = lambda: None
"""
EVERY_CALL_FINISHES = """
import functools
import jax
compile = jax.jit
def jit_and_wait(fun, **options):
    compiled = compile(fun, **options)
    return functools.wraps(fun)(lambda *args: jax.block_until_ready(compiled(*args)))
jax.jit = jit_and_wait
"""

MUTANTS = {
    "sharded_buffers: the block waits for the first buffer only": (
        "sharded_buffers",
        ONE_BUFFER.format(index=0),
    ),
    "sharded_buffers: the block waits for the last buffer only": (
        "sharded_buffers",
        ONE_BUFFER.format(index=-1),
    ),
    "wrapper_batches: the batched call only from three arrays": (
        "wrapper_batches",
        BATCHING.format(least=3),
    ),
    "wrapper_batches: a single array batched too": ("wrapper_batches", BATCHING.format(least=1)),
    "tracer_attribute_kind: a tracer with a working block_until_ready": (
        "tracer_attribute_kind",
        TRACER_WITH_METHOD,
    ),
    "block_inside_jit: a tracer with a working block_until_ready": (
        "block_inside_jit",
        TRACER_WITH_METHOD,
    ),
    "three_waits: a barrier that waits for nothing": ("three_waits", BARRIER_WAITS_FOR_NOTHING),
    "callbacks_at_dispatch: every call finishes before it returns": (
        "callbacks_at_dispatch",
        EVERY_CALL_FINISHES,
    ),
}


def run_mutated(name: str, patch: str) -> str:
    """What snippet ``name`` prints with ``patch`` applied first (canonical stdout)."""
    snippet = read_snippet(ROOT / "snippets" / f"{name}.py")
    source = f"{patch}\nimport runpy\nrunpy.run_path({str(snippet.path)!r}, run_name='__main__')\n"
    done = subprocess.run(
        [sys.executable, "-c", source],
        cwd=snippet.path.parent,
        env={**os.environ, "PYTHON_COLORS": "0", **snippet.env},
        capture_output=True,
        timeout=snippet.timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return canonical(done.stdout.decode())


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_the_snippet_prints_something_else_when_its_claim_is_false(mutant: str) -> None:
    name, patch = MUTANTS[mutant]
    recorded = read_snippet(ROOT / "snippets" / f"{name}.py").recorded()
    printed = run_mutated(name, patch)
    assert printed != recorded, f"{name} prints its recorded output even with {mutant}"
    print(diff(recorded or "", printed, f"{name}.out (recorded)", f"{name} under: {mutant}"))
