# source: google-deepmind/optax
# path: examples/lbfgs.ipynb
# commit: 2edbcbe2390da13983b92cbef94ac0460ecde1c5
# licence: Apache-2.0
# url: https://github.com/google-deepmind/optax/blob/2edbcbe2390da13983b92cbef94ac0460ecde1c5/examples/lbfgs.ipynb
# [cell 13]
def run_opt(init_params, fun, opt, max_iter, tol):
  value_and_grad_fun = optax.value_and_grad_from_state(fun)
# ...
# [cell 13]
  init_carry = (init_params, opt.init(init_params))
  final_params, final_state = jax.lax.while_loop(
      continuing_criterion, step, init_carry
  )
  return final_params, final_state
# ...
# [cell 28]
import time
num_fun_calls = 0

def register_call():
  global num_fun_calls
  num_fun_calls += 1

def test_hparams(lbfgs_hparams, linesearch_hparams, dimension=512):
  global num_fun_calls
  num_fun_calls = 0

  def fun(x):
    jax.debug.callback(register_call)
    return jnp.sum((x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)

# ...
# [cell 28]
  init_params = jnp.arange(dimension, dtype=jnp.float32)

  tic = time.time()
  final_params, _ = run_opt(
      init_params, fun, opt, max_iter=500, tol=5*1e-5
    )
  final_params = jax.block_until_ready(final_params)
  time_run = time.time() - tic

  final_value = fun(final_params)
  final_grad_norm = optax.tree.norm(jax.grad(fun)(final_params))
  return final_value, final_grad_norm, num_fun_calls, time_run  # expect: JW108
