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
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOT

from jaxwaits.evidence.output import canonical
from jaxwaits.evidence.report import diff
from jaxwaits.evidence.snippets import read_snippet

pytestmark = pytest.mark.evidence  # every mutant, run under JAX

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
TRACER_WAITS_FOR_ITS_VALUE = """
from jax._src import core
def waits_for_its_value(self):
    value = getattr(self, "val", None)  # what a vmap tracer holds: the batched array
    if value is not None and hasattr(value, "block_until_ready"):
        value.block_until_ready()
    return self
core.Tracer.block_until_ready = waits_for_its_value
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
BARRIER_RAISES_ONE_ERROR = """
import jax
barrier = jax.effects_barrier
def one_error_only():
    try:
        barrier()
    except ExceptionGroup as group:
        raise group.exceptions[0] from None
jax.effects_barrier = one_error_only
"""
ONE_TOKEN_SET = """
from jax._src import dispatch
own = vars(dispatch.RuntimeTokenSet).items()
shared = {k: v for k, v in own if k not in ("__dict__", "__weakref__")}
dispatch.runtime_tokens = type("Shared", (), shared)()  # one token set for every thread
"""
EVERY_TOKEN_KEPT = """
from jax._src import dispatch
remember = dispatch.RuntimeTokenSet.set_output_runtime_token
def every_token_kept(self, device, token):
    remember(self, device, token)
    self.output_runtime_tokens[device, len(self.output_runtime_tokens)] = token  # none replaced
dispatch.RuntimeTokenSet.set_output_runtime_token = every_token_kept
"""
GUARD_DOES_NOTHING = """
import contextlib
import jax
jax.transfer_guard_device_to_host = lambda level: contextlib.nullcontext()
"""
ONE_STREAM = """
import functools
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
import jax
one_thread = ThreadPoolExecutor(max_workers=1)  # every thread's calls dispatched from one
compile = jax.jit
def jit_on_one_thread(fun=None, **options):
    if fun is None:
        return functools.partial(jit_on_one_thread, **options)
    compiled = compile(fun, **options)
    return functools.wraps(fun)(lambda *args: one_thread.submit(compiled, *args).result())
jax.jit = jit_on_one_thread
"""
TRANSFER_IN_ORDER = """
import functools
import jax
dispatched = []  # the outputs of the last jitted call
compile = jax.jit
def jit_remembering(fun=None, **options):
    if fun is None:
        return functools.partial(jit_remembering, **options)
    compiled = compile(fun, **options)
    def call(*args):
        dispatched[:] = [compiled(*args)]
        return dispatched[0]
    return functools.wraps(fun)(call)
jax.jit = jit_remembering
put = jax.device_put
def put_in_order(x, *args, **kwargs):
    jax.block_until_ready(dispatched)  # the transfer waits for the computations before it
    return put(x, *args, **kwargs)
jax.device_put = put_in_order
"""
ORDERED_TOKEN_NOT_AWAITED = """
import jax
import numpy as np
from jax._src import core
from jax._src.interpreters import pxla
def token_not_awaited(xs, shardings, layouts, copy_semantics):
    # JAX's handler for an ordered effect's token (array._token_shard_arg), without its block
    # on the earlier computation's token
    tokens = []
    for sharding in shardings:
        x = np.array([], dtype=bool)
        devices = sharding._addressable_device_assignment
        aval = core.typeof(x)
        tokens.append(pxla.batched_device_put(aval, sharding, [x] * len(devices), devices))
    return tokens
pxla.shard_arg_handlers[core.Token] = token_not_awaited
"""
DICT_FOR_FREE = """
import jax
from jax._src import api
wrapper = jax.block_until_ready
def dict_for_free(x):
    if isinstance(x, dict):  # no flattening: the batched call straight on the dict's values
        api.xc.batched_block_until_ready(list(x.values()))
        return x
    return wrapper(x)
jax.block_until_ready = dict_for_free
"""
EAGER_ON_THE_HOST = """
import jax
import jax.numpy as jnp
import numpy as np
from jax._src import array
import time
def on_the_host(op):  # an operation that compiles nothing: NumPy's, its result put back
    def call(*arrays, **options):
        # Every call costs the same 5 ms, first or warm, so that the machine pausing the first
        # call (31 mutant runs share the cores) cannot pass for a compile in the snippet's ratio.
        time.sleep(0.005)
        return jax.device_put(op(*(np.asarray(a) for a in arrays)))
    return call
jnp.dot = on_the_host(np.dot)
array.ArrayImpl.__add__ = on_the_host(np.add)
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
    "dispatch_is_paced_by_work: dispatch never runs ahead": (
        "dispatch_is_paced_by_work",
        ASYNC_OFF,
    ),
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
    "large_then_small: every thread's work runs in one order": ("large_then_small", ONE_STREAM),
    "device_get_and_guard: the guard refuses nothing": ("device_get_and_guard", GUARD_DOES_NOTHING),
    "block_does_not_fetch: the guard refuses nothing": ("block_does_not_fetch", GUARD_DOES_NOTHING),
    "barrier_failures: the barrier raises one error, never a group": (
        "barrier_failures",
        BARRIER_RAISES_ONE_ERROR,
    ),
    "barrier_failures: one token set for every thread": ("barrier_failures", ONE_TOKEN_SET),
    "barrier_is_per_thread: one token set for every thread": (
        "barrier_is_per_thread",
        ONE_TOKEN_SET,
    ),
    "barrier_failures: no effect token is ever replaced": ("barrier_failures", EVERY_TOKEN_KEPT),
    "block_under_jit_is_silent: a vmap tracer waits for the array it holds": (
        "block_under_jit_is_silent",
        TRACER_WAITS_FOR_ITS_VALUE,
    ),
    "callbacks_at_dispatch: every thread's work runs in one order": (
        "callbacks_at_dispatch",
        ONE_STREAM,
    ),
    "block_device_put: a transfer waits its turn like a computation": (
        "block_device_put",
        TRANSFER_IN_ORDER,
    ),
    "ordered_callback_waits: the call does not wait for the earlier token": (
        "ordered_callback_waits",
        ORDERED_TOKEN_NOT_AWAITED,
    ),
    "wrapper_dict_speed: the wrapper does not flatten a dict": (
        "wrapper_dict_speed",
        DICT_FOR_FREE,
    ),
    "eager_ops_compile: operations outside jit compile nothing": (
        "eager_ops_compile",
        EAGER_ON_THE_HOST,
    ),
}
# What a mutant must make its snippet print, where it is aimed at one case of several: the line
# of that case, as the wrong behaviour prints it.
SHOWS = {
    "device_get_and_guard: the guard refuses nothing": (
        "float32 sharded over two devices, guard 'disallow': np.asarray let through, "
        "jax.device_get let through, copy_to_host_async let through"
    ),
    "block_does_not_fetch: the guard refuses nothing": (
        "float32 sharded over two devices: np.asarray under the guard: no error"
    ),
    "barrier_failures: the barrier raises one error, never a group": (
        "an ordered effect's failure, then another failure: effects_barrier() raises a "
        "RuntimeError from the first failure"
    ),
    "barrier_failures: one token set for every thread": (
        "another thread's failure: this thread's effects_barrier() raises a RuntimeError from "
        "the first failure"
    ),
    "barrier_failures: no effect token is ever replaced": (
        "a failure, then a computation whose effect succeeds: effects_barrier() raises a "
        "RuntimeError from the first failure"
    ),
    "block_under_jit_is_silent: a vmap tracer waits for the array it holds": (
        "under vmap without jit, output ready when the call returns: True"
    ),
    "large_then_small: every thread's work runs in one order": (
        "another thread's large, ready after blocking on small: True"
    ),
    "callbacks_at_dispatch: every thread's work runs in one order": (
        "debug.callback, device busy with another thread's work, at return: effect done False, "
        "output ready False"
    ),
    "block_device_put: a transfer waits its turn like a computation": (
        "large ready after blocking on the device_put array: True"
    ),
    "ordered_callback_waits: the call does not wait for the earlier token": (
        "ordered io behind a failing ordered io: the call raises nothing"
    ),
    "wrapper_dict_speed: the wrapper does not flatten a dict": (
        "over a dict, the wrapper is at least 2x faster than a loop of method calls: True"
    ),
    "eager_ops_compile: operations outside jit compile nothing": (
        "first x + x of an input of shape (120, 120) and dtype float32 at least 10x slower: False"
    ),
}


def run_mutated(name: str, patch: str, folder: Path) -> subprocess.CompletedProcess[bytes]:
    """Snippet ``name`` run with ``patch`` applied first, in its interpreter and in any it
    starts."""
    snippet = read_snippet(ROOT / "snippets" / f"{name}.py")
    (folder / "sitecustomize.py").write_text(patch)
    path = os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [sys.executable, str(snippet.path)],
        cwd=snippet.path.parent,
        env={**os.environ, "PYTHON_COLORS": "0", "PYTHONPATH": path, **snippet.env},
        capture_output=True,
        timeout=snippet.timeout + 30,
        check=False,
    )


@pytest.fixture(scope="module")
def mutated(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    progress: Callable[[str], None],
) -> dict[str, subprocess.CompletedProcess[bytes]]:
    """Every selected mutant's run, side by side: many of them mostly wait (a deadlock broken
    by the snippet's own limit, a sleep that holds the GIL), so one after another they took
    three minutes. One more at a time than there are cores, the longest-limited first."""
    wanted = sorted(
        {
            item.callspec.params["mutant"]
            for item in request.session.items
            if "mutant" in getattr(getattr(item, "callspec", None), "params", {})
        }
    )
    wanted.sort(key=lambda m: -read_snippet(ROOT / "snippets" / f"{MUTANTS[m][0]}.py").timeout)
    started = time.perf_counter()
    progress(f"mutants: running {len(wanted)} snippet runs, each under a mutant of JAX")
    with ThreadPoolExecutor(max_workers=(os.cpu_count() or 1) + 1) as pool:
        runs = {
            mutant: pool.submit(run_mutated, *MUTANTS[mutant], tmp_path_factory.mktemp("mutant"))
            for mutant in wanted
        }
        done = {mutant: run.result() for mutant, run in runs.items()}
    progress(f"mutants: ran {len(wanted)} in {time.perf_counter() - started:.0f} s")
    return done


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_the_snippet_prints_something_else_when_its_claim_is_false(
    mutant: str, mutated: dict[str, subprocess.CompletedProcess[bytes]]
) -> None:
    name, _ = MUTANTS[mutant]
    done = mutated[mutant]
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    recorded = read_snippet(ROOT / "snippets" / f"{name}.py").recorded()
    printed = canonical(done.stdout.decode())
    assert printed != recorded, f"{name} prints its recorded output even with {mutant}"
    if mutant in SHOWS:
        assert SHOWS[mutant] in printed.splitlines(), f"{mutant} did not reach its case"
    print(diff(recorded or "", printed, f"{name}.out (recorded)", f"{name} under: {mutant}"))
