# source: google/brax
# path: brax/training/acting.py
# commit: 0b96d056328d15ea7ebfd3ce07f42be72ec76e40
# licence: Apache-2.0
# url: https://github.com/google/brax/blob/0b96d056328d15ea7ebfd3ce07f42be72ec76e40/brax/training/acting.py#L88-L173
# note: the wait is sound: every eval metric comes from the one jitted _generate_eval_unroll call and is fetched with np.asarray before the timer is read. The first run_evaluation (brax's PPO trainer calls it once before training starts) has no warm-up, so its eval/sps includes the compile
class Evaluator:
  """Class to run evaluations."""

  def __init__(
      self,
      eval_env: envs.Env,
      eval_policy_fn: Callable[[PolicyParams], Policy],
      num_eval_envs: int,
      episode_length: int,
      action_repeat: int,
      key: PRNGKey,
  ):
    # ...
    self._key = key
    self._eval_walltime = 0.0

    eval_env = envs.training.EvalWrapper(eval_env)
    self._eval_state_to_donate = jax.jit(eval_env.reset)(
        jax.random.split(key, num_eval_envs)
    )
    # ...
    self._generate_eval_unroll = jax.jit(
        generate_eval_unroll, donate_argnums=(0,), keep_unused=True
    )
    self._steps_per_unroll = episode_length * num_eval_envs

  def run_evaluation(
      self,
      policy_params: PolicyParams,
      training_metrics: Metrics,
      aggregate_episodes: bool = True,
  ) -> Metrics:
    """Run one epoch of evaluation."""
    self._key, unroll_key = jax.random.split(self._key)

    t = time.time()
    eval_state = self._generate_eval_unroll(  # expect: review-compile-in-the-measurement
        self._eval_state_to_donate, policy_params, unroll_key
    )
    self._eval_state_to_donate = eval_state

    eval_metrics = eval_state.info['eval_metrics']
    eval_metrics.active_episodes.block_until_ready()
    eval_metrics = jax.tree.map(np.asarray, eval_metrics)
    epoch_eval_time = time.time() - t
    # ...
    metrics['eval/epoch_eval_time'] = epoch_eval_time
    metrics['eval/sps'] = self._steps_per_unroll / epoch_eval_time
    self._eval_walltime = self._eval_walltime + epoch_eval_time
