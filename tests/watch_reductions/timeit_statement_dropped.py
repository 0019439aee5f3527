# timeit with a statement string and a globals dict (the "python -m timeit" style ported into a
# script): the statement dispatches the jitted call and returns without waiting.
import timeit

import jax
import jax.numpy as jnp

step = jax.jit(lambda w: w - 0.01 * jnp.tanh(w @ w @ w))
w = jnp.ones((400, 400)) * 0.01
step(w).block_until_ready()
seconds = timeit.timeit("step(w)", globals={"step": step, "w": w}, number=10)  # <- JW101 not known
print("timed:", seconds > 0)
