"""How far from the edge the snippets' observations are on the backend this runs on: the times
and counts behind the booleans they print, for the prose (never asserted; run on the lent GPU by
``.ci/observe-gpu`` beside the snippets, and on CPU by hand).

Prints one JSON line per measurement as it is made: median seconds of a dispatch, of the product
the snippets call large (2000x2000 on CPU, 16384x16384 elsewhere) and of a block on a ready
array; over repeated trials, how often each racy observation came out as the snippet prints it;
the wrapper-over-loop ratio of ``wrapper_batches_speed``; and which forms of a product with a
host callback this backend's compiler refuses (jax 0.11.2's GPU compiler refused the one
``three_waits`` had).
"""

from __future__ import annotations

import json
import statistics
import threading
import time
import timeit

import jax
import jax.numpy as jnp
import numpy as np

TRIALS = 20
n = 2000 if jax.default_backend() == "cpu" else 16384
matmul = jax.jit(lambda a: a @ a)
small, large = jnp.ones((64, 64)), jnp.ones((n, n))
jax.block_until_ready((matmul(small), matmul(large)))


def note(key: str, value: object) -> None:
    """One measurement, printed at once: a crash later loses none of those before it."""
    print(json.dumps({key: value}), flush=True)


def median_seconds(call, repeats: int) -> float:
    taken = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        taken.append(time.perf_counter() - start)
    return statistics.median(taken)


def share(trial) -> float:
    """The share of trials in which ``trial`` returned True."""
    return sum(bool(trial()) for _ in range(TRIALS)) / TRIALS


def not_ready_after_dispatch() -> bool:
    y = matmul(large)
    answer = not y.is_ready()
    y.block_until_ready()
    return answer


def later_large_running_after_small() -> bool:
    s, b = matmul(small), matmul(large)
    s.block_until_ready()
    answer = not b.is_ready()
    b.block_until_ready()
    return answer


def earlier_large_done_after_small() -> bool:
    b = matmul(large)
    matmul(small).block_until_ready()
    answer = b.is_ready()
    b.block_until_ready()
    return answer


def other_threads_large_done_after_small() -> bool:
    theirs = []
    other = threading.Thread(target=lambda: theirs.append(matmul(large)))
    other.start()
    other.join()
    matmul(small).block_until_ready()
    answer = theirs[0].is_ready()
    theirs[0].block_until_ready()
    return answer


effects = []


def record(v):
    time.sleep(0.05)
    effects.append(v)


@jax.jit
def callback_then_product(a):
    jax.debug.callback(record, a[0, 0])
    return a @ a


def effect_done_at_return() -> bool:
    effects.clear()
    y = callback_then_product(small)
    answer = bool(effects)
    y.block_until_ready()
    jax.effects_barrier()
    return answer


def earlier_large_done_once(make) -> bool:
    b = matmul(large)
    make()
    answer = b.is_ready()
    b.block_until_ready()
    return answer


def copy_started(dtype) -> dict[str, object]:
    """The large product cast to ``dtype``: seconds spent in its copy_to_host_async() call, and
    whether the product was ready right after."""
    f = jax.jit(lambda a: (a @ a).astype(dtype))
    f(large).block_until_ready()
    y = f(large)
    start = time.perf_counter()
    y.copy_to_host_async()
    took = time.perf_counter() - start
    ready = y.is_ready()
    np.asarray(y)
    return {"seconds in the call": took, "ready after it": ready}


def compiles(size: int, sliced_product: bool) -> str:
    """Whether a product with a debug callback on one element compiles here."""

    def f(a):
        y = a @ a
        jax.debug.callback(lambda v: None, y[0, 0] if sliced_product else a[0, 0])
        return y

    try:
        jax.jit(f).lower(jnp.ones((size, size))).compile()
    except Exception as error:  # the compiler's own error, named
        return f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"
    return "compiles"


note("backend", jax.default_backend())
note("device", jax.devices()[0].device_kind)
note("large product, n", n)
note("dispatch of a small product, s", median_seconds(lambda: matmul(small), 30))
jax.block_until_ready(matmul(small))
note(
    "large product, dispatch to ready, s",
    median_seconds(lambda: matmul(large).block_until_ready(), 10),
)
ready = matmul(small).block_until_ready()
note("block on a ready array, s", median_seconds(ready.block_until_ready, 200))
note("share: large not ready right after its dispatch", share(not_ready_after_dispatch))
note(
    "share: a later large still running once small is blocked",
    share(later_large_running_after_small),
)
note("share: an earlier large done once small is blocked", share(earlier_large_done_after_small))
note(
    "share: another thread's large done once small is blocked",
    share(other_threads_large_done_after_small),
)
for made, make in (
    ("jnp.int32(1)", lambda: jnp.int32(1)),
    ("jnp.ones(3)", lambda: jnp.ones(3)),
    ("jax.device_put(np.ones(3))", lambda: jax.device_put(np.ones(3))),
):
    note(
        f"share: an earlier large done once {made} is made",
        share(lambda m=make: earlier_large_done_once(m)),
    )
for dtype in (jnp.float32, jnp.int4):
    note(f"copy_to_host_async of a large {dtype.__name__} result", copy_started(dtype))
callback_then_product(small).block_until_ready()
jax.effects_barrier()
note("share: a debug callback's effect done when its call returns", share(effect_done_at_return))
for size in (64, 300, 2000):
    for sliced in (True, False):
        on = "an element of the product" if sliced else "an element of the input"
        note(f"{size}x{size} product, callback on {on}", compiles(size, sliced))

# wrapper_batches_speed's own timing, repeated here for the ratio it turns into a boolean
arrays = jax.block_until_ready([jnp.full(4, float(i)) for i in range(1000)])


def loop():
    for a in arrays:  # jaxwaits: ignore[JW112] the slow form, timed against the wrapper
        a.block_until_ready()


def wrapper():
    jax.block_until_ready(arrays)


times = {loop: [], wrapper: []}
for _ in range(15):
    for way, taken in times.items():
        taken.append(timeit.timeit(way, number=20))
note("wrapper over loop, 1000 ready arrays", min(times[loop]) / min(times[wrapper]))
