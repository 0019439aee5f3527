# source: patrick-kidger/lineax
# path: benchmarks/solver_speeds.py
# commit: 2f0e083d9f0a3ae3329648410ed32e29f8cc9fb4
# licence: Apache-2.0
# url: https://github.com/patrick-kidger/lineax/blob/2f0e083d9f0a3ae3329648410ed32e29f8cc9fb4/benchmarks/solver_speeds.py#L155-L223
# note: bench_lx()/bench_jax() are called (and their results compared) before timing, so compilation is out; the timed partials of jitted solvers are never blocked
def test_solvers(vmap_size, mat_size):
    for lx_name, jax_name, _lx_solver, jax_solver, tags in named_solvers:
        lx_solver = ft.partial(base_wrapper, solver=_lx_solver)
        # ...
        lx_solver = jax.jit(lx_solver)
        bench_lx = ft.partial(lx_solver, matrix, b)

        if vmap_size == 1:
            batch_msg = "problem"
        else:
            batch_msg = f"batch of {vmap_size} problems"

        lx_soln = bench_lx()
        if tree_allclose(lx_soln, true_x, atol=1e-4, rtol=1e-4):
            lx_solve_time = timeit.timeit(bench_lx, number=1)  # expect: review-timing-without-blocking

            print(
                f"Lineax's {lx_name} solved {batch_msg} of "
                f"size {mat_size} in {lx_solve_time} seconds."
            )
        else:
            fail_time = timeit.timeit(bench_lx, number=1)  # expect: review-timing-without-blocking
            err = jnp.abs(lx_soln - true_x).max()
            print(
                f"Lineax's {lx_name} failed to solve {batch_msg} of "
                f"size {mat_size} with error {err} in {fail_time} seconds"
            )
        if jax_solver is None:
            print("JAX has no equivalent solver. \n")

        else:
            jax_solver = jax.jit(jax_solver)
            bench_jax = ft.partial(jax_solver, matrix, b)
            jax_soln = bench_jax()
            if tree_allclose(jax_soln, true_x, atol=1e-4, rtol=1e-4):
                jax_solve_time = timeit.timeit(bench_jax, number=1)  # expect: review-timing-without-blocking
                print(
                    f"JAX's {jax_name} solved {batch_msg} of "
                    f"size {mat_size} in {jax_solve_time} seconds. \n"
                )
            else:
                fail_time = timeit.timeit(bench_jax, number=1)  # expect: review-timing-without-blocking
                err = jnp.abs(jax_soln - true_x).max()
                print(
                    f"JAX's {jax_name} failed to solve {batch_msg} of "
                    f"size {mat_size} with error {err} in {fail_time} seconds. \n"
                )
