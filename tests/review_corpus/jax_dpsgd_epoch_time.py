# source: jax-ml/jax
# path: examples/differentially_private_sgd.py
# commit: cec06d116c05f0d52adfceee3d3b730fdbcb0ce5
# licence: Apache-2.0
# url: https://github.com/jax-ml/jax/blob/cec06d116c05f0d52adfceee3d3b730fdbcb0ce5/examples/differentially_private_sgd.py#L203-L235
# note: only one of private_update/update runs, chosen by the _DPSGD flag; each is the first call of its jitted function
  @jit
  def update(_, i, opt_state, batch):
    params = get_params(opt_state)
    return opt_update(i, grad(loss)(params, batch), opt_state)

  @jit
  def private_update(rng, i, opt_state, batch):
    params = get_params(opt_state)
    rng = random.fold_in(rng, i)  # get new key for new random numbers
    return opt_update(
        i,
        private_grad(params, batch, rng, _L2_NORM_CLIP.value,
                     _NOISE_MULTIPLIER.value, _BATCH_SIZE.value), opt_state)
  # ...
  _, init_params = init_random_params(key, (-1, 28, 28, 1))
  opt_state = opt_init(init_params)
  itercount = itertools.count()

  steps_per_epoch = 60000 // _BATCH_SIZE.value
  print('\nStarting training...')
  for epoch in range(1, _EPOCHS.value + 1):
    start_time = time.time()
    for _ in range(num_batches):
      if _DPSGD.value:
        opt_state = \
            private_update(  # expect: review-compile-in-the-measurement
                key, next(itercount), opt_state,
                shape_as_image(*next(batches), dummy_dim=True))
      else:
        opt_state = update(  # expect: review-compile-in-the-measurement
            key, next(itercount), opt_state, shape_as_image(*next(batches)))
    epoch_time = time.time() - start_time  # expect: review-timing-without-blocking
    print(f'Epoch {epoch} in {epoch_time:0.2f} sec')
