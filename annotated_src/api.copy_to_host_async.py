def copy_to_host_async(x):
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
  def try_to_copy(x):
    try:
      copy_fn = x.copy_to_host_async
    except AttributeError:
      return x
    else:
      return copy_fn()

  arrays = []
  for leaf in tree_leaves(x):
    if isinstance(leaf, (array.ArrayImpl, xc.ArrayImpl)):
      arrays.append(leaf)
    else:
      try_to_copy(leaf)

  if not arrays:
    pass
  elif len(arrays) == 1:
    try_to_copy(arrays[0])
  else:
    if jaxlib_extension_version >= 495 and ifrt_version >= 71:
      _jax.batched_copy_to_host_async(arrays)
    else:
      for arr in arrays:
        try_to_copy(arr)

  return x
