# source: jax-ml/jax
# path: cloud_tpu_colabs/JAX_NeurIPS_2020_demo.ipynb
# commit: cec06d116c05f0d52adfceee3d3b730fdbcb0ce5
# licence: Apache-2.0
# url: https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/cloud_tpu_colabs/JAX_NeurIPS_2020_demo.ipynb
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
# note: cell 3 compiles jnp.dot for (5000, 5000) inputs; g and sharded_conv are called once before their %timeit -n runs
# expect: clean
# [cell 2]
key = random.key(0)
key, subkey = random.split(key)
x = random.normal(key, (5000, 5000))
# [cell 3]
y = jnp.dot(x, x)
print(y[0, 0])
# ...
# [cell 8]
import numpy as np

x_cpu = np.array(x)
%timeit -n 5 -r 2 np.dot(x_cpu, x_cpu)
# [cell 9]
%timeit -n 5 -r 5 jnp.dot(x, x).block_until_ready()
# ...
# [cell 18]
key = random.key(0)
x = random.normal(key, (5000, 5000))
# [cell 19]
def f(x):
  y = x
  for _ in range(10):
    y = y - 0.1 * y + 3.
  return y[:100, :100]

f(x)
# [cell 20]
g = jit(f)
g(x)
# [cell 21]
%timeit f(x).block_until_ready()
# [cell 22]
%timeit -n 100 g(x).block_until_ready()
# ...
# [cell 35]
from jax import lax

conv = lambda image, kernel: lax.conv(image, kernel, (1, 1), 'SAME')
# [cell 36]
image = jnp.ones((1, 8, 2000, 1000)).astype(np.float32)
kernel = jnp.array(np.random.random((8, 8, 5, 5)).astype(np.float32))

np.set_printoptions(edgeitems=1)
conv(image, kernel)
# [cell 37]
%timeit conv(image, kernel).block_until_ready()
# [cell 38]
image_partitions = P(1, 1, 4, 2)
sharded_conv = sharded_jit(conv,
                           in_parts=(image_partitions, None),
                           out_parts=image_partitions)

sharded_conv(image, kernel)
# [cell 39]
%timeit -n 10 sharded_conv(image, kernel).block_until_ready()
