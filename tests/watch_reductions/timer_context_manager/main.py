# A timing context manager defined in another module of the project, around a jitted step
# that nothing waits on inside the block (kfac-jax examples, algoperf's Profiler).
import jax
import jax.numpy as jnp
from timing import Timer

step = jax.jit(lambda w: w - 0.1 * jnp.tanh(w @ w))
w = jnp.ones((256, 256))
step(w).block_until_ready()
with Timer("step") as timer:
    w = step(w)
print("timed:", timer.elapsed > 0)
