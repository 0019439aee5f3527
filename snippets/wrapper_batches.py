"""Two or more arrays go to one batched runtime call; a single array goes to its own method.

Both paths are watched directly: the batched call and the array method are each replaced by a
counting wrapper around the original.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import api, array

batched_calls = []
method_calls = []
# What the wrapper calls for several arrays (jaxlib has it from 0.4.26), and an array's own method.
batched = getattr(api.xc, "batched_block_until_ready", None)
method = array.ArrayImpl.block_until_ready


def counting_batched(arrays):
    batched_calls.append(len(arrays))
    return batched(arrays)


def counting_method(self):
    method_calls.append(1)
    return method(self)


if batched is None:
    print("jaxlib has no batched_block_until_ready: there is no batched call to make")
else:
    api.xc.batched_block_until_ready = counting_batched
array.ArrayImpl.block_until_ready = counting_method
arrays = [jnp.full(4, float(i)) for i in range(100)]
for label, tree in [
    ("100 arrays", arrays),
    ("2 arrays", arrays[:2]),
    ("1 array", arrays[0]),
    ("1 array and a NumPy array", [arrays[0], np.ones(3)]),
]:
    batched_calls.clear()
    method_calls.clear()
    jax.block_until_ready(tree)
    print(
        f"{label}: batched calls {len(batched_calls)}, arrays per call {batched_calls},"
        f" array methods called {len(method_calls)}"
    )
if batched is not None:
    api.xc.batched_block_until_ready = batched
array.ArrayImpl.block_until_ready = method
