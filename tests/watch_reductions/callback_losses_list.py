# A scan-based training loop that logs each step's loss to the host through a callback
# (jax_tqdm's progress bar, the "log from inside scan" recipe): the list is read after a block
# on the final parameters, with no effects barrier.
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
print("steps logged:", len(losses))  # <- JW108 by chance
