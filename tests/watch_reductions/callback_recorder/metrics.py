class MetricsRecorder:
    """Keeps each step's loss, handed to it from inside the jitted step."""

    def __init__(self) -> None:
        self.history: dict[int, float] = {}

    def record(self, step, loss) -> None:
        self.history[int(step)] = float(loss)
