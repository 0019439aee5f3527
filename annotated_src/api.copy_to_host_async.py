#| `jax.copy_to_host_async(x)`, added in jax {changed-in}`0.5.3 <api.copy_to_host_async>`: the pytree counterpart of the method, built
#| like {doc}`jax.block_until_ready <api.block_until_ready>` but starting transfers instead of
#| waiting.
#| {claim}`copy-to-host-async-starts-only`
def copy_to_host_async(x):
  #| The docstring's promise is that the copies are *started*; nothing waits for them.
  """
  Tries to call a ``copy_to_host_async`` method on pytree leaves.

  For each leaf this method will try to call the ``copy_to_host_async`` method
  on the leaf. If the leaf is not a JAX array, or if the leaf does not have a
  ``copy_to_host_async`` method, then this method will do nothing to the leaf.

  Args:
    x: a pytree, usually with at least some JAX array instances at its leaves.

  Returns:
    A pytree with the same structure and values of the input, where the host
    copy of the values of all JAX array leaves are started.
  """
  #| The helper for leaves that are not concrete arrays.
  def try_to_copy(x):
    #| Unlike `try_to_block` in `jax.block_until_ready`, the `try` covers only the attribute
    #| lookup, not the call.
    try:
      #| A leaf without the method, or a tracer (which raises `AttributeError` for this name
      #| too), fails here.
      copy_fn = x.copy_to_host_async
    #| It is skipped silently.
    except AttributeError:
      #| The leaf passes through untouched.
      return x
    #| The call runs outside the `try`.
    else:
      #| So an `AttributeError` raised inside a leaf's method propagates here.
      return copy_fn()

  #| Concrete arrays are collected, as in the blocking wrapper.
  arrays = []
  #| Every leaf of the flattened tree.
  for leaf in tree_leaves(x):
    #| `array.ArrayImpl` is jaxlib's `xc.ArrayImpl` once `use_cpp_class` has run, so the
    #| tuple names one class twice.
    if isinstance(leaf, (array.ArrayImpl, xc.ArrayImpl)):
      #| Collected for one batched call.
      arrays.append(leaf)
    #| Other leaves are handled one by one, in tree order.
    else:
      #| Each goes through the helper at once.
      try_to_copy(leaf)

  #| No concrete array: nothing is started, and nothing said.
  if not arrays:
    #| As silent as the blocking wrapper's empty case.
    pass
  #| One array: its own method.
  elif len(arrays) == 1:
    #| Starts its copy and returns. {claim}`copy-to-host-async-starts-only`
    try_to_copy(arrays[0])
  #| Several arrays: batched, when jaxlib can.
  else:
    #| The same version gate as the method (the batched path entered in jax
    #| {changed-in}`0.12.0 <api.copy_to_host_async>`).
    if jaxlib_extension_version >= 495 and ifrt_version >= 71:
      #| One runtime call starts every copy.
      _jax.batched_copy_to_host_async(arrays)
    #| Older jaxlib: one method call per array.
    else:
      #| Every array in turn.
      for arr in arrays:
        #| Each call only starts its copy.
        try_to_copy(arr)

  #| The argument itself comes back; its values may still be in flight to the host.
  return x
