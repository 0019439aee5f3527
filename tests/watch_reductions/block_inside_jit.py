# A block written inside the jitted function (issues on jax-ml/jax): under tracing it meets a
# tracer and waits for nothing; the caller's block is what waits.
import jax
import jax.numpy as jnp


@jax.jit
def step(a):
    b = a @ a
    jax.block_until_ready(b)  # <- JW104
    return jnp.tanh(b)


x = jnp.ones((50, 50))
print(step(x).block_until_ready().shape)
