# jaxline's training loop (experiment.py): the step is dispatched, the time is read at once
# and handed to periodic actions, which make steps per second from it in another module.
import time

import jax
import jax.numpy as jnp
from actions import PeriodicAction

step = jax.jit(lambda w: (w - 0.01 * jnp.tanh(w @ w), jnp.mean(w)))
w = jnp.ones((256, 256))
step(w)[1].block_until_ready()
actions = [PeriodicAction(every=2)]
for global_step in range(1, 7):
    w, scalars = step(w)
    t = time.time()  # <- JW101
    for action in actions:
        action(t, global_step, scalars)
print("rates:", len(actions[0].rates))
