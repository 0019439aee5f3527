# source: AI-Hypercomputer/maxtext
# path: tests/dcn_bandwidth_test.py
# commit: e591f30cbbf217ed67ef71263ec0538239f9c3b8
# licence: Apache-2.0
# url: https://github.com/AI-Hypercomputer/maxtext/blob/e591f30cbbf217ed67ef71263ec0538239f9c3b8/tests/dcn_bandwidth_test.py#L50-L66
# expect: clean
def simple_timeit(f, *args, tries=10, task=None):
  """Simple utility to time a function for multiple runs."""
  assert task is not None
  outcomes_ms = []

  # Warm up
  jax.block_until_ready(f(*args))

  for _ in range(tries):
    jax.devices()  # Force synchronization
    s = datetime.datetime.now()
    jax.block_until_ready(f(*args))
    e = datetime.datetime.now()
    outcomes_ms.append(1000 * (e - s).total_seconds())

  average_time_ms = sum(outcomes_ms) / len(outcomes_ms)
  return average_time_ms
