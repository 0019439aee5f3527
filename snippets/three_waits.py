# env: XLA_FLAGS=--xla_force_host_platform_device_count=4
"""Three different waits: an array's buffers, the pending effects, and a transfer to the host."""

import jax
import jax.numpy as jnp
import numpy as np

matmul = jax.jit(lambda a: a @ a)


@jax.jit
def matmul_with_callback(a):
    jax.debug.callback(lambda v: None, a[0, 0])  # an effect: the runtime keeps a token for it
    return a @ a


# A product still running when the next line looks: 2000x2000 on CPU; a GPU does that in
# microseconds, so there it is 16384x16384.
n = 2000 if jax.default_backend() == "cpu" else 16384
x = jnp.ones((n, n))
jax.block_until_ready((matmul(x), matmul_with_callback(x)))  # warm-up: compile both
jax.effects_barrier()

y = matmul(x)
jax.effects_barrier()  # a pure computation leaves no token: nothing here waits for y
print("pure: ready after effects_barrier():", y.is_ready())
y.block_until_ready()  # the wait for an array's buffers
print("pure: ready after block_until_ready():", y.is_ready())

running = matmul(x)  # busy work, so the next computation is queued, not run during the call
e = matmul_with_callback(x)
if jax.default_backend() == "cpu":
    print("effectful: ready when the call returned:", e.is_ready())
else:  # its callback ran during the call, after the product or before it: a race
    print("effectful: ready when the call returned: not asked on", jax.default_backend())
jax.effects_barrier()  # its token is the whole computation's completion
print("effectful: ready after effects_barrier():", e.is_ready())

z = matmul(x)
host = np.asarray(z)  # a transfer to the host waits for the computation too
print("np.asarray returned a host array:", isinstance(host, np.ndarray))
print("ready after np.asarray():", z.is_ready())
