# source: AI-Hypercomputer/maxtext
# path: tests/gather_reduce_sc_test.py
# commit: e591f30cbbf217ed67ef71263ec0538239f9c3b8
# licence: Apache-2.0
# url: https://github.com/AI-Hypercomputer/maxtext/blob/e591f30cbbf217ed67ef71263ec0538239f9c3b8/tests/gather_reduce_sc_test.py#L138-L204
    rng_inputs = np.random.RandomState(42)
    inputs = rng_inputs.randint(0, 1024, shape_idx_size[0]).astype(jnp.bfloat16)
# ...
    rng_others = np.random.RandomState(43)
    topk_wgt = rng_others.standard_normal(shape_idx_size[1]).astype(jnp.bfloat16)
# ...
    idx = rng_others.randint(0, shape_idx_size[0][0], (shape_idx_size[1],), dtype=np.int32)
# ...
    def _run_nojit(op, idx, topk_wgt_local, acc_dtype):
      group_size = 8
      gathered = op[idx, :]
      if topk_wgt_local is not None:
        flat_weights = topk_wgt_local.flatten()
        weights_for_mul = flat_weights[:, None].astype(jnp.float32)
        gathered_f32 = gathered.astype(jnp.float32)
        gathered = jnp.where(weights_for_mul == 0, 0.0, gathered_f32 * weights_for_mul)
      gathered = jnp.reshape(gathered, (-1, group_size, op.shape[1]))
      return jnp.sum(gathered.astype(jnp.float32), axis=1).astype(jnp.bfloat16)
# ...
    @jax.jit
    def _run_sc(
        op,
        idx,
        topk_wgt_local,
    ):
      return kernel(op, idx, topk_weights=topk_wgt_local)

    start_time = time.time()
    maybe_compile_sc = _run_sc.lower(
        inputs,
        idx,
        topk_wgt,
    ).compile()
    timings["compilation"] = time.time() - start_time
# ...
    start_time = time.time()
    # out = _run_nojit(inputs, idx, topk_wgt, jnp.float32)
    out_bf16 = _run_nojit(inputs, idx, topk_wgt, jnp.bfloat16)
    timings["baseline"] = time.time() - start_time  # expect: review-timing-without-blocking
# ...
    start_time = time.time()
    for _ in range(5):
      out_sc = jax.block_until_ready(
          maybe_compile_sc(  # expect: review-block-is-not-fetch
              inputs,
              idx,
              topk_wgt,
          )
      )
    timings["kernel_execution"] = time.time() - start_time
