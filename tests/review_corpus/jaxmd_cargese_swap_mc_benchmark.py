# source: jax-md/jax-md
# path: notebooks/cargese_swap_mc.ipynb
# commit: a41c7d19f6468f4e5263c32c12c9ed6cba26ebff
# licence: Apache-2.0
# url: https://github.com/jax-md/jax-md/blob/a41c7d19f6468f4e5263c32c12c9ed6cba26ebff/notebooks/cargese_swap_mc.ipynb
# expect: clean
# [cell 41]
  for rho in rhos:
    N_swap = int(rho * N * t_md)
    init_fn, block_fn = hybrid_swap_mc(energy_fn, neighbor_fn, shift, kT, N_swap)

    state = init_fn(key, fire_state.position, sigma, nbrs)

    def run(n_blocks, state):
      return fori_loop(0, n_blocks, lambda i, state: block_fn(state), state)
    run = jit(run, static_argnums=0)

    # Run once to make sure the jit cache is populated.
    run(n_blocks, state).sigma.block_until_ready()

    # Run three times with timing.
    times = []
    for i in range(3):
      start = time.perf_counter()
      run(n_blocks, state).sigma.block_until_ready()
      end = time.perf_counter()
      times += [end - start]
    total_times += [times]

  return total_times
