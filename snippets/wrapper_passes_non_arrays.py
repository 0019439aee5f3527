"""Leaves that are not JAX arrays pass through the wrapper unchanged, with no error or warning."""

import warnings

import jax
import numpy as np

tree = {"numpy": np.arange(3.0), "int": 7, "float": 1.5, "str": "label", "object": object()}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    out = jax.block_until_ready(tree)
print("returns the same dict:", out is tree)
print("every leaf is the same object:", all(out[k] is tree[k] for k in tree))
print("leaves passed:", len(jax.tree_util.tree_leaves(tree)))
print("warnings:", len(caught))
