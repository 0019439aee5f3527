# source: patrick-kidger/optimistix
# path: benchmarks/levenberg-marquardt.py
# commit: 6415ab15480ebdb7386e17850105ce0dba6786ec
# licence: Apache-2.0
# url: https://github.com/patrick-kidger/optimistix/blob/6415ab15480ebdb7386e17850105ce0dba6786ec/benchmarks/levenberg-marquardt.py#L144-L266
# note: the number=1 timeit is a deliberate, blocked 'Compile+run time'; the run time is min over 10 blocked repeats; y0s and values are jax.Arrays returned by get_data
# expect: clean
# Default option for Optimistix. (QR linear solver.)
@jax.jit
def optx_qr(init_parameters, y0s, values):
    optx_solver = optx.LevenbergMarquardt(rtol=1e-8, atol=1e-8)
    sol = optx.least_squares(
        residuals,
        optx_solver,
        init_parameters,
        args=(y0s, values),
        max_steps=1,
        throw=False,
    )
    return sol.value
# ...
init_parameters = jnp.zeros(4)
(y0s, values) = get_data()

run_optx_qr = lambda: optx_qr(init_parameters, y0s, values).block_until_ready()
run_optx_normal_cg = lambda: optx_normal_cg(
    init_parameters, y0s, values
).block_until_ready()
# ...
optx_qr_compile_time = timeit.timeit(run_optx_qr, number=1)
optx_normal_cg_compile_time = timeit.timeit(run_optx_normal_cg, number=1)
# ...
optx_qr_run_time = min(timeit.repeat(run_optx_qr, number=1, repeat=10))
optx_normal_cg_run_time = min(timeit.repeat(run_optx_normal_cg, number=1, repeat=10))
# ...
print("Levenberg--Marquardt timing: taking exactly one step.")
print("---------")
print("Optimistix (QR; default):")
print(f"Compile+run time: {optx_qr_compile_time}")
print(f"Run time: {optx_qr_run_time}")
