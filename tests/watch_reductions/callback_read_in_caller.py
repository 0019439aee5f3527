# An evaluation helper that blocks on its outputs and returns; the caller then reads what the
# eval step's callback recorded (a set of the batch ids seen), with no effects barrier.
import jax
import jax.numpy as jnp

seen: set[int] = set()


def note(batch_id) -> None:
    seen.add(int(batch_id))


@jax.jit
def eval_step(params, batch_id):
    jax.debug.callback(note, batch_id)
    return jnp.sum(params * batch_id)


def evaluate(params, batches):
    totals = [eval_step(params, b) for b in batches]
    jax.block_until_ready(totals)
    return totals


params = jnp.ones((16,))
evaluate(params, range(4))
print("batches seen:", sorted(seen))  # <- JW108 by chance
