"""Inside jit, jax.block_until_ready blocks nothing and says nothing: no error, no warning."""

import warnings

import jax
import jax.numpy as jnp

caught_while_tracing = []


@jax.jit
def step(a):
    y = a @ a
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = jax.block_until_ready(y)  # jaxwaits: ignore[JW104] a tracer: nothing to wait on
    caught_while_tracing.append(len(caught))
    return y


x = jnp.ones((2000, 2000))
step(x).block_until_ready()  # warm-up: trace and compile
out = step(x)
print("times traced:", len(caught_while_tracing))
print("warnings while tracing:", caught_while_tracing[0])
print("output ready when the call returns:", out.is_ready())
