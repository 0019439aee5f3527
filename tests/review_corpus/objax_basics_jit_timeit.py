# source: google/objax
# path: docs/source/notebooks/Objax_Basics.ipynb
# commit: 9dd7dc37e5f9d0ea71896636d3e180440b2b729e
# licence: Apache-2.0
# url: https://github.com/google/objax/blob/9dd7dc37e5f9d0ea71896636d3e180440b2b729e/docs/source/notebooks/Objax_Basics.ipynb
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
# [cell 44]
# Construct a module which computes gradients
gv = objax.GradValues(loss_fn, module_vars)
# ...
# [cell 53]
x = objax.random.normal((100, 3))
# gv is a module define above which compute gradients
jit_gv = objax.Jit(gv)
print('Timing for jit_gv:')
%timeit jit_gv(x)  # expect: review-timing-without-blocking
print('Timing for gv:')
%timeit gv(x)  # expect: review-timing-without-blocking
