import time


class Timer:
    """A project's own timing context manager (kfac-jax, algoperf's profiler)."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.elapsed = time.perf_counter() - self.start
        return False
