# source: jax-ml/jax
# path: docs/new_docs/201/jit.md
# commit: cec06d116c05f0d52adfceee3d3b730fdbcb0ce5
# licence: Apache-2.0
# url: https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/docs/new_docs/201/jit.md#L629-L661
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
import numpy as np
from jax import random

x = random.uniform(random.key(0), (1000, 1000))
jnp.dot(x, x) + 3.0
# ...
%time jnp.dot(x, x)  # expect: review-timing-without-blocking
# ...
%time jnp.dot(x, x).block_until_ready()
