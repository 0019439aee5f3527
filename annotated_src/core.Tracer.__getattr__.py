  #| Vendored whole: the branch that matters here is five lines, but what it means depends on
  #| when Python calls `__getattr__` at all, and on what the rest of the method does with
  #| other names. Python calls it only after normal lookup fails: `Tracer` has no attribute
  #| `block_until_ready` since jax {changed-in}`0.9.2 <core.Tracer.block_until_ready>` (the {doc}`property <core.Tracer.block_until_ready>`
  #| was removed then), so every lookup of that name on a tracer now lands here.
  def __getattr__(self, name):
    # if the aval property raises an AttributeError, gets caught here
    #| A debugging aid, active only under `jax_enable_checks`: when the `aval` property itself
    #| raises `AttributeError`, Python lands here asking for `"aval"`, which the lookup below
    #| would only repeat.
    assert not config.enable_checks.value or name != "aval"

    # These must raise AttributeError in the base class for backward compatibility.
    # TODO(jakevdp): can we change this and make them raise NotImplementedError instead?
    #| The successor of the two properties: the names of the two waiting methods a concrete
    #| array has and a tracer cannot honour, checked before anything else.
    if name in ["block_until_ready", "copy_to_host_async"]:
      #| An `AttributeError`, as the comment above insists: `hasattr` stays False and the
      #| wrappers' `except AttributeError` skips the tracer, so `jax.block_until_ready` under
      #| `jit` does nothing and says nothing. Raised from `__getattr__`, this message now
      #| reaches the caller. {claim}`tracer-raises-attributeerror` {claim}`block-under-jit-is-noop`
      raise AttributeError(
        f"The '{name}' method is not available on {self._error_repr()}."
        f"{self._origin_msg()}")

    #| A third name with the same treatment: a tracer has no concrete sharding.
    if name == 'sharding':
      #| Also an `AttributeError`, with a pointer to `jax.typeof(x)` instead.
      raise AttributeError(
        f"The 'sharding' attribute is not available on {self._error_repr()}. "
        "To query sharding information on tracers, use `jax.typeof(x)`.")

    #| Any other name is looked up on the tracer's abstract value (its `aval`).
    try:
      #| For example `shape` and `dtype`, which the abstract value knows.
      attr = getattr(self.aval, name)
    #| A name the abstract value lacks becomes this method's own error.
    except AttributeError as err:
      #| The generic message. Before jax {changed-in}`0.9.2 <tracer_attribute_kind>` this was also what a user saw for
      #| `block_until_ready`: the property's own `AttributeError` sent Python here, and
      #| `ShapedArray` has no such attribute either.
      raise AttributeError(
          f"{self.__class__.__name__} has no attribute {name}"
      ) from err
    #| The abstract value had it: adapt it to the tracer.
    else:
      #| The kind of attribute decides how it binds.
      t = type(attr)
      #| An `aval_property`: declared on the abstract value, meant for its tracers.
      if t is aval_property:
        #| It is evaluated with the tracer as `self`.
        return attr.fget(self)
      #| An `aval_method`: a method the abstract value provides for its tracers.
      elif t is aval_method:
        #| It comes back bound to the tracer.
        return types.MethodType(attr.fun, self)
      #| Any other attribute of the abstract value.
      else:
        #| It comes back unchanged.
        return attr
