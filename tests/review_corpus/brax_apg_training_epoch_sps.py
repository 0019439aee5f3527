# source: google/brax
# path: brax/training/agents/apg/train.py
# commit: 0b96d056328d15ea7ebfd3ce07f42be72ec76e40
# licence: Apache-2.0
# url: https://github.com/google/brax/blob/0b96d056328d15ea7ebfd3ce07f42be72ec76e40/brax/training/agents/apg/train.py#L273-L383
  training_epoch = jax.pmap(training_epoch, axis_name=_PMAP_AXIS_NAME)

  training_walltime = 0

  # Note that this is NOT a pure jittable method.
  def training_epoch_with_timing(
      training_state: TrainingState,
      env_state: envs.State,
      key: PRNGKey,
  ) -> Tuple[TrainingState, envs.State, Metrics, PRNGKey]:
    nonlocal training_walltime
    t = time.time()
    (training_state, env_state, metrics, key) = training_epoch(  # expect: review-compile-in-the-measurement
        training_state, env_state, key
    )
    metrics = jax.tree_util.tree_map(jnp.mean, metrics)
    jax.tree_util.tree_map(lambda x: x.block_until_ready(), metrics)

    epoch_training_time = time.time() - t
    training_walltime += epoch_training_time
    sps = (updates_per_epoch * num_envs * horizon_length) / epoch_training_time
# ...
  for it in range(num_evals_after_init):
    logging.info('starting iteration %s %s', it, time.time() - xt)

    (training_state, env_state, training_metrics, epoch_key) = (
        training_epoch_with_timing(training_state, env_state, epoch_key)
    )
