# A benchmark suite written with pytest-benchmark (jax-ml/jax benchmarks, optax's): the
# benchmarked function returns the jitted call's array without waiting on it.
import jax
import jax.numpy as jnp

step = jax.jit(lambda w: w - 0.01 * jnp.tanh(w @ w))


def test_step(benchmark):
    w = jnp.ones((256, 256))
    step(w).block_until_ready()
    out = benchmark(step, w)  # <- JW101
    assert out.shape == (256, 256)
