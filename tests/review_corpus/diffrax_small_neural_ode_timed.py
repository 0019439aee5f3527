# source: patrick-kidger/diffrax
# path: benchmarks/small_neural_ode.py
# commit: 5ea5fcb05058bd22548300a10ea5ef5ce7fb75bb
# licence: Apache-2.0
# url: https://github.com/patrick-kidger/diffrax/blob/5ea5fcb05058bd22548300a10ea5ef5ce7fb75bb/benchmarks/small_neural_ode.py#L123-L192
# expect: clean
def timed(fn):
    def _timer(*args, **kwargs):
        gcold = gc.isenabled()
        if gcold:
            gc.collect()
        gc.disable()
        start = time.perf_counter_ns()
        try:
            fn(*args, **kwargs)
            end = time.perf_counter_ns()
        finally:
            if gcold:
                gc.enable()
                gc.collect()
        return end - start

    return _timer
# ...
@eqx.filter_jit
@eqx.filter_value_and_grad
def _grad_jax(arg, t1):
    neural_ode_jax, y0 = arg
    return neural_ode_jax(y0, t1)


@eqx.filter_jit
def _eval_jax(neural_ode_jax, y0, t1):
    return neural_ode_jax(y0, t1)


@timed
def time_jax(neural_ode_jax, y0, t1, grad):
    if grad:
        arg = (neural_ode_jax, y0)
        _grad_jax(arg, t1)
    else:
        _eval_jax(neural_ode_jax, y0, t1)


def run(multiple, grad, batch_size=64, t1=100):
    # ...
    time_jax(neural_ode_diffrax, jnp.copy(y0_jax), t1, grad)
    diffrax_time = time_jax(neural_ode_diffrax, jnp.copy(y0_jax), t1, grad)
