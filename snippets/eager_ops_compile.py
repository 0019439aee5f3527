"""Operations called outside jit, eagerly: `jnp.dot(x, x)` and `x + x`. Each one's first call,
timed up to a block on its result, against the fastest of five calls after it; then the same
for an input of another shape and of another dtype; then a function transformed by `jax.grad`,
and one by `jax.vmap`, called outside jit (each runs its operations one by one)."""

import time

import jax
import jax.numpy as jnp

x = jnp.ones((100, 100))


def blocked_time(op, a):
    start = time.perf_counter()
    op(a).block_until_ready()
    return time.perf_counter() - start


def first_against_warm(op, a):
    first = blocked_time(op, a)
    warm = min(blocked_time(op, a) for _ in range(5))
    return first / warm > 10


dot = lambda a: jnp.dot(a, a)  # noqa: E731
add = lambda a: a + a  # noqa: E731
print("first eager jnp.dot at least 10x slower than a warm one:", first_against_warm(dot, x))
print("first eager x + x at least 10x slower than a warm one:", first_against_warm(add, x))
for other in (jnp.ones((120, 120)), jnp.ones((100, 100), jnp.bfloat16)):
    said = f"an input of shape {other.shape} and dtype {other.dtype}"
    print(f"first jnp.dot of {said} at least 10x slower:", first_against_warm(dot, other))
    print(f"first x + x of {said} at least 10x slower:", first_against_warm(add, other))


def loss(a):
    return jnp.sum(jnp.tanh(a) * a)


gradient = lambda a: jax.grad(loss)(a)  # noqa: E731
batched = jax.vmap(lambda row: jnp.sum(jnp.sin(row) * row))
print("first jax.grad(f)(x) at least 10x slower than a warm one:", first_against_warm(gradient, x))
print(
    "first call of jax.vmap(f) at least 10x slower than a warm one:", first_against_warm(batched, x)
)
