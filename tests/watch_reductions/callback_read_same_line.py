# A benchmark's summary line that blocks on the step's output and prints the count its callback
# kept in one statement: the count is read on the line of the block, after it, with no effects
# barrier.
import jax
import jax.numpy as jnp

seen: list[int] = []


@jax.jit
def step(x):
    jax.debug.callback(lambda: seen.append(1))
    return jnp.sin(x) * 2.0


x = jnp.ones((128,))
print("shape:", jax.block_until_ready(step(x)).shape, "steps seen:", len(seen))  # <- JW108 by chance
