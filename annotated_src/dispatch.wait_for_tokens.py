#| JAX's wait at interpreter exit, in `jax/_src/dispatch.py`, right after the token set is made.
#| `atexit` runs it when the interpreter ends normally, in the main thread.
#| {claim}`effects-at-exit-main-thread-only`
@atexit.register
#| No arguments: it reaches the token set through the module.
def wait_for_tokens():
  #| `runtime_tokens` is a `RuntimeTokenSet`, a `threading.local`: read from the main thread, it
  #| holds the main thread's tokens only. Effects dispatched from other threads are not waited
  #| for here, and are lost if still pending. {claim}`effects-at-exit-main-thread-only`
  runtime_tokens.block_until_ready()
