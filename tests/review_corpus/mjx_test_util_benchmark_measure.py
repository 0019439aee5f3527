# source: google-deepmind/mujoco
# path: mjx/mujoco/mjx/_src/test_util.py
# commit: a7255075b003506ff5f34b512d88e02df12a73c6
# licence: Apache-2.0
# url: https://github.com/google-deepmind/mujoco/blob/a7255075b003506ff5f34b512d88e02df12a73c6/mjx/mujoco/mjx/_src/test_util.py#L34-L105
# note: AOT compile is timed separately; the single timed run blocks on the pmapped result
# expect: clean
def _measure(fn, *args) -> Tuple[float, float]:
  """Reports jit time and op time for a function."""

  beg = time.perf_counter()
  compiled_fn = fn.lower(*args).compile()
  end = time.perf_counter()
  jit_time = end - beg

  beg = time.perf_counter()
  result = compiled_fn(*args)
  jax.block_until_ready(result)
  end = time.perf_counter()
  run_time = end - beg

  return jit_time, run_time
# ...
def benchmark(
    m: mujoco.MjModel,
    nstep: int = 1000,
    batch_size: int = 1024,
    unroll_steps: int = 1,
    solver: str = 'newton',
    iterations: int = 1,
    ls_iterations: int = 4,
) -> Tuple[float, float, int]:
  """Benchmark a model."""
  # ...
  @jax.pmap
  def init(key):
    key = jax.random.split(key, batch_size // jax.device_count())

    @jax.vmap
    def random_init(key):
      d = io.make_data(m)
      qvel = 0.01 * jax.random.normal(key, shape=(m.nv,))
      d = d.replace(qvel=qvel)
      return d

    return random_init(key)

  key = jax.random.split(jax.random.key(0), jax.device_count())
  d = init(key)
  jax.block_until_ready(d)

  @jax.pmap
  def unroll(d):
    @jax.vmap
    def step(d, _):
      d = forward.step(m, d)
      return d, None

    d, _ = jax.lax.scan(step, d, None, length=nstep, unroll=unroll_steps)

    return d

  jit_time, run_time = _measure(unroll, d)
  steps = nstep * batch_size

  return jit_time, run_time, steps
