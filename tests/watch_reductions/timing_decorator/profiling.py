import functools
import time


def timed(fn):
    """A profiling decorator of the project (`@u.timer` in the issue's blind set)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        start = time.monotonic()
        result = fn(*args, **kwargs)
        wrapper.seconds = time.monotonic() - start  # <- JW101
        return result

    return wrapper
