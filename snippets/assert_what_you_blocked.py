"""A checked block: assert that every leaf is a concrete, ready jax.Array after blocking (a typed
key array is asked through the raw key data it holds: it has no is_ready of its own)."""

import jax
import jax.numpy as jnp
import numpy as np


def checked_block(tree):
    jax.block_until_ready(tree)
    leaves = jax.tree_util.tree_leaves(tree)
    assert leaves, "nothing to block on"
    for leaf in leaves:
        assert isinstance(leaf, jax.Array), f"not a jax.Array: {type(leaf).__name__}"
        assert not isinstance(leaf, jax.core.Tracer), "a tracer: this block is inside a transform"
        if jax.dtypes.issubdtype(leaf.dtype, jax.dtypes.prng_key):
            leaf = jax.random.key_data(leaf)
        assert leaf.is_ready(), "not ready after blocking"
    return tree


def attempt(label, fn):
    try:
        fn()
        print(f"{label}: passes")
    except AssertionError as e:
        print(f"{label}: caught ({e})")


attempt("arrays outside jit", lambda: checked_block({"w": jnp.ones((100, 100)) * 2}))
attempt("typed key arrays outside jit", lambda: checked_block([jax.random.key(0)]))
attempt("inside jit", lambda: jax.jit(lambda x: checked_block(x) * 2)(jnp.ones(3)))
attempt("inside vmap", lambda: jax.vmap(lambda x: checked_block(x) * 2)(jnp.ones(3)))
attempt("no JAX arrays", lambda: checked_block({"w": np.ones(3)}))
attempt("empty pytree", lambda: checked_block([]))
