# source: google/flax
# path: docs/guides/parallel_training/flax_on_pjit.md
# commit: 18f8f311c275d57f46d95e41b15aa97b454754c0
# licence: Apache-2.0
# url: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/docs/guides/parallel_training/flax_on_pjit.md#L310-L361
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
# note: train_step is compiled by the call in the earlier cell; every leaf of the returned state is blocked (leaf by leaf) inside the %%timeit cell
# expect: clean
@functools.partial(jax.jit, in_shardings=(state_sharding, x_sharding),
                   out_shardings=state_sharding)
def train_step(state, x):
  # A fake loss function.
  def loss_unrolled(params):
    y = model.apply({'params': params}, x)
    return y.sum()
  grad_fn = jax.grad(loss_unrolled)
  grads = grad_fn(state.params)
  state = state.apply_gradients(grads=grads)
  return state

with jax.set_mesh(mesh):
  new_state = train_step(initialized_state, x)
# ...
%%timeit

def block_all(xs):
  jax.tree_util.tree_map(lambda x: x.block_until_ready(), xs)
  return xs

with jax.set_mesh(mesh):
  new_state = block_all(train_step(initialized_state, x))
