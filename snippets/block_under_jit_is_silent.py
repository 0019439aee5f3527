"""Inside jit, jax.block_until_ready blocks nothing and says nothing: no error, no warning. Nor
inside vmap, even outside jit, where the batched work runs as it is traced."""

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


# A product still running when the next line looks: 2000x2000 on CPU; a GPU does that in
# microseconds, so there it is 16384x16384.
n = 2000 if jax.default_backend() == "cpu" else 16384
x = jnp.ones((n, n))
step(x).block_until_ready()  # warm-up: trace and compile
out = step(x)
print("times traced:", len(caught_while_tracing))
print("warnings while tracing:", caught_while_tracing[0])
print("output ready when the call returns:", out.is_ready())


# vmap without jit: each operation runs at once, batched, and the value in the function is a
# tracer holding the pending result, which the block does not wait for.
def product(a):
    y = a @ a
    return jax.block_until_ready(y)  # jaxwaits: ignore[JW104] a tracer: nothing to wait on


batched = jax.vmap(product)
batched(x[None]).block_until_ready()  # warm-up: compile the batched product
out = batched(x[None])
print("under vmap without jit, output ready when the call returns:", out.is_ready())
