# source: google/jaxopt
# path: benchmarks/proximal_gradient_benchmark.py
# commit: 2de13bf01fd29e22862236a0d869f2b14e1629d4
# licence: Apache-2.0
# url: https://github.com/google/jaxopt/blob/2de13bf01fd29e22862236a0d869f2b14e1629d4/benchmarks/proximal_gradient_benchmark.py#L167-L203
# note: solver.run of a jaxopt solver (jit=True by default) compiles its loop; fun is a fresh closure per lasso_jnp call, so the timed 'time jnp' includes compilation. The wait is sound: print(res_jnp.error) fetches before the timer is read
def lasso_jnp(X, y, lam, stepsize, tol, maxiter, acceleration, verbose):
  def fun(w, data):
    X, y = data
    y_pred = jnp.dot(X, w)
    diff = y_pred - y
    return 0.5 * jnp.dot(diff, diff)

  init = jnp.zeros(X.shape[1], dtype=X.dtype)
  solver = pg.ProximalGradient(fun=fun, prox=prox_lasso,
                               tol=tol, stepsize=stepsize, maxiter=maxiter,
                               acceleration=acceleration, verbose=verbose)
  return solver.run(init, lam, (X, y))
# ...
def run_proximal_gradient(X, y, lam, stepsize, maxiter, verbose):
  if stepsize <= 0:
    print("proximal gradient (line search)")
  else:
    print("proximal gradient (constant step size)")
  print("-" * 50)
  start = time.time()
  res_onp = lasso_onp(X=X, y=y, lam=lam, stepsize=stepsize, tol=1e-3,
                      maxiter=maxiter, acceleration=False,
                      verbose=verbose).state
  print("error onp:", res_onp.error)
  print("iter_num onp:", res_onp.iter_num)
  print("time onp", time.time() - start)
  print(flush=True)

  start = time.time()
  res_jnp = lasso_jnp(X=X, y=y, lam=lam, stepsize=stepsize, tol=1e-3,  # expect: review-compile-in-the-measurement
                      maxiter=maxiter, acceleration=False,
                      verbose=verbose).state
  print("error jnp:", res_jnp.error)
  print("iter_num jnp:", res_jnp.iter_num)
  print("time jnp", time.time() - start)
  print(flush=True)
