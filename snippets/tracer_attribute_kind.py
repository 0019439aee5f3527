"""Where a tracer's block_until_ready AttributeError comes from: a property, or __getattr__."""

import jax
import jax.numpy as jnp


@jax.jit
def inspect_tracer(x):
    owners = [c for c in type(x).__mro__ if "block_until_ready" in vars(c)]
    print("tracer is a jax.Array instance:", isinstance(x, jax.Array))
    print("a class in the tracer's MRO defines block_until_ready:", bool(owners))
    if owners:
        print("  defined as:", type(vars(owners[0])["block_until_ready"]).__name__)
    print("answered by __getattr__:", not owners and hasattr(type(x), "__getattr__"))
    return x


inspect_tracer(jnp.ones(3))
