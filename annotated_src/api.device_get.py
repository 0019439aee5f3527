#| `jax.device_get(x)`, in `jax/_src/api.py`: the pytree fetch, and the transfer the guard calls
#| *explicit*. {claim}`device-get-and-the-guard`
def device_get(x: Any):
  #| The docstring's promise, "the individual buffers are copied in parallel", is kept by the
  #| copies started below before any leaf is fetched.
  """Transfer ``x`` to host.

  If ``x`` is a pytree, then the individual buffers are copied in parallel.

  Args:
    x: An array, scalar, Array or (nested) standard Python container thereof
      representing the array to be transferred to host.

  Returns:
    An array or (nested) Python container thereof representing the
    value of ``x``.

  Examples:
    Passing a Array:

    >>> import jax
    >>> x = jax.numpy.array([1., 2., 3.])
    >>> jax.device_get(x)
    array([1., 2., 3.], dtype=float32)

    Passing a scalar (has no effect):

    >>> jax.device_get(1)
    1

  See Also:
    - device_put
    - device_put_sharded
    - device_put_replicated
  """
  #| Everything inside is an explicit device-to-host transfer: a transfer guard set to
  #| `"disallow"` lets it through, and only `"disallow_explicit"` refuses it.
  #| {claim}`device-get-and-the-guard`
  with config.explicit_device_get_scope():
    #| The module-level `jax.copy_to_host_async` ({doc}`annotated <api.copy_to_host_async>`)
    #| starts the copy of every array leaf, without waiting. {claim}`device-get-and-the-guard`
    copy_to_host_async(x)
    #| Then each leaf is fetched in turn: `_device_get` reads it through its `__array__`.
    return tree_map(_device_get, x)
