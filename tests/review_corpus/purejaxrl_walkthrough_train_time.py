# source: luchris429/purejaxrl
# path: examples/walkthrough.ipynb
# commit: 31756b197773a52db763fdbe6d635e4b46522a73
# licence: Apache-2.0
# url: https://github.com/luchris429/purejaxrl/blob/31756b197773a52db763fdbe6d635e4b46522a73/examples/walkthrough.ipynb
# [cell 7]
train_jit = jax.jit(make_train(config))
out = train_jit(rng)
# ...
# [cell 8]
import time
import matplotlib.pyplot as plt
rng = jax.random.PRNGKey(42)
t0 = time.time()
out = jax.block_until_ready(train_jit(rng))
print(f"time: {time.time() - t0:.2f} s")
# ...
# [cell 10]
rng = jax.random.PRNGKey(42)
rngs = jax.random.split(rng, 256)
train_vjit = jax.jit(jax.vmap(make_train(config)))
t0 = time.time()
outs = jax.block_until_ready(train_vjit(rngs))  # expect: review-compile-in-the-measurement
print(f"time: {time.time() - t0:.2f} s")
