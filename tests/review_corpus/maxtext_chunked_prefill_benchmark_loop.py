# source: AI-Hypercomputer/maxtext
# path: src/maxtext/inference/mlperf/microbenchmarks/benchmark_chunked_prefill.py
# commit: e591f30cbbf217ed67ef71263ec0538239f9c3b8
# licence: Apache-2.0
# url: https://github.com/AI-Hypercomputer/maxtext/blob/e591f30cbbf217ed67ef71263ec0538239f9c3b8/src/maxtext/inference/mlperf/microbenchmarks/benchmark_chunked_prefill.py#L66-L97
# expect: clean
def _run_benchmark_loop(func_to_benchmark: Callable[[], Any], iters: int, label: str) -> datetime.timedelta:
  """Runs warmup and benchmark iterations for a given function.

  Args:
    func_to_benchmark: The function to benchmark.
    iters: The number of benchmark iterations to run.
    label: A string label for printing output.

  Returns:
    The average time taken per iteration.
  """
  print(f"\nStarting warmup for {label}...")
  for i in range(_WARMUP_ITERS):
    start = datetime.datetime.now()
    result = func_to_benchmark()
    jax.block_until_ready(result)
    end = datetime.datetime.now()
    print(f"  Warmup iteration {i+1} time: {end - start}")

  print(f"\nStarting benchmark for {label}...")
  total_time = datetime.timedelta()
  for i in range(iters):
    start = datetime.datetime.now()
    result = func_to_benchmark()
    jax.block_until_ready(result)
    end = datetime.datetime.now()
    iter_time = end - start
    total_time += iter_time
    print(f"  Benchmark iteration {i+1} time: {iter_time}")

  average_time = total_time / iters
  print(f"\nAverage time taken for {label} over {iters} iterations: {average_time}")
