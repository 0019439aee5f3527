"""The block_until_ready that runs is native code, not the Python body in jax/_src/array.py."""

import inspect

import jax.numpy as jnp
from jax._src import array

ArrayImpl = type(jnp.zeros(1))
print("the Python class was replaced by the native one:", array.ArrayImpl is ArrayImpl)
print("block_until_ready is a Python function:", inspect.isfunction(ArrayImpl.block_until_ready))
print("block_until_ready attribute type:", type(ArrayImpl.block_until_ready).__name__)
print("copy_to_host_async is a Python function:", inspect.isfunction(ArrayImpl.copy_to_host_async))

# The Python body would raise RuntimeError("Array has been deleted with shape=..."):
# on a deleted array, the two implementations give different errors.
x = jnp.zeros(3)
x.delete()
for method in ("block_until_ready", "copy_to_host_async"):
    try:
        getattr(x, method)()
    except Exception as e:
        print(f"{method} on a deleted array raises:", type(e).__name__)
        python_message = str(e).startswith("Array has been deleted with shape")
        print("  message is the Python body's:", python_message)
