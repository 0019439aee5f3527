"""Three different waits: an array's buffers, the pending effects, and a transfer to the host."""

import jax
import jax.numpy as jnp
import numpy as np

matmul = jax.jit(lambda a: a @ a)
x = jnp.ones((2000, 2000))
matmul(x).block_until_ready()  # warm-up

y = matmul(x)
jax.effects_barrier()  # the wrong wait for an array: it waits on effect tokens only
print("ready after effects_barrier():", y.is_ready())
y.block_until_ready()  # the wait for an array's buffers
print("ready after block_until_ready():", y.is_ready())

z = matmul(x)
host = np.asarray(z)  # a transfer to the host waits for the computation too
print("np.asarray returned a host array:", isinstance(host, np.ndarray))
print("ready after np.asarray():", z.is_ready())
