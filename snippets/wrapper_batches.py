"""Several arrays go to one batched runtime call; a single array takes the per-array path."""

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import api

calls = []
batched = api.xc.batched_block_until_ready  # the function the wrapper calls for several arrays


def counting(arrays):
    calls.append(len(arrays))
    return batched(arrays)


api.xc.batched_block_until_ready = counting
arrays = [jnp.full(4, float(i)) for i in range(100)]
for label, tree in [
    ("100 arrays", arrays),
    ("1 array", arrays[0]),
    ("1 array and a NumPy array", [arrays[0], np.ones(3)]),
]:
    calls.clear()
    jax.block_until_ready(tree)
    print(f"{label}: batched calls {len(calls)}, arrays per call {calls}")
api.xc.batched_block_until_ready = batched
