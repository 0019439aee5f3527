# An evaluation loop that counts correct predictions with int() of an eager reduction of the
# jitted step's output (flax examples): the count waits, so the epoch time is right.
import time

import jax
import jax.numpy as jnp

predict = jax.jit(lambda w, x: jnp.argmax(x @ w, axis=-1))
w = jnp.ones((64, 10))
x = jnp.ones((128, 64))
labels = jnp.zeros(128, dtype=jnp.int32)
predict(w, x).block_until_ready()
t0 = time.perf_counter()
correct = 0
for _ in range(4):
    predicted = predict(w, x)
    correct += int((predicted == labels).sum())
epoch_time = time.perf_counter() - t0  # <- JW102 judged
print("correct:", correct)
