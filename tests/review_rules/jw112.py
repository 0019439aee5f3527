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
