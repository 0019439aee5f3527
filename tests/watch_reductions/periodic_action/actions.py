class PeriodicAction:
    """Turns the timestamps it is handed into steps per second (jaxline's utils.py)."""

    def __init__(self, every):
        self.every = every
        self.prev_time = None
        self.prev_step = 0
        self.rates = []

    def __call__(self, t, step, outputs):
        if self.prev_time is None:
            self.prev_time, self.prev_step = t, step
        elif step % self.every == 0:
            self.rates.append((step - self.prev_step) / (t - self.prev_time))
            self.prev_time, self.prev_step = t, step
