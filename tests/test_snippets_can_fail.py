"""Each snippet here can fail: run with the wrong behaviour its claim denies put into JAX (a
mutant, applied as ``sitecustomize`` in the snippet's fresh interpreter before it starts, and in
every interpreter the snippet starts in turn), it prints something other than its recorded
output.

A snippet that printed its recorded output under its mutant would be no evidence: it would pass
whether the claim held or not.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
ASYNC_OFF = """
import jax
jax.config.update("jax_cpu_enable_async_dispatch", False)
"""
EXIT_WAITS_FOR_EVERY_THREAD = """
import atexit, time
import jax
atexit.register(time.sleep, 3)  # runs before JAX's own handler: pending effects get 3 s
"""
BLOCK_HOLDS_THE_GIL = """
import ctypes
from jax._src import array
sleep = ctypes.PyDLL(None).sleep  # a PyDLL call keeps the GIL
def holding(self):
    sleep(3)
    return self
array.ArrayImpl.block_until_ready = holding
"""
BLOCK_UNINTERRUPTIBLE = """
from jax._src import array
waits = array.ArrayImpl.block_until_ready
def uninterruptible(self):
    interrupted = False
    while True:
        try:
            waits(self)
            break
        except KeyboardInterrupt:
            interrupted = True
    if interrupted:
        raise KeyboardInterrupt
    return self
array.ArrayImpl.block_until_ready = uninterruptible
"""
DEVICE_GET_WITHOUT_COPIES = """
import jax, numpy as np
from jax._src import config
def device_get(x):
    with config.explicit_device_get_scope():
        return jax.tree_util.tree_map(np.asarray, x)
jax.device_get = device_get
"""
ORDERED_IGNORED = """
import jax
callback = jax.debug.callback
def unordered(f, *args, ordered=False, **kwargs):
    return callback(f, *args, **kwargs)
jax.debug.callback = unordered
"""
BLOCK_WAITS_FOR_EVERY_PROCESS = """
from jax._src import array
waits = array.ArrayImpl.block_until_ready
def global_wait(self):
    waits(self)
    if not self.is_fully_addressable:
        from jax.experimental import multihost_utils
        multihost_utils.sync_global_devices("every shard ready")
    return self
array.ArrayImpl.block_until_ready = global_wait
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
    "dispatch_is_paced: dispatch never runs ahead": ("dispatch_is_paced", ASYNC_OFF),
    "errors_surface_at_wait: every call finishes before it returns": (
        "errors_surface_at_wait",
        ASYNC_OFF,
    ),
    "sync_dispatch: asynchronous dispatch is off from the start": ("sync_dispatch", ASYNC_OFF),
    "effects_at_exit: the exit waits for every thread's effects": (
        "effects_at_exit",
        EXIT_WAITS_FOR_EVERY_THREAD,
    ),
    "block_releases_gil: the block holds the GIL": ("block_releases_gil", BLOCK_HOLDS_THE_GIL),
    "block_releases_gil: the block cannot be interrupted": (
        "block_releases_gil",
        BLOCK_UNINTERRUPTIBLE,
    ),
    "device_get_and_guard: device_get starts no copy first": (
        "device_get_and_guard",
        DEVICE_GET_WITHOUT_COPIES,
    ),
    "callbacks_not_guaranteed: ordered=True is ignored": (
        "callbacks_not_guaranteed",
        ORDERED_IGNORED,
    ),
    "multiprocess_arrays: a block waits for every process's shards": (
        "multiprocess_arrays",
        BLOCK_WAITS_FOR_EVERY_PROCESS,
    ),
}


def run_mutated(name: str, patch: str, folder: Path) -> str:
    """What snippet ``name`` prints with ``patch`` applied first, in its interpreter and in any
    it starts (canonical stdout)."""
    snippet = read_snippet(ROOT / "snippets" / f"{name}.py")
    (folder / "sitecustomize.py").write_text(patch)
    path = os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH", "")) if p)
    done = subprocess.run(
        [sys.executable, str(snippet.path)],
        cwd=snippet.path.parent,
        env={**os.environ, "PYTHON_COLORS": "0", "PYTHONPATH": path, **snippet.env},
        capture_output=True,
        timeout=snippet.timeout + 30,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return canonical(done.stdout.decode())


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_the_snippet_prints_something_else_when_its_claim_is_false(
    mutant: str, tmp_path: Path
) -> None:
    name, patch = MUTANTS[mutant]
    recorded = read_snippet(ROOT / "snippets" / f"{name}.py").recorded()
    printed = run_mutated(name, patch, tmp_path)
    assert printed != recorded, f"{name} prints its recorded output even with {mutant}"
    print(diff(recorded or "", printed, f"{name}.out (recorded)", f"{name} under: {mutant}"))
