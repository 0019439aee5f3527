"""JW112 block-one-by-one: a Python loop or a tree_map blocks array by array: jax.block_until_ready(arrays) waits for the same in one batched call."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

outs = [step(x), step(x)]
for out in outs:  # <- JW112
    out.block_until_ready()

metrics = {"loss": step(x), "norm": step(x)}
jax.tree.map(lambda a: a.block_until_ready() if hasattr(a, "block_until_ready") else a, metrics)  # <- JW112

leaves = jax.tree_util.tree_leaves(metrics)
for leaf in leaves:  # <- JW112
    if hasattr(leaf, "block_until_ready"):  # only where it can (tomojax's block_tree)
        leaf.block_until_ready()

import dataclasses


@dataclasses.dataclass
class Rollout:
    obs: jax.Array
    reward: jax.Array


data = Rollout(step(x), step(x))
for field in dataclasses.fields(data):  # <- JW112
    value = getattr(data, field.name)  # each field taken out, then blocked by itself
    if isinstance(value, jax.Array):
        value.block_until_ready()


def block_tree(tree):  # ferminet's benchmark: the function form, leaf by leaf
    for leaf in jax.tree_util.tree_leaves(tree):  # <- JW112
        jax.block_until_ready(leaf)


# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

outs = [step(x), step(x)]
jax.block_until_ready(outs)

metrics = {"loss": step(x), "norm": step(x)}
jax.block_until_ready(metrics)

res = step(x)[0]  # an item of a result: one array, one block (numbax)
jax.tree.map(lambda t: t.block_until_ready(), res)

import dataclasses


@dataclasses.dataclass
class Rollout:
    obs: jax.Array
    reward: jax.Array


data = Rollout(step(x), step(x))
jax.block_until_ready(dataclasses.astuple(data))

for _ in range(3):  # each round computes, then waits: the loop's work, not a list blocked
    out = step(x)
    out.block_until_ready()

def batches():
    for _ in range(3):
        yield step(x), step(x)


for batch, mask in batches():  # each round's own new batch, made as the loop goes (cyreal)
    mask.block_until_ready()

masks = [mask.block_until_ready() for batch, mask in batches()]  # each round's own, as above


def synchronise(result):
    try:
        jax.block_until_ready(result)
    except TypeError:  # only where the batched block could not take the tree
        jax.tree_util.tree_map(lambda x: jax.block_until_ready(x), result)


def profile(fn, args, n):  # the warm-up blocks leaf by leaf, before the timer (e3nn, macrogpt)
    for _ in range(2):
        jax.tree.map(lambda a: a.block_until_ready(), fn(*args))
    t70 = time.perf_counter()
    for _ in range(n):
        out = fn(*args)
    jax.block_until_ready(out)
    return (time.perf_counter() - t70) / n
