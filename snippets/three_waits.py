# env: XLA_FLAGS=--xla_force_host_platform_device_count=4
"""Three different waits: an array's buffers, the pending effects, and a transfer to the host."""

import jax
import jax.numpy as jnp
import numpy as np

matmul = jax.jit(lambda a: a @ a)


@jax.jit
def matmul_with_callback(a):
    y = a @ a
    jax.debug.callback(lambda v: None, y[0, 0])  # an effect: the runtime keeps a token for it
    return y


x = jnp.ones((2000, 2000))
jax.block_until_ready((matmul(x), matmul_with_callback(x)))  # warm-up: compile both
jax.effects_barrier()

y = matmul(x)
jax.effects_barrier()  # a pure computation leaves no token: nothing here waits for y
print("pure: ready after effects_barrier():", y.is_ready())
y.block_until_ready()  # the wait for an array's buffers
print("pure: ready after block_until_ready():", y.is_ready())

running = matmul(x)  # busy work, so the next computation is queued, not run during the call
e = matmul_with_callback(x)
print("effectful: ready when the call returned:", e.is_ready())
jax.effects_barrier()  # its token is the whole computation's completion
print("effectful: ready after effects_barrier():", e.is_ready())

z = matmul(x)
host = np.asarray(z)  # a transfer to the host waits for the computation too
print("np.asarray returned a host array:", isinstance(host, np.ndarray))
print("ready after np.asarray():", z.is_ready())
