# source: google/neural-tangents
# path: notebooks/myrtle_kernel_with_neural_tangents.ipynb
# commit: c17e770bb74f1771da7be4a69fabfa68b6078960
# licence: Apache-2.0
# url: https://github.com/google/neural-tangents/blob/c17e770bb74f1771da7be4a69fabfa68b6078960/notebooks/myrtle_kernel_with_neural_tangents.ipynb
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
# note: cell 11 is fine: both kernels come from one call of the jitted ker_fn. In cell 16 ker_fn is nt.batch over an unjitted kernel_fn: it runs 25 blocks eagerly and concatenates each field separately, so blocking kdd.nngp does not wait for the ntk result; the label sits on the cell's last line, where %%timeit stops its timer. No compile label: %%timeit without -n calibrates first
# [cell 7]
_, _, ker_fn = MyrtleNetwork(5)
ker_fn = jit(ker_fn, static_argnames='get')
# [cell 8]
key1, key2 = random.split(key)
input_x1 = random.normal(key1, shape=(10, 32, 32, 3))
input_x2 = random.normal(key2, shape=(10, 32, 32, 3))
# ...
# [cell 11]
# Compute NNGP and NTK 
%%timeit
kdd = ker_fn(input_x1, None, ('nngp', 'ntk'))
kdd.nngp.block_until_ready()
# ...
# [cell 13]
_, _, ker_fn = MyrtleNetwork(5)
ker_fn = nt.batch(ker_fn, batch_size=10)
# [cell 14]
input_x = random.normal(key, shape=(50, 32, 32, 3))
# ...
# [cell 16]
# Compute NNGP and NTK 
%%timeit
kdd = ker_fn(input_x, None, ('nngp', 'ntk'))
kdd.nngp.block_until_ready()  # expect: review-one-output-of-several
