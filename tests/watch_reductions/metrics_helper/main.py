# A scan training loop that logs its loss from inside jit to another module's metrics store
# (log_scalar bound with functools.partial, the store filled by a helper): the store is read
# after a block on the final weights, with no effects barrier.
import functools

import jax
import jax.numpy as jnp

import metrics


@jax.jit
def train(w, x):
    def body(w, _):
        loss = jnp.mean((x @ w) ** 2)
        jax.debug.callback(functools.partial(metrics.log_scalar, "loss"), loss)
        return w - 0.01 * jnp.tanh(w), None

    w, _ = jax.lax.scan(body, w, None, length=4)
    return w


w = train(jnp.ones((64, 64)), jnp.ones((64, 64)))
w.block_until_ready()
print("logged:", len(metrics.HISTORY["loss"]))  # <- JW108 by chance
