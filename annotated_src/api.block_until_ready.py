#| `jax.block_until_ready(x)`: a function over a whole pytree, unlike the method, which belongs
#| to one array.
def block_until_ready(x):
  #| The docstring promises readiness only for "JAX array leaves"; everything else is left as
  #| it is.
  """
  Tries to call a ``block_until_ready`` method on pytree leaves.

  Args:
    x: a pytree, usually with at least some JAX array instances at its leaves.

  Returns:
    A pytree with the same structure and values of the input, where the values
    of all JAX array leaves are ready.
  """
  #| The helper for any leaf that is not a concrete `ArrayImpl`.
  def try_to_block(x):
    #| The `try` holds both the attribute lookup and the call.
    try:
      #| A leaf with the method is blocked on; the method's result is returned but ignored by
      #| every caller below.
      return x.block_until_ready()
    #| Only `AttributeError` is caught: a leaf without the method (a NumPy array, a number, a
    #| string) passes untouched, while any other exception from a leaf's method propagates. An
    #| `AttributeError` raised *inside* a leaf's method is swallowed just the same.
    #| {claim}`wrapper-passes-non-arrays` {claim}`wrapper-catches-only-attributeerror`
    except AttributeError:
      #| A tracer lands here too: asking it for `block_until_ready` raises `AttributeError`, so
      #| under `jit` the wrapper waits for nothing and says nothing.
      #| {claim}`tracer-raises-attributeerror` {claim}`block-under-jit-is-noop`
      return x

  #| The concrete arrays are gathered first, to be waited on together.
  arrays = []
  #| The pytree is flattened, and every leaf is visited. {claim}`wrapper-flattens-pytrees`
  for leaf in tree_leaves(x):
    #| The test is for the concrete array class: a tracer is not an `ArrayImpl`.
    if isinstance(leaf, array.ArrayImpl):
      #| Concrete arrays are only collected here; the wait comes after the loop.
      arrays.append(leaf)
    #| Any other leaf goes through the helper at once, in tree order.
    else:
      #| A leaf with its own `block_until_ready` (not an `ArrayImpl`) is blocked on here.
      try_to_block(leaf)

  #| No concrete array among the leaves: an empty tree, a tree of NumPy arrays and numbers,
  #| or a tree of tracers.
  if not arrays:
    # `arrays` will be empty if tree_leaves(x) is empty or all leaves are not
    # jax.Array.
    #| Nothing to wait on, and no warning: from outside, this looks exactly like a successful
    #| block. {claim}`wrapper-no-arrays-is-silent` {claim}`block-under-jit-is-noop`
    pass
  #| Exactly one array: the single-array path.
  elif len(arrays) == 1:
    # Fast path for single array.
    #| The array's own method: its buffers, and nothing else. {claim}`waits-on-own-buffers`
    try_to_block(arrays[0])
  #| Two or more arrays: the batched path. {claim}`wrapper-batches`
  else:
    # Optimized for multiple arrays.
    #| One call into jaxlib for all the arrays, in place of a Python loop over their methods.
    #| It is not wrapped in `try`: whatever it raises propagates. This path entered in jax
    #| {changed-in}`0.4.26 <api.block_until_ready>`, guarded by a jaxlib version check that
    #| {changed-in}`0.4.28 <api.block_until_ready>` removed. {claim}`wrapper-batches`
    xc.batched_block_until_ready(arrays)

  #| The argument itself comes back, the same object, not a copy or a rebuilt tree.
  #| {claim}`wrapper-returns-its-argument`
  return x
