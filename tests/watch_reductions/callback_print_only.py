# A training step that prints its loss from inside jit through a callback (the debugging
# recipe), blocked on: nothing the program reads later is changed by the callback.
import jax
import jax.numpy as jnp

history = {"steps": 0}


def show(loss) -> None:
    print(f"loss {float(loss):.4f}")


@jax.jit
def step(w):
    loss = jnp.mean(w**2)
    jax.debug.callback(show, loss)
    return w * 0.9


w = jnp.ones((32, 32))
for _ in range(3):
    w = step(w)
    history["steps"] += 1
w.block_until_ready()
print("steps:", history["steps"])
