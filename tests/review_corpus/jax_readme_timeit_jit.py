# source: jax-ml/jax
# path: README.md
# commit: cec06d116c05f0d52adfceee3d3b730fdbcb0ce5
# licence: Apache-2.0
# url: https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/README.md#L125-L135
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
import jax
import jax.numpy as jnp

def slow_f(x):
  # Element-wise ops see a large benefit from fusion
  return x * x + x * 2.0

x = jnp.ones((5000, 5000))
fast_f = jax.jit(slow_f)
%timeit -n10 -r3 fast_f(x)  # expect: review-timing-without-blocking, review-compile-in-the-measurement
%timeit -n10 -r3 slow_f(x)  # expect: review-timing-without-blocking
