"""A jitted function's first call compiles before it dispatches; a warm-up call removes that,
but only for calls with the same argument shapes and dtypes: another shape or dtype compiles
again."""

import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.tanh(a @ a) + jnp.sin(a).sum())
x = jnp.ones((100, 100))


def dispatch_time(a=x):
    start = time.perf_counter()
    y = f(a)
    elapsed = time.perf_counter() - start  # jaxwaits: ignore[JW101] the dispatch, on purpose
    y.block_until_ready()
    return elapsed


print("compiled executables before the first call:", f._cache_size())
first = dispatch_time()
print("compiled executables after the first call:", f._cache_size())
warm = min(dispatch_time() for _ in range(5))
print("first call at least 10x slower than a warm one:", first / warm > 10)
print("compiled executables after warm calls:", f._cache_size())

for other in (jnp.ones((120, 120)), jnp.ones((100, 100), jnp.bfloat16)):
    said = f"an input of shape {other.shape} and dtype {other.dtype}"
    first = dispatch_time(other)
    print(f"compiled executables after the first call with {said}:", f._cache_size())
    warm = min(dispatch_time(other) for _ in range(5))
    print("that call at least 10x slower than a warm one with the same input:", first / warm > 10)
