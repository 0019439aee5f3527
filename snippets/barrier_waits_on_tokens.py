"""effects_barrier() waits on the runtime's effect tokens, not on arrays."""

import jax
import jax.numpy as jnp
from jax._src import dispatch

tokens = dispatch.runtime_tokens  # what effects_barrier() blocks on (private)
matmul = jax.jit(lambda a: a @ a)
# A product still running when the next line looks: 2000x2000 on CPU; a GPU does that in
# microseconds, so there it is 16384x16384.
n = 2000 if jax.default_backend() == "cpu" else 16384
x = jnp.ones((n, n))
matmul(x).block_until_ready()  # warm-up


@jax.jit
def effectful(a):
    jax.debug.callback(lambda v: None, a[0, 0])
    return a + 1


b = matmul(x)
print("runtime tokens after a pure dispatch:", len(tokens.output_runtime_tokens))
jax.effects_barrier()
print("pure result ready after effects_barrier():", b.is_ready())
b.block_until_ready()

effectful(jnp.ones((2, 2)))
print("runtime tokens after a dispatch with a callback:", len(tokens.output_runtime_tokens))
jax.effects_barrier()
print("runtime tokens after effects_barrier():", len(tokens.output_runtime_tokens))
