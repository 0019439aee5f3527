# source: google/paxml
# path: paxml/programs.py
# commit: b397693fb4dd7b49e90ae549105d024644a03665
# licence: Apache-2.0
# url: https://github.com/google/paxml/blob/b397693fb4dd7b49e90ae549105d024644a03665/paxml/programs.py#L167-L391
# note: praxis py_utils.timeit only reads time.time() at entry and exit, so train_period (logged as 'train_step() took' and recorded as /jax/pax/train/duration_sec) ends when the partitioned train step has been dispatched; its loss is only queued, and waited on max_inflight_steps later. _first_step_completion_time is likewise read before the first step is known to be done. Labels sit on the with line whose exit stops the timer and on the timestamp line. The partitioned step is compiled at its first call (_get_train_step, not shown), so step 0's duration also includes compilation; not labelled, as the excerpt does not show the jit
class _InflightQueue:
  # ...
  def add_computation(self, computation: JTensor):
    """Adds a pending on-device computation."""
    if self._inflight_queue:
      self._inflight_queue.put(computation)

  def wait_for_next(self):
    """If the queue is full, wait for the next computation to finish."""
    if self._inflight_queue and self._inflight_queue.full():
      self._inflight_queue.get().block_until_ready()
# ...
  @py_utils.benchmark('[PAX STATUS]: ', first_n=20)
  def run(self, state: TrainState, step: int) -> TrainProgramOutput:
    train_p = self._task.train
    logging.log_first_n(logging.INFO, '[PAX STATUS]:  Retrieving inputs.', 5)
    model_inputs = self._train_input.get_next_padded()
    # ...
    # Waits if it reaches max inflight steps. We do this after retrieving the
    # inputs to maximize efficiency.
    self._pending_train_losses.wait_for_next()
    # ...
    with jax.profiler.StepTraceAnnotation('train', step_num=step):
      with py_utils.timeit() as train_period:  # expect: review-timing-without-blocking
        new_step, new_state, train_outputs = self.train_step(
            step,
            state,
            self._train_prng_seed,
            model_inputs,
            BaseStepFnStaticArgs(
                unpadded_global_batch_size=self._train_unpadded_global_batch_size
            ),
        )
      del state  # Unused.
    jax.monitoring.record_event_duration_secs(
        '/jax/pax/train/duration_sec', train_period.elapsed
    )
    logging.log_first_n(
        logging.INFO,
        '[PAX STATUS]: train_step() took %f seconds.',
        20,
        train_period.elapsed,
    )
    self._pending_train_losses.add_computation(train_outputs.loss)
    if step == self._initial_step:
      self._first_step_completion_time = time.time()  # expect: review-timing-without-blocking
      self._first_result_callback_pool.submit(
          self.first_result_callback_fn, True
      )
