# The same Flax NNX training step, timed per step, with the loss the step returns blocked on
# before the timer is read.
import time

import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs: nnx.Rngs) -> None:
        self.hidden = nnx.Linear(256, 512, rngs=rngs)
        self.out = nnx.Linear(512, 10, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return optax.softmax_cross_entropy_with_integer_labels(model(x), y).mean()

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


model = MLP(nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
x, y = jnp.ones((512, 256)), jnp.zeros((512,), jnp.int32)
train_step(model, optimizer, x, y).block_until_ready()
step_times = []
for step in range(5):
    start = time.perf_counter()
    loss = train_step(model, optimizer, x, y).block_until_ready()
    step_times.append(time.perf_counter() - start)
print("steps timed:", len(step_times))
