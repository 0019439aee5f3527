"""jax.block_until_ready flattens a pytree, custom nodes included, and waits on every array leaf."""

import jax
import jax.numpy as jnp


class State:
    """A custom pytree node holding arrays."""

    def __init__(self, params, step):
        self.params, self.step = params, step


jax.tree_util.register_pytree_node(
    State, lambda s: ((s.params, s.step), None), lambda _, children: State(*children)
)

matmul = jax.jit(lambda a: a @ a)
x = jnp.ones((2000, 2000))
matmul(x).block_until_ready()  # warm-up

tree = {"outer": [(jnp.ones(3), State(params={"w": matmul(x)}, step=jnp.int32(1)))]}
leaves = jax.tree_util.tree_leaves(tree)
print("array leaves:", len(leaves))
print("deepest leaf ready before the call:", tree["outer"][0][1].params["w"].is_ready())
jax.block_until_ready(tree)
print("every leaf ready after the call:", all(leaf.is_ready() for leaf in leaves))
