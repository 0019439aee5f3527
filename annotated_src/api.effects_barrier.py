#| `jax.effects_barrier()` takes no argument: it cannot wait on an array, only on state the
#| runtime keeps. {claim}`barrier-waits-on-tokens`
def effects_barrier():
  #| "Side-effects" here means effects such as `jax.debug.print` and `io_callback`, whose host
  #| work a computation's output buffers do not cover. {claim}`barrier-for-callbacks`
  """Waits until existing functions have completed any side-effects."""
  #| The whole implementation: a wait on the runtime's effect tokens, in
  #| {doc}`RuntimeTokenSet.block_until_ready <dispatch.RuntimeTokenSet.block_until_ready>`. No array
  #| is involved.
  #| {claim}`barrier-waits-on-tokens`
  dispatch.runtime_tokens.block_until_ready()
