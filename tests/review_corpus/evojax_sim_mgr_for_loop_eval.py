# source: google/evojax
# path: evojax/sim_mgr.py
# commit: acf5252475e4fbf47e0e3f7994c03de11dd3c4ca
# licence: Apache-2.0
# url: https://github.com/google/evojax/blob/acf5252475e4fbf47e0e3f7994c03de11dd3c4ca/evojax/sim_mgr.py#L87-L302
# note: the wait is sound: 'if all_done(valid_mask)' converts a jitted result to a Python bool on every step, and everything else the step produced is upstream of valid_mask. The first evaluation's steps/s includes the compile of the jitted policy and task functions (self._policy_act_fn = jax.jit(policy_net.get_actions), line 209)
@jax.jit
def update_score_and_mask(score, reward, mask, done):
    new_score = score + reward * mask
    new_mask = mask * (1 - done.ravel())
    return new_score, new_mask
# ...
@jax.jit
def all_done(masks):
    return masks.sum() == 0
# ...
class SimManager(object):
    # ...
    def _for_loop_eval(self,
                       params: jnp.ndarray,
                       test: bool) -> Tuple[jnp.ndarray, TaskState]:
        """Rollout using for loop (no multi-device or ma_training yet)."""
        policy_reset_func = self._policy_reset_fn
        policy_act_func = self._policy_act_fn
        if test:
            n_repeats = self._test_n_repeats
            task_reset_func = self._valid_reset_fn
            task_step_func = self._valid_step_fn
            task_max_steps = self._valid_max_steps
            params = duplicate_params(
                params[None, :], self._n_evaluations, False)
        else:
            n_repeats = self._n_repeats
            task_reset_func = self._train_reset_fn
            task_step_func = self._train_step_fn
            task_max_steps = self._train_max_steps

        params = duplicate_params(params, n_repeats, self._ma_training)

        # Start rollout.
        self._key, reset_keys = get_task_reset_keys(
            self._key, test, self._pop_size, self._n_evaluations, n_repeats,
            self._ma_training)
        task_state = task_reset_func(reset_keys)
        policy_state = policy_reset_func(task_state)
        scores = jnp.zeros(params.shape[0])
        valid_mask = jnp.ones(params.shape[0])
        start_time = time.perf_counter()
        rollout_steps = 0
        sim_steps = 0
        for i in range(task_max_steps):
            actions, policy_state = policy_act_func(  # expect: review-compile-in-the-measurement
                task_state, params, policy_state)
            task_state, reward, done = task_step_func(task_state, actions)
            scores, valid_mask = update_score_and_mask(  # expect: review-compile-in-the-measurement
                scores, reward, valid_mask, done)
            rollout_steps += 1
            sim_steps = sim_steps + valid_mask
            if all_done(valid_mask):  # expect: review-compile-in-the-measurement
                break
        time_cost = time.perf_counter() - start_time
