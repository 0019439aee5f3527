# A deliberate dispatch-only timer, silenced by its suppression comment (this site's
# compile_before_polling snippet).
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: a @ a)
x = jnp.ones((300, 300))
f(x).block_until_ready()
start = time.perf_counter()
y = f(x)
took = time.perf_counter() - start  # jaxwaits: ignore[JW101] the dispatch alone, on purpose
y.block_until_ready()
print("measured:", took > 0)
