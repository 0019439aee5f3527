# source: google-research/t5x
# path: t5x/trainer.py
# commit: cc342d419ec3e3e9c4bf1df33c82330cafdc1e16
# licence: Apache-2.0
# url: https://github.com/google-research/t5x/blob/cc342d419ec3e3e9c4bf1df33c82330cafdc1e16/t5x/trainer.py#L235-L287
# expect: clean
class _AsyncTimer(object):
  """A timer that computes computes durations between async jax operations.

  You should call close() to wait for threads started by this class to finish.
  """
# ...
  def __init__(self):
    # We use a thread pool with a single worker to ensure that calls to the
    # function are run in order (but in a background thread).
    self._pool = asynclib.Pool(thread_name_prefix="AsyncTimer", max_workers=1)
    self._start_future = None
# ...
  def _get_completion_future(self, block_on: PyTree = ()) -> TimeFuture:
    """Returns Future containing time when `block_on` is ready."""

    def _get_completion_time():
      try:
        jax.block_until_ready(block_on)
      except RuntimeError as e:
        # If the buffer no longer exists, we assume it was completed.
# ...
      return _time()

    return self._pool(_get_completion_time)()

  def start(self, block_on: PyTree = ()):
    """Starts timer after `block_on` is ready."""
    self._start_future = self._get_completion_future(block_on)

  def stop(self, block_on: PyTree = ()) -> TimeFuture:
    """Stops timer after `block_on` is ready, returning the duration."""
    if not self._start_future:
      raise ValueError("The timer hasn't been started.")

    start_future = self._start_future
    self._start_future = None
    stop_future = self._get_completion_future(block_on)
    return self._pool(lambda: stop_future.result() - start_future.result())()
