"""effects_barrier() inside jit runs once, at trace time, and stages nothing into the program."""

import warnings

import jax
import jax.numpy as jnp

ran = []


def f(x):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        returned = jax.effects_barrier()  # jaxwaits: ignore[JW106] the mistake shown here
    ran.append((returned, len(caught)))
    return x + 1


jitted = jax.jit(f)
for _ in range(3):
    jitted(jnp.ones(3)).block_until_ready()
print("calls: 3 | times the barrier ran:", len(ran))
print("inside jit it returned:", ran[0][0], "| warnings:", ran[0][1])
jaxpr = jax.make_jaxpr(f)(jnp.ones(3))
print("staged equations:", [eqn.primitive.name for eqn in jaxpr.eqns])
print("staged effects:", len(jaxpr.effects))
