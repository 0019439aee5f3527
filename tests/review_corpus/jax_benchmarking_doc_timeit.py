# source: jax-ml/jax
# path: docs/benchmarking.md
# commit: cec06d116c05f0d52adfceee3d3b730fdbcb0ce5
# licence: Apache-2.0
# url: https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/docs/benchmarking.md#L36-L50
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
# note: the %time line times the first call of f_jit on purpose ('measure JAX compilation time') and is blocked; the runtime %timeit comes after it. The omitted lines are the '%time x_jax = jax.device_put(x_np).block_until_ready()' cell line, left out because an assignment inside %time does not parse
# expect: clean
import numpy as np
import jax

def f(x):  # function we're benchmarking (works in both NumPy & JAX)
    return x.T @ (x - x.mean(axis=0))

x_np = np.ones((1000, 1000), dtype=np.float32)  # same as JAX default dtype
%timeit f(x_np)  # measure NumPy runtime

# ...
f_jit = jax.jit(f)
%time f_jit(x_jax).block_until_ready()  # measure JAX compilation time
%timeit f_jit(x_jax).block_until_ready()  # measure JAX runtime
