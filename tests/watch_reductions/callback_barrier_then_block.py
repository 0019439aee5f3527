# A training loop that flushes its host-side logs with jax.effects_barrier() right after the
# call, then blocks on the parameters and reads the log: the barrier came first, so the read is
# of a finished log.
import jax
import jax.numpy as jnp

log: list[float] = []


@jax.jit
def update(w):
    jax.debug.callback(log.append, jnp.sum(w))
    return w * 0.5


w = update(jnp.ones((16, 16)))
jax.effects_barrier()
w.block_until_ready()
print("entries logged:", len(log))
