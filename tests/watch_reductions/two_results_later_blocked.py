# Two results made by separate jitted calls, only the one dispatched second blocked before the
# read (an evaluation dispatched after the loss, and the evaluation's metrics blocked): a block
# waits for its own array's buffers only, so the loss is not waited on, whichever came first.
import time

import jax
import jax.numpy as jnp

loss_fn = jax.jit(lambda a: jnp.mean(jnp.tanh(a @ a.T @ a)))
evaluate = jax.jit(lambda a: jnp.max(a) + 1)
x = jnp.ones((400, 400))
loss_fn(x).block_until_ready()
evaluate(x).block_until_ready()
t0 = time.perf_counter()
loss = loss_fn(x)
metrics = evaluate(x)
metrics.block_until_ready()
elapsed = time.perf_counter() - t0  # <- JW103
print("loss:", float(loss), "metrics:", float(metrics))
