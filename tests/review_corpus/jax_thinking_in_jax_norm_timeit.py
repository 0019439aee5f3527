# source: jax-ml/jax
# path: docs/notebooks/thinking_in_jax.md
# commit: cec06d116c05f0d52adfceee3d3b730fdbcb0ce5
# licence: Apache-2.0
# url: https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/docs/notebooks/thinking_in_jax.md#L235-L259
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
# expect: clean
def norm(X):
  X = X - X.mean(0)
  return X / X.std(0)
# ...
from jax import jit
norm_compiled = jit(norm)
# ...
np.random.seed(1701)
X = jnp.array(np.random.rand(10000, 10))
np.allclose(norm(X), norm_compiled(X), atol=1E-6)
# ...
%timeit norm(X).block_until_ready()
%timeit norm_compiled(X).block_until_ready()
