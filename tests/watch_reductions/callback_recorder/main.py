# A metrics recorder in another module whose bound method is the host callback of the jitted
# step (clu-style metric writers fed from inside jit); the loop blocks on the state, then reads
# the recorder's history, with no effects barrier.
import jax
import jax.numpy as jnp
from metrics import MetricsRecorder

recorder = MetricsRecorder()


@jax.jit
def step(w, i):
    loss = jnp.mean(jnp.tanh(w) ** 2)
    jax.debug.callback(recorder.record, i, loss)
    return w - 0.1 * jnp.tanh(w)


w = jnp.ones((64, 64))
for i in range(4):
    w = step(w, i)
w.block_until_ready()
print("recorded steps:", sorted(recorder.history))  # <- JW108 by chance
