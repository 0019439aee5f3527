"""The wrapper swallows AttributeError from a leaf's block_until_ready and lets others through."""

import jax
import jax.numpy as jnp


class RaisesValueError:
    def block_until_ready(self):
        raise ValueError("not ready, and saying so")


class HasABug:
    def block_until_ready(self):
        return self.missing_attribute  # an AttributeError raised *inside* the method


for leaf in (RaisesValueError(), HasABug()):
    try:
        jax.block_until_ready([jnp.ones(3), leaf])
        print(f"{type(leaf).__name__}: swallowed")
    except Exception as e:
        print(f"{type(leaf).__name__}: propagates {type(e).__name__}")
