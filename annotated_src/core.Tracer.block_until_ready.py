  #| A **property**, not a method: merely reading `tracer.block_until_ready` runs the body, so
  #| the error comes before any call. Its twin, `copy_to_host_async`, followed just after it
  #| in the class. Both were removed in jax {changed-in}`0.9.2 <core.Tracer.block_until_ready>`; {doc}`Tracer.__getattr__ <core.Tracer.__getattr__>`
  #| took over.
  @property
  #| Defined on `Tracer`, the base of every tracer class, so it covers all transformations
  #| (`jit`, `grad`, `vmap`, ...).
  def block_until_ready(self):
    #| The comment states the intent: an `AttributeError`, rather than a JAX error, keeps
    #| `hasattr(x, "block_until_ready")` False on a tracer and lets `getattr` fall back to a
    #| default. That is what makes `jax.block_until_ready` silently skip a tracer.
    #| {claim}`tracer-raises-attributeerror` {claim}`block-under-jit-is-noop`
    # Raise AttributeError for backward compatibility with hasattr() and getattr() checks.
    raise AttributeError(
      #| The message meant for the user. Python, though, answers an `AttributeError` raised
      #| by a property by calling the class's `__getattr__`; `Tracer.__getattr__` of these
      #| releases then raised its own, generic `... has no attribute block_until_ready`, and
      #| this message was dropped. The 0.9.2 rewrite moved the check into `__getattr__` itself.
      f"The 'block_until_ready' method is not available on {self._error_repr()}."
      #| On tracers created by `jit` tracing, this adds where the value came from (which
      #| argument it depends on).
      f"{self._origin_msg()}")
