"""Under jit the argument is a tracer: its block_until_ready raises, the wrapper does nothing."""

import jax
import jax.numpy as jnp


@jax.jit
def method_on_tracer(x):
    try:
        x.block_until_ready()  # jaxwaits: ignore[JW104] the mistake this snippet shows
    except AttributeError:
        print("method on tracer raises: AttributeError")
    print("hasattr(tracer, 'block_until_ready'):", hasattr(x, "block_until_ready"))
    return x * 2


@jax.jit
def wrapper_on_tracer(x):
    returned = jax.block_until_ready(x)  # jaxwaits: ignore[JW104] the mistake this snippet shows
    print("wrapper returns the tracer itself:", returned is x)
    return x * 2


method_on_tracer(jnp.ones(3))
wrapper_on_tracer(jnp.ones(3))
