# source: AI-Hypercomputer/maxtext
# path: src/maxtext/examples/shardings.py
# commit: e591f30cbbf217ed67ef71263ec0538239f9c3b8
# licence: Apache-2.0
# url: https://github.com/AI-Hypercomputer/maxtext/blob/e591f30cbbf217ed67ef71263ec0538239f9c3b8/src/maxtext/examples/shardings.py#L96-L244
# note: simple_timeit is a plain-Python harness; the lambda it is given blocks on the jitted training step, and the first call is a warm-up outside the timed loop
# expect: clean
def main(_argv: Sequence[str]) -> None:
  # ...
  def simple_timeit(f, tries=5, verbose=True):
    """Simple utility to time a function for multiple runs"""
    outcomes = []
    f()  # warm it up!
    for _ in range(tries):
      s = datetime.datetime.now()
      f()
      e = datetime.datetime.now()
      outcomes.append((e - s).total_seconds())
    average_time = sum(outcomes) / len(outcomes)
    if verbose:
      print(f"average time: {average_time}, timings (seconds) {outcomes}")
    return average_time
  # ...
  def training_step(in_act, in_layers):
    _, grad_layers = multiply_layers_and_grad(in_act, in_layers)
    out_layers = jax.tree_util.tree_map(lambda param, grad: param - 1e-4 * grad, in_layers, grad_layers[0])
    return out_layers
  # ...
  jit_func = jax.jit(
      training_step,
      in_shardings=(replicated_sharding, parameter_mesh_shardings),
      out_shardings=data_pspec_shardings,
  )
  # ...
  with Mesh(mesh.devices, mesh.axis_names):
    key = jax.random.PRNGKey(0)
    presharded_X = jax.block_until_ready(jit_gen_data(key))
    presharded_layers = jax.block_until_ready(jit_gen_layers(key))
    TFLOPs_per_device = parameters * 6 * BATCH / 10**12 / len(jax.devices())
    time = simple_timeit(lambda: jax.block_until_ready(jit_func(presharded_X, presharded_layers)))
    print(f"time is {time} seconds, TFLOP is {TFLOPs_per_device}, TFLOP/s is {TFLOPs_per_device/time}", flush=True)
