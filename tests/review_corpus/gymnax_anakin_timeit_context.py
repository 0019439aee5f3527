# source: RobertTLange/gymnax
# path: examples/01_anakin.ipynb
# commit: 086ad95697d5898b95ce3b14fa25f2b0bae4a1fc
# licence: Apache-2.0
# url: https://github.com/RobertTLange/gymnax/blob/086ad95697d5898b95ce3b14fa25f2b0bae4a1fc/examples/01_anakin.ipynb
# note: the TimeIt context reads the clock in __exit__, and neither the COMPILATION call nor the EXECUTION call of the pmapped learn is waited on inside its with block; the unwaited first run also spills into the EXECUTION window
# [cell 8]
class TimeIt:
    def __init__(self, tag, frames=None):
        self.tag = tag
        self.frames = frames

    def __enter__(self):
        self.start = timeit.default_timer()
        return self

    def __exit__(self, *args):
        self.elapsed_secs = timeit.default_timer() - self.start  # expect: review-timing-without-blocking
        msg = self.tag + (": Elapsed time=%.2fs" % self.elapsed_secs)
        if self.frames:
            msg += ", FPS=%.2e" % (self.frames / self.elapsed_secs)
        print(msg)


def run_experiment(env, batch_size, rollout_len, step_size, iterations, seed):
    """Runs experiment."""
    # ...
# [cell 8]
    learn = get_learner_fn(  # get batched iterated update.
        env,
        network.apply,
        optim.update,
        rollout_len=rollout_len,
        agent_discount=1,
        lambda_=0.99,
        iterations=iterations,
    )
    learn = jax.pmap(learn, axis_name="i")  # replicate over multiple cores.

    broadcast = lambda x: jnp.broadcast_to(x, (cores_count, batch_size) + x.shape)
    params = jax.tree.map(broadcast, params)  # broadcast to cores and batch.
    opt_state = jax.tree.map(broadcast, opt_state)  # broadcast to cores and batch

    key, *env_keys = jax.random.split(key, cores_count * batch_size + 1)
    env_obs, env_states = jax.vmap(env.reset)(jnp.stack(env_keys))  # init envs.
    key, *step_keys = jax.random.split(key, cores_count * batch_size + 1)

    reshape = lambda x: x.reshape((cores_count, batch_size) + x.shape[1:])
    step_keys = reshape(jnp.stack(step_keys))  # add dimension to pmap over.
    env_obs = reshape(env_obs)  # add dimension to pmap over.
    env_states_re = to_state_dict(env_states)
    env_states = {k: reshape(env_states_re[k]) for k in env_states_re.keys()}
    env_states = EnvState(**env_states)
    with TimeIt(tag="COMPILATION"):
        learn(params, opt_state, step_keys, env_states)  # compiles

    num_frames = cores_count * iterations * rollout_len * batch_size
    with TimeIt(tag="EXECUTION", frames=num_frames):
        params, opt_state, step_keys, env_states = learn(  # runs compiled fn
            params, opt_state, step_keys, env_states
        )
    return params
