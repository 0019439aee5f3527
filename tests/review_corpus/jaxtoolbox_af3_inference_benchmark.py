# source: NVIDIA/JAX-Toolbox
# path: .github/container/alphafold_files/af3_inference_benchmark.py
# commit: bcbbfa578be90bf5c1dfef2c67cf074589391eee
# licence: Apache-2.0
# url: https://github.com/NVIDIA/JAX-Toolbox/blob/bcbbfa578be90bf5c1dfef2c67cf074589391eee/.github/container/alphafold_files/af3_inference_benchmark.py#L181-L220
# expect: clean
    apply_jit = jax.jit(forward_fn.apply, device=device)

    lower_t0 = time.perf_counter()
    lowered = apply_jit.lower(model_params_dev, rng_key, batch_dev)
    # here we're measuring:
    # - specialization to input shapes/dtypes
    # - creation of JAX intermediate repr
    # - lowering to XLA/Stable HLO input form
    lowering_time_s = time.perf_counter() - lower_t0

    compile_t0 = time.perf_counter()
    # and here we are compiling the model based on the hardware
    compiled = lowered.compile()
    compile_time_s = time.perf_counter() - compile_t0
# ...
    estimated_flops = _extract_flops(cost_analysis)
    # now we can run the model once to make sure compilation is done
    # and we are not including it in the benchmark time,
    # and also to have a warm start for the following runs
    first_result = compiled(model_params_dev, rng_key, batch_dev)
    jax.block_until_ready(first_result)
    # compilation is done, now run 3 times
    warm_times: list[float] = []
    warm_result = None
    for i in range(args.warm_runs):
        warm_key = jax.random.PRNGKey(rng_seed + 1000 + i)
        t0 = time.perf_counter()
        warm_result = compiled(model_params_dev, warm_key, batch_dev)
        jax.block_until_ready(warm_result)
        warm_times.append(time.perf_counter() - t0)
