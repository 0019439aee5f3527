"""Two or more arrays go to one batched runtime call; a single array goes to its own method;
typed key arrays (jax.random.key) always go to their own.

The paths are watched directly: the batched call, the array method and the key array method are
each replaced by a counting wrapper around the original.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import api, array

batched_calls = []
method_calls = []
key_calls = []
# What the wrapper calls for several arrays (jaxlib has it from 0.4.26), and an array's own method.
batched = getattr(api.xc, "batched_block_until_ready", None)
method = array.ArrayImpl.block_until_ready
KeyArray = type(jax.random.key(0))  # the class of typed key arrays, wherever it lives
key_method = KeyArray.block_until_ready


def counting_batched(arrays):
    batched_calls.append(len(arrays))
    return batched(arrays)


def counting_method(self):
    method_calls.append(1)
    return method(self)


def counting_key_method(self):
    key_calls.append(1)
    return key_method(self)


if batched is None:
    print("jaxlib has no batched_block_until_ready: there is no batched call to make")
else:
    api.xc.batched_block_until_ready = counting_batched
array.ArrayImpl.block_until_ready = counting_method
KeyArray.block_until_ready = counting_key_method
arrays = [jnp.full(4, float(i)) for i in range(100)]
keys = [jax.random.key(i) for i in range(2)]
for label, tree in [
    ("100 arrays", arrays),
    ("2 arrays", arrays[:2]),
    ("1 array", arrays[0]),
    ("1 array and a NumPy array", [arrays[0], np.ones(3)]),
    ("2 typed key arrays", keys),
    ("1 array and 1 typed key array", [arrays[0], keys[0]]),
]:
    batched_calls.clear()
    method_calls.clear()
    key_calls.clear()
    jax.block_until_ready(tree)
    print(
        f"{label}: batched calls {len(batched_calls)}, arrays per call {batched_calls},"
        f" array methods called {len(method_calls)}, key array methods called {len(key_calls)}"
    )
if batched is not None:
    api.xc.batched_block_until_ready = batched
array.ArrayImpl.block_until_ready = method
KeyArray.block_until_ready = key_method
