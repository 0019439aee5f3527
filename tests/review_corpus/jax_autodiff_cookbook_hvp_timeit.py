# source: jax-ml/jax
# path: docs/notebooks/autodiff_cookbook.md
# commit: cec06d116c05f0d52adfceee3d3b730fdbcb0ce5
# licence: Apache-2.0
# url: https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/docs/notebooks/autodiff_cookbook.md#L555-L584
# note: notebook/markdown code cell; contains IPython magics (%timeit/%time), not plain Python
# reverse-over-forward
def hvp_revfwd(f, primals, tangents):
  g = lambda primals: jvp(f, primals, tangents)[1]
  return grad(g)(primals)
# ...
# reverse-over-reverse, only works for single arguments
def hvp_revrev(f, primals, tangents):
  x, = primals
  v, = tangents
  return grad(lambda x: jnp.vdot(grad(f)(x), v))(x)


print("Forward over reverse")
%timeit -n10 -r3 hvp(f, (X,), (V,))  # expect: review-timing-without-blocking
print("Reverse over forward")
%timeit -n10 -r3 hvp_revfwd(f, (X,), (V,))  # expect: review-timing-without-blocking
print("Reverse over reverse")
%timeit -n10 -r3 hvp_revrev(f, (X,), (V,))  # expect: review-timing-without-blocking

print("Naive full Hessian materialization")
%timeit -n10 -r3 jnp.tensordot(hessian(f)(X), V, 2)  # expect: review-timing-without-blocking
