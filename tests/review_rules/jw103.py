"""JW103 one-output-blocked: only some results of separately dispatched work are waited on before the timer stops."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

other = jax.jit(lambda a: a + 1)
step(x).block_until_ready(); other(x).block_until_ready()
t0 = time.perf_counter()
loss = step(x)
params = other(x)
loss.block_until_ready()
elapsed = time.perf_counter() - t0  # <- JW103

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

both = jax.jit(lambda a: (a.sum(), a + 1))
both(x)
t0 = time.perf_counter()
loss, params = both(x)
loss.block_until_ready()
elapsed = time.perf_counter() - t0

up = jax.jit(lambda a: a * 2)
adain = jax.jit(lambda a, b: a + b)
up(x).block_until_ready(); adain(x, x).block_until_ready()
t1 = time.perf_counter()
upsampled = up(x)
if x.shape[0] > 5:  # one branch or the other runs (maxdiffusion's ltx2 upsampler)
    latents = adain(upsampled, x)
else:
    latents = upsampled
latents.block_until_ready()
elapsed = time.perf_counter() - t1

for epoch in range(2):  # each reading times from its own start (mnist-torch-vs-jax)
    for b in jnp.split(x, 2):  # dispatched, never timed
        t = time.perf_counter_ns()
        step(b).block_until_ready()
        took = time.perf_counter_ns() - t
    for b in [x]:
        t = time.perf_counter_ns()
        step(b).block_until_ready()
        took = time.perf_counter_ns() - t

key = jax.random.PRNGKey(0)
times = []
for _ in range(3):
    key, sub = jax.random.split(key)  # before the timer starts again: not timed
    t0 = time.time()
    np.asarray(step(x))
    t1 = time.time()
    times.append(t1 - t0)
    t0 = time.time()  # started again for the next timing, in the same round (jax-tutorial)
    np.asarray(step(x))
    t1 = time.time()
    times.append(t1 - t0)


def depth(host_t, theta):
    t2 = time.time()
    base = jnp.asarray(host_t)  # read by g, whose result is waited on (vulcan_exojax_run)

    def g(th):
        return jnp.exp(base + th)

    depth0 = np.asarray(jnp.sum(g(theta)))
    return depth0, time.time() - t2


def play(n):  # a key split beside the timed work, its keys never waited on (JambNeuralNetwork)
    master_key = jax.random.PRNGKey(42)
    t4 = time.time()
    for _ in range(n):
        k_batch, master_key = jax.random.split(master_key)
        scores = np.array(step(x))
    return scores, time.time() - t4



def evaluate(batches):  # each loss read back; their mean is bookkeeping (learning-jax)
    metrics = {"loss": []}
    t5 = time.time()
    for b in batches:
        loss = step(b)
        metrics["loss"].append(float(loss))
    metrics = {k: jnp.array(v).mean() for k, v in metrics.items()}
    metrics["time"] = time.time() - t5
    return metrics
