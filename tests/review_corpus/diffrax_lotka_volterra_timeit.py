# source: patrick-kidger/diffrax
# path: benchmarks/lotka_volterra.py
# commit: 5ea5fcb05058bd22548300a10ea5ef5ce7fb75bb
# licence: Apache-2.0
# url: https://github.com/patrick-kidger/diffrax/blob/5ea5fcb05058bd22548300a10ea5ef5ce7fb75bb/benchmarks/lotka_volterra.py#L40-L59
@jax.jit
def run(rtol, atol):
    sol = diffeqsolve(
        terms,
        Tsit5(),
        t0,
        t1,
        dt0,
        y0,
        stepsize_controller=PIDController(rtol=rtol, atol=atol),
    )
    return sol.ys, sol.stats["num_steps"]


def time_run(rtol, atol):
    ys, num_steps = run(rtol, atol)  # compile and get solution
    error = jnp.sqrt(jnp.sum((ys - ref_sol.ys) ** 2)).item()
    num_steps = num_steps.item()
    time = min(timeit.repeat(lambda: run(rtol, atol), repeat=100, number=1))  # expect: review-timing-without-blocking
    print(f"error={error} time={time} num_steps={num_steps}")
