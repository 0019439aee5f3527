# Two results made by separate jitted calls, only the first blocked before the read
# (neural-tangents' kernel cells: nngp and ntk from separate computations): the time leaves out
# the work still running for the second.
import time

import jax
import jax.numpy as jnp

nngp = jax.jit(lambda a: jnp.tanh(a @ a.T))
ntk = jax.jit(lambda a: jnp.tanh(a @ a.T) @ a)
x = jnp.ones((300, 300))
nngp(x).block_until_ready()
ntk(x).block_until_ready()
t0 = time.perf_counter()
k1 = nngp(x)
k2 = ntk(x)
k1.block_until_ready()
elapsed = time.perf_counter() - t0  # <- JW103
print("kernels:", k1.shape, k2.shape)
