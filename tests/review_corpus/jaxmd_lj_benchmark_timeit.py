# source: jax-md/jax-md
# path: notebooks/lj_benchmark.ipynb
# commit: a41c7d19f6468f4e5263c32c12c9ed6cba26ebff
# licence: Apache-2.0
# url: https://github.com/jax-md/jax-md/blob/a41c7d19f6468f4e5263c32c12c9ed6cba26ebff/notebooks/lj_benchmark.ipynb
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
# expect: clean
# [cell 13]
# Run once to make sure the JIT cache is occupied.
new_state, new_nbrs = lax.fori_loop(0, 10000, step, (state, nbrs))
new_state.position.block_until_ready()
# ...
# [cell 15]
%%timeit
new_state, new_nbrs = lax.fori_loop(0, 10000, step, (state, nbrs))
new_state.position.block_until_ready()
