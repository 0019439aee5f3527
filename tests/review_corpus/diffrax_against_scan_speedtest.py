# source: patrick-kidger/diffrax
# path: benchmarks/against_scan.py
# commit: 5ea5fcb05058bd22548300a10ea5ef5ce7fb75bb
# licence: Apache-2.0
# url: https://github.com/patrick-kidger/diffrax/blob/5ea5fcb05058bd22548300a10ea5ef5ce7fb75bb/benchmarks/against_scan.py#L23-L33
# expect: clean
def speedtest(fn, name):
    fwd = jax.jit(fn)
    bwd = jax.jit(jax.grad(fn))
    integration_times = timeit.repeat(
        lambda: jax.block_until_ready(fwd(fields, ts)), number=1, repeat=10
    )
    print(f"{name} fwd: {min(integration_times)}")
    grad_times = timeit.repeat(
        lambda: jax.block_until_ready(bwd(fields, ts)), number=1, repeat=10
    )
    print(f"{name} fwd+bwd: {min(grad_times)}")
