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
# A product still running when the next line looks: 2000x2000 on CPU; a GPU does that in
# microseconds, so there it is 16384x16384.
n = 2000 if jax.default_backend() == "cpu" else 16384
x = jnp.ones((n, n))
matmul(x).block_until_ready()  # warm-up

ones, step = jnp.ones(3), jnp.int32(1)  # made first: on a GPU, making them may wait
tree = {"outer": [(ones, State(params={"w": matmul(x)}, step=step))]}
leaves = jax.tree_util.tree_leaves(tree)
print("array leaves:", len(leaves))
print("deepest leaf ready before the call:", tree["outer"][0][1].params["w"].is_ready())
jax.block_until_ready(tree)
print("every leaf ready after the call:", all(leaf.is_ready() for leaf in leaves))
