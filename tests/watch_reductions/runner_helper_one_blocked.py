# A Runner that funnels every jitted call through one helper method (counting calls, the shape of
# small trainer classes): the loss and the update are separate calls, and only the loss is
# waited on before the step time is read.
import time

import jax
import jax.numpy as jnp


class Runner:
    def __init__(self):
        self.calls = 0

    def run(self, fn, *args):
        self.calls += 1
        return fn(*args)


loss_fn = jax.jit(lambda p, x: jnp.mean(jnp.tanh(x @ p)))
update = jax.jit(lambda p, x: p - 0.01 * jnp.tanh(p @ p @ p) * jnp.mean(x))
params = jnp.ones((400, 400)) * 0.01
x = jnp.ones((8, 400))
runner = Runner()
jax.block_until_ready((runner.run(loss_fn, params, x), runner.run(update, params, x)))

times = []
for i in range(3):
    t0 = time.perf_counter()
    loss = runner.run(loss_fn, params, x)
    params = runner.run(update, params, x)
    loss.block_until_ready()
    times.append(time.perf_counter() - t0)  # <- JW103
params.block_until_ready()
print("steps:", len(times), "calls:", runner.calls)
