"""jax.block_until_ready returns the very pytree it was given, every leaf untouched."""

import jax
import jax.numpy as jnp
import numpy as np

tree = {"jax": jnp.arange(3.0), "numpy": np.arange(3.0), "float": 1.5}
out = jax.block_until_ready(tree)
print("returns the same dict:", out is tree)
print("jax leaf is the same object:", out["jax"] is tree["jax"])
print("numpy leaf is the same object:", out["numpy"] is tree["numpy"])
print("jax leaf is ready:", tree["jax"].is_ready())
