"""jax.debug.callback can run out of program order, more than once, or not at all;
ordered=True fixes the order only."""

import jax
import jax.numpy as jnp

log = []


def runs(f, *args):
    """What the callbacks recorded during one call of f, once its effects are done (or the
    name of what the call raised)."""
    log.clear()
    try:
        jax.block_until_ready(f(*args))
        jax.effects_barrier()
    except Exception as e:
        return type(e).__name__
    return list(log)


def calls(f, *args):
    found = runs(f, *args)
    return found if isinstance(found, str) else len(found)


def order(f, *args):
    found = runs(f, *args)
    return found if isinstance(found, str) else ", ".join(found)


for ordered in (False, True):

    def two_callbacks(x):
        y = (x @ x) @ x
        jax.debug.callback(lambda v: log.append("first"), y[0, 0], ordered=ordered)  # noqa: B023  # late value
        jax.debug.callback(lambda v: log.append("second"), x[0, 0], ordered=ordered)  # noqa: B023  # early value
        return y

    def with_callback(x):
        jax.debug.callback(lambda v: log.append("ran"), x, ordered=ordered)  # noqa: B023
        return jnp.sin(x)

    def linear(t):
        jax.debug.callback(lambda v: log.append("ran"), t, ordered=ordered)  # noqa: B023
        return 2.0 * t

    x = jnp.ones((500, 500))
    print(
        f"ordered={ordered}: two callbacks in one jitted function ran as:",
        order(jax.jit(two_callbacks), x),
    )
    print(f"ordered={ordered}: one callback, jitted: calls:", calls(jax.jit(with_callback), 1.0))
    print(
        f"ordered={ordered}: the same under jax.grad of jax.checkpoint: calls:",
        calls(jax.jit(jax.grad(jax.checkpoint(with_callback))), 1.0),
    )
    print(
        f"ordered={ordered}: the same under jax.vmap over 3 elements: calls:",
        calls(jax.jit(jax.vmap(with_callback)), jnp.ones(3)),
    )
    print(
        f"ordered={ordered}: a callback on the input of a linear function: calls:",
        calls(jax.jit(linear), 1.0),
    )
    print(
        f"ordered={ordered}: the same under jax.linear_transpose: calls:",
        calls(jax.jit(jax.linear_transpose(linear, 1.0)), 1.0),
    )
