# source: AI-Hypercomputer/maxtext
# path: tests/inference/benchmark_offline_engine.py
# commit: e591f30cbbf217ed67ef71263ec0538239f9c3b8
# licence: Apache-2.0
# url: https://github.com/AI-Hypercomputer/maxtext/blob/e591f30cbbf217ed67ef71263ec0538239f9c3b8/tests/inference/benchmark_offline_engine.py#L26-L128
# note: batch_inference returns list[CompletionOutput], a plain dataclass of NumPy arrays (src/maxtext/inference/offline_engine.py), so jax.block_until_ready(results) finds no JAX array and does nothing; the timing is right only because batch_inference has already fetched its results to NumPy
import time
import jax
import jax.numpy as jnp
# ...
from maxtext.inference.offline_engine import OfflineEngine, InputData, CompletionOutput
# ...
def run(
    profile=False,
    profile_path="",
):
  """Run offline engine"""
  inference_engine = OfflineEngine(
      config,
      params=None,
      enable_batch_prefill=False,
      rng=jax.random.PRNGKey(0),
      eos_ids=[1002],
      debug=False,
  )
  max_logging.log("Starting Warmup")
  _ = [inference_engine.batch_inference(input_data) for _ in range(4)]
  max_logging.log("Warmup Ended")
  start_time = time.time()
  max_logging.log(f"First Round. Start time: {start_time}")
  results = inference_engine.batch_inference(input_data)
  results = jax.block_until_ready(results)  # expect: review-nothing-to-block
  end_time = time.time()
  max_logging.log(f"First Round. Time taken to run {len(input_data)} inference samples: {end_time - start_time} seconds")

  if profile:
    jax.profiler.start_trace(profile_path)
    start_time = time.time()
    max_logging.log(f"Second Round. Start time: {start_time}")
    results = inference_engine.batch_inference(input_data)
    results = jax.block_until_ready(results)  # expect: review-nothing-to-block
    end_time = time.time()
    jax.profiler.stop_trace()
    max_logging.log(
        f"Second Round. Time taken to run {len(input_data)} inference samples: {end_time - start_time} seconds"
    )
