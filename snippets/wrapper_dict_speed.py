"""The wrapper's one batched call against a Python loop of method calls over a dict of 1000
ready arrays, and what flattening the dict costs beside a list of the same arrays (the wrapper
flattens its argument).

Each way is timed as in `wrapper_batches_speed`, the fastest of 15 repeats of 20 calls in a row,
the ways taking turns, but in the CPU time of this thread (`time.thread_time`), which other
processes on a busy machine do not inflate. Only comparisons with a margin are printed: the
wrapper's margin, 2, lies between the ratios measured for it (0.8 to 1.35) and for a wrapper
that skipped flattening the dict (3 to 3.5).
"""

import time
import timeit

import jax
import jax.numpy as jnp

in_a_list = jax.block_until_ready([jnp.full(4, float(i)) for i in range(1000)])
in_a_dict = {f"p{i}": a for i, a in enumerate(in_a_list)}


def dict_loop():
    for a in in_a_dict.values():  # jaxwaits: ignore[JW112] the slow form, timed against the wrapper
        a.block_until_ready()


ways = {
    "dict loop": dict_loop,
    "dict wrapper": lambda: jax.block_until_ready(in_a_dict),
    "list flattening": lambda: jax.tree_util.tree_leaves(in_a_list),
    "dict flattening": lambda: jax.tree_util.tree_leaves(in_a_dict),
}
times = {name: [] for name in ways}
for _ in range(15):
    for name, way in ways.items():
        times[name].append(timeit.Timer(way, timer=time.thread_time).timeit(number=20))
fastest = {name: min(taken) for name, taken in times.items()}
ratio = fastest["dict loop"] / fastest["dict wrapper"]
print("over a dict, the wrapper is at least 2x faster than a loop of method calls:", ratio > 2)
ratio = fastest["dict flattening"] / fastest["list flattening"]
print("flattening the dict takes at least 3x as long as flattening the list:", ratio > 3)
