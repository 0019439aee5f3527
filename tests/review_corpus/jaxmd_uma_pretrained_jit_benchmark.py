# source: jax-md/jax-md
# path: tests/uma_pretrained_test.py
# commit: a41c7d19f6468f4e5263c32c12c9ed6cba26ebff
# licence: Apache-2.0
# url: https://github.com/jax-md/jax-md/blob/a41c7d19f6468f4e5263c32c12c9ed6cba26ebff/tests/uma_pretrained_test.py#L164-L198
# note: blocked compile call, five blocked warm-ups, then 20 blocked timed calls; blocking only 'node_embedding' is enough because every output comes from the same jitted call
# expect: clean
    model = UMAMoEBackbone(config=config)

    pos, Z, batch, ei = _make_test_system()
    ev = (pos[ei[0]] - pos[ei[1]]).astype(np.float32)
    ds_idx = dataset_names_to_indices(['omat'], config.dataset_list)
    args = (
      params,
      jnp.array(pos),
      jnp.array(Z),
      jnp.array(batch),
      jnp.array(ei),
      jnp.array(ev),
      jnp.array([0], dtype=jnp.int32),
      jnp.array([0], dtype=jnp.int32),
      ds_idx,
    )

    # JIT compile
    jit_fn = jax.jit(model.apply)
    jit_fn(*args)['node_embedding'].block_until_ready()

    # Warmup
    for _ in range(5):
      jit_fn(*args)['node_embedding'].block_until_ready()

    # Benchmark
    times = []
    for _ in range(20):
      t0 = time.perf_counter()
      jit_fn(*args)['node_embedding'].block_until_ready()
      times.append(time.perf_counter() - t0)

    ms = np.mean(times) * 1000
    std = np.std(times) * 1000
    print(f'{MODEL_NAME} MoE JIT (6 atoms, CPU): {ms:.1f} +/- {std:.1f} ms')
