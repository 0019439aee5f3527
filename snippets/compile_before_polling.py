"""A jitted function's first call compiles before it dispatches; a warm-up call removes that."""

import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.tanh(a @ a) + jnp.sin(a).sum())
x = jnp.ones((100, 100))


def dispatch_time():
    start = time.perf_counter()
    y = f(x)
    elapsed = time.perf_counter() - start  # jaxwaits: ignore[JW101] the dispatch, on purpose
    y.block_until_ready()
    return elapsed


print("compiled executables before the first call:", f._cache_size())
first = dispatch_time()
print("compiled executables after the first call:", f._cache_size())
warm = min(dispatch_time() for _ in range(5))
print("first call at least 10x slower than a warm one:", first / warm > 10)
print("compiled executables after warm calls:", f._cache_size())
