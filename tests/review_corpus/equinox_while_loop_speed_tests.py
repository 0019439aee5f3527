# source: patrick-kidger/equinox
# path: tests/test_while_loop.py
# commit: 9336d820b2ef66b360fc6cb3611b3da5cefbb14d
# licence: Apache-2.0
# url: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/tests/test_while_loop.py#L443-L591
def test_speed_while(inplace_op, while_loop):
    @jax.jit
    @jax.vmap
    def f(init_step, init_xs):
# ...
        return while_loop(cond, body, (init_step, init_xs))

    size = 100_000
    args = jnp.array([0]), jnp.zeros((1, size))
    f(*args)  # compile

    speed = timeit.timeit(lambda: f(*args), number=1)  # expect: review-timing-without-blocking
    # Takes O(1e-3) with optimisation.
    # Takes O(10) without optimisation.
    # So we have two orders of magnitude safety margin each way, so the test shouldn't
    # be flaky.
    assert speed < 0.1
# ...
    sizes = [20_000, 40_000, 50_000, 60_000, 80_000, 100_000, 200_000]
    times = []

    for size in sizes:
        args = jnp.array([0, 1]), jnp.zeros((2, size))
        f(*args)

        def run_and_wait():
            result = f(*args)
            jax.block_until_ready(result)
            return result

        speed = min(timeit.repeat(run_and_wait, number=1, repeat=5))
        times.append(speed)
# ...
    init_step = jnp.array([0, 10])
    init_val = jr.normal(getkey(), (2, 2))

    f(init_val, init_step)  # compile
    speed = timeit.timeit(lambda: f(init_val, init_step), number=1)  # expect: review-timing-without-blocking
    # Should take ~0.01 seconds
    assert speed < 0.5
