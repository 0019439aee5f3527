# source: jax-md/jax-md
# path: notebooks/tutorial/Chapter_1_Introduction.ipynb
# commit: a41c7d19f6468f4e5263c32c12c9ed6cba26ebff
# licence: Apache-2.0
# url: https://github.com/jax-md/jax-md/blob/a41c7d19f6468f4e5263c32c12c9ed6cba26ebff/notebooks/tutorial/Chapter_1_Introduction.ipynb
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
# expect: clean
# [cell 33]
from jax import jit

# Just-In-Time compile to GPU
min = jit(min)
# ...
# [cell 34]
# The first call incurs a compilation cost
min(R)
# ...
# [cell 35]
%%timeit
min(R).block_until_ready()
