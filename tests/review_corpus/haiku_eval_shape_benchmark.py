# source: google-deepmind/dm-haiku
# path: haiku/benchmarks/eval_shape.py
# commit: f4d858a5cbb29140855d68f81f5fd625e078a5ae
# licence: Apache-2.0
# url: https://github.com/google-deepmind/dm-haiku/blob/f4d858a5cbb29140855d68f81f5fd625e078a5ae/haiku/benchmarks/eval_shape.py#L23-L44
# note: jax.eval_shape and hk.experimental.fast_eval_shape only trace (or look up a cached trace) and return shapes; nothing is dispatched to a device, so there is nothing to wait on in the timed loop
# expect: clean
def init_benchmark(model):
  """Compile/Trace/Run init."""
  input_shape = [100, 100, 100, 100]
  init, _ = hk.transform_with_state(model)

  @google_benchmark.register(name=f'{model.__name__}_init')
  def init_slow_bench(state):
    """Benchmark Jax trace of hk.init_fn of model."""
    x = jnp.ones(input_shape)
    k = jax.random.PRNGKey(42).block_until_ready()
    while state:
      jax.eval_shape(init, k, x)

  @google_benchmark.register(name=f'{model.__name__}_init_fast')
  def init_fast_bench(state):
    """Benchmark runtime of compiled hk.init_fn of model."""
    x = jnp.ones(input_shape)
    k = jax.random.PRNGKey(42).block_until_ready()
    while state:
      hk.experimental.fast_eval_shape(init, k, x)

  return init_slow_bench, init_fast_bench
