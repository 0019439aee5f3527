"""Dispatch a large product, then put host data on the device with `jax.device_put`, and block
on that array only: then the same with a product of the device_put array blocked instead."""

import jax
import jax.numpy as jnp
import numpy as np

matmul = jax.jit(lambda a: a @ a)
# A product still running when the next line looks: 2000x2000 on CPU; a GPU does that in
# microseconds, so there it is 16384x16384.
n = 2000 if jax.default_backend() == "cpu" else 16384
large, host = jnp.ones((n, n)), np.ones((64, 64), np.float32)
matmul(large).block_until_ready()  # warm-up: compile both shapes first
matmul(jax.device_put(host)).block_until_ready()

b = matmul(large)
print("large ready right after dispatch:", b.is_ready())
x = jax.device_put(host)  # a transfer from the host, dispatched after b
x.block_until_ready()
print("large ready after blocking on the device_put array:", b.is_ready())
b.block_until_ready()

b = matmul(large)
s = matmul(jax.device_put(host))  # a computation on the transferred array, dispatched after b
s.block_until_ready()
print("large ready after blocking on a product of the device_put array:", b.is_ready())
