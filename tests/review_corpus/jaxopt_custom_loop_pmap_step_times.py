# source: google/jaxopt
# path: docs/notebooks/distributed/custom_loop_pmap_example.md
# commit: 2de13bf01fd29e22862236a0d869f2b14e1629d4
# licence: Apache-2.0
# url: https://github.com/google/jaxopt/blob/2de13bf01fd29e22862236a0d869f2b14e1629d4/docs/notebooks/distributed/custom_loop_pmap_example.md#L178-L263
# expect: clean
# note: compile_time is meant to time compilation, but the warm-up result is never waited on, so the timer stops before the first run does and that run spills into step_times[0]. The per-step times are sound: they block on every leaf of (params, state), and data was moved to the device before the loop
def fit(
    data: Tuple[Array, Array],
    init_params: Array,
    stepsize: float = 0.0,
    linesearch: str = 'zoom',
    use_pmap: bool = False,
) -> Tuple[np.ndarray, np.ndarray, float]:
  # ...
  solver = jaxopt.LBFGS(fun=value_and_grad_fun,
                        value_and_grad=True,
                        stepsize=stepsize,
                        linesearch=linesearch)
  # Apply the `jax.pmap` transform to the function to be computed in a 
  # distributed manner (the solver's `update` method in this case). Otherwise,
  # we JIT compile it.
  if use_pmap:
    update = jax.pmap(solver.update, axis_name='b')
  else:
    update = jax.jit(solver.update)
  # ...
  # Finally, since in this demo we are *not* using mini-batches, it pays off to
  # transfer data to the device beforehand. Otherwise, host-to-device transfers
  # occur in each update. This is true regardless of whether we use distributed
  # or single-device computation.
  if use_pmap:  # Shards data and moves it to device,
    data = jax.tree.map(shard_array, data)
  else:  # Just move data to device.
    data = jax.tree.map(jax.device_put, data)

  # Pre-compiles update, preventing it from affecting step times.
  tic = time.time()
  _ = update(params, state, data)
  compile_time = time.time() - tic

  outer_tic = time.time()

  step_times = np.zeros(MAXITER)
  errors = np.zeros(MAXITER)
  for it in range(MAXITER):
    tic = time.time()
    params, state = update(params, state, data)
    jax.tree.map(lambda t: t.block_until_ready(), (params, state))
    step_times[it] = time.time() - tic
    errors[it] = (jax_utils.unreplicate(state.error).item()
                  if use_pmap else state.error.item())

  print(
      f'Total time elapsed with {linesearch} linesearch and pmap = {use_pmap}:',
      round(time.time() - outer_tic, 2), 'seconds.')

  return errors, step_times, compile_time
