# source: google/flax
# path: examples/nlp_seq/train.py
# commit: 18f8f311c275d57f46d95e41b15aa97b454754c0
# licence: Apache-2.0
# url: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/examples/nlp_seq/train.py#L333-L375
# note: the wait is sound: common_utils.get_metrics device_gets the metrics, which come from the same pmapped calls as state; the first window's steps per second includes the pmap compile
  p_train_step = jax.pmap(
      functools.partial(
          train_step, model=model, learning_rate_fn=learning_rate_fn
      ),
      axis_name='batch',
      donate_argnums=(0,),
  )  # pytype: disable=wrong-arg-types
  # ...
  dropout_rngs = random.split(rng, jax.local_device_count())
  metrics_all = []
  tick = time.time()
  best_dev_score = 0
  for step, batch in zip(range(num_train_steps), train_iter):
    batch = common_utils.shard(
        jax.tree_util.tree_map(lambda x: x._numpy(), batch)
    )  # pylint: disable=protected-access

    state, metrics = p_train_step(state, batch, dropout_rng=dropout_rngs)  # expect: review-compile-in-the-measurement
    metrics_all.append(metrics)
    if (step + 1) % eval_freq == 0:
      metrics_all = common_utils.get_metrics(metrics_all)
      lr = metrics_all.pop('learning_rate').mean()
      metrics_sums = jax.tree_util.tree_map(jnp.sum, metrics_all)
      denominator = metrics_sums.pop('denominator')
      summary = jax.tree_util.tree_map(lambda x: x / denominator, metrics_sums)  # pylint: disable=cell-var-from-loop
      summary['learning_rate'] = lr
      logging.info('train in step: %d, loss: %.4f', step, summary['loss'])
      if jax.process_index() == 0:
        tock = time.time()
        steps_per_sec = eval_freq / (tock - tick)
        tick = tock
        train_summary_writer.scalar('steps per second', steps_per_sec, step)
