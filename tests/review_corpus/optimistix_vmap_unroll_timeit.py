# source: patrick-kidger/optimistix
# path: benchmarks/vmap-unroll.py
# commit: 6415ab15480ebdb7386e17850105ce0dba6786ec
# licence: Apache-2.0
# url: https://github.com/patrick-kidger/optimistix/blob/6415ab15480ebdb7386e17850105ce0dba6786ec/benchmarks/vmap-unroll.py#L34-L76
# note: min over 10 repeats drops the compiling first call, so no compile label; the lambdas never block on the jitted result
for max_steps in (10_000, 100_000):

    @jax.jit
    @jax.vmap
    @jax.grad
    def run_optx(x0):
        def fn(x, _):
            return x.T @ A @ x

        solver = optx.GradientDescent(learning_rate=1e-3, rtol=1e-4, atol=1e-4)
        sol = optx.minimise(
            fn,
            solver,
            x0,
            adjoint=optx.RecursiveCheckpointAdjoint(),
            max_steps=max_steps,
        )
        return jnp.sum(sol.value)

    optx_times[max_steps] = min(
        timeit.repeat(lambda: run_optx(x0), number=1, repeat=10)  # expect: review-timing-without-blocking
    )

    @jax.jit
    @jax.vmap
    @jax.grad
    def run_jaxopt(x0):
        def fn(x):
            return x.T @ A @ x

        solver = jaxopt.GradientDescent(
            fn,
            stepsize=1e-3,
            tol=1e-4,
            acceleration=False,
            maxiter=max_steps,
            implicit_diff=False,
        )
        return jnp.sum(solver.run(x0).params)

    jaxopt_times[max_steps] = min(
        timeit.repeat(lambda: run_jaxopt(x0), number=1, repeat=10)  # expect: review-timing-without-blocking
    )
