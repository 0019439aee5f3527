"""block_until_ready() on a deleted or a donated array raises, and the error names both causes."""

import jax
import jax.numpy as jnp

deleted = jnp.arange(1000.0)
deleted.delete()

donated = jnp.arange(1000.0)
jax.jit(lambda a: a + 1, donate_argnums=0)(donated).block_until_ready()
print("donated input is marked deleted:", donated.is_deleted())

for name, x in [("deleted", deleted), ("donated", donated)]:
    try:
        x.block_until_ready()
        print(name, "block returned")
    except Exception as e:
        print(name, "block raises:", type(e).__name__)
        print(name, "error is a RuntimeError:", isinstance(e, RuntimeError))
        named = getattr(jax.errors, "JaxRuntimeError", ())  # () where the name does not exist
        print(name, "error is a jax.errors.JaxRuntimeError:", isinstance(e, named))
        print(name, "error names deletion and donation:", "deleted or donated" in str(e))
