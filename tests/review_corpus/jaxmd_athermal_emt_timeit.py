# source: jax-md/jax-md
# path: notebooks/athermal_linear_elasticity.ipynb
# commit: a41c7d19f6468f4e5263c32c12c9ed6cba26ebff
# licence: Apache-2.0
# url: https://github.com/jax-md/jax-md/blob/a41c7d19f6468f4e5263c32c12c9ed6cba26ebff/notebooks/athermal_linear_elasticity.ipynb
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
# [cell 20]
emt_fn = jit(elasticity.athermal_moduli(energy_fn, check_convergence=True))
C, converged = emt_fn(R,box,neighbor=nbrs)
print(converged)
# ...
# [cell 22]
%timeit emt_fn(R,box,neighbor=nbrs)  # expect: review-timing-without-blocking
