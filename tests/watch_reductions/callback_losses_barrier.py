# The same scan-based loop logging each step's loss through a callback, read after
# jax.effects_barrier(), which waits for the callbacks this thread's computations staged.
import jax
import jax.numpy as jnp

losses: list[float] = []


def train_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    jax.debug.callback(losses.append, loss)
    return w - 0.01 * jnp.tanh(w), None


@jax.jit
def train(w, x):
    w, _ = jax.lax.scan(lambda w, _: train_step(w, x), w, None, length=5)
    return w


w = train(jnp.ones((64, 64)), jnp.ones((64, 64)))
w.block_until_ready()
jax.effects_barrier()
print("steps logged:", len(losses))
