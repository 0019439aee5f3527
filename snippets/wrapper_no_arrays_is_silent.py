"""Given a pytree with no JAX arrays, the wrapper blocks nothing and says nothing."""

import warnings

import jax
import numpy as np

for tree in ({"host": np.ones(3)}, [], None):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = jax.block_until_ready(tree)
    print(f"{type(tree).__name__}: returns its argument:", out is tree, "| warnings:", len(caught))
