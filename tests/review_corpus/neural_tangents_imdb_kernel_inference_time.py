# source: google/neural-tangents
# path: examples/imdb.py
# commit: c17e770bb74f1771da7be4a69fabfa68b6078960
# licence: Apache-2.0
# url: https://github.com/google/neural-tangents/blob/c17e770bb74f1771da7be4a69fabfa68b6078960/examples/imdb.py#L75-L93
# note: both outputs of the predict call are blocked before the timer is read; the timer deliberately covers kernel construction and inference end to end
# expect: clean
  # Optionally, compute the kernel in batches, in parallel.
  kernel_fn = nt.batch(kernel_fn, device_count=-1, batch_size=_BATCH_SIZE)

  start = time.time()
  # Bayesian and infinite-time gradient descent inference with infinite network.
  predict = nt.predict.gradient_descent_mse_ensemble(
      kernel_fn=kernel_fn,
      x_train=x_train,
      y_train=y_train,
      diag_reg=1e-6,
      mask_constant=mask_constant)

  fx_test_nngp, fx_test_ntk = predict(x_test=x_test, get=('nngp', 'ntk'))

  fx_test_nngp.block_until_ready()
  fx_test_ntk.block_until_ready()

  duration = time.time() - start
  print(f'Kernel construction and inference done in {duration} seconds.')
