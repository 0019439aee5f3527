# source: patrick-kidger/diffrax
# path: benchmarks/jump_step_timing.py
# commit: 5ea5fcb05058bd22548300a10ea5ef5ce7fb75bb
# licence: Apache-2.0
# url: https://github.com/patrick-kidger/diffrax/blob/5ea5fcb05058bd22548300a10ea5ef5ce7fb75bb/benchmarks/jump_step_timing.py#L49-L84
# expect: clean
@eqx.filter_jit
@partial(jax.vmap, in_axes=(0, None))
def solve(key, controller):
# ...
def do_timing(controller):
    @jax.jit
    @eqx.debug.assert_max_traces(max_traces=1)
    def time_controller_fun():
        sols = solve(keys, controller)
        assert sols.ys is not None
        assert sols.ys.shape == (num_samples, len(step_ts))
        return sols.ys

    def time_controller():
        jax.block_until_ready(time_controller_fun())

    return min(timeit.repeat(time_controller, number=3, repeat=20))


time_new = do_timing(new_controller)
