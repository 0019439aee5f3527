# source: jax-ml/jax
# path: examples/mnist_vae.py
# commit: cec06d116c05f0d52adfceee3d3b730fdbcb0ce5
# licence: Apache-2.0
# url: https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/examples/mnist_vae.py#L112-L136
  @jit
  def run_epoch(rng, opt_state, images):
# ...
  @jit
  def evaluate(opt_state, images):
# ...
  opt_state = opt_init(init_params)
  for epoch in range(num_epochs):
    tic = time.time()
    opt_state = run_epoch(random.key(epoch), opt_state, train_images)  # expect: review-compile-in-the-measurement
    test_elbo, sampled_images = evaluate(opt_state, test_images)  # expect: review-compile-in-the-measurement
    print(f"{epoch: 3d} {test_elbo} ({time.time() - tic:.3f} sec)")
