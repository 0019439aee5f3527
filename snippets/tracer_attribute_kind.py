"""Under jit, asking a tracer for block_until_ready raises AttributeError: which code raises it?

A class attribute that raises AttributeError (a property) makes Python fall back to the class's
__getattr__, so the frame the error comes from is watched, not inferred from the class.
"""

import jax
import jax.numpy as jnp


def raised_in(error: BaseException) -> str:
    """The function (qualified name) in whose frame an exception was raised."""
    traceback = error.__traceback__
    while traceback.tb_next is not None:
        traceback = traceback.tb_next
    return traceback.tb_frame.f_code.co_qualname


@jax.jit
def inspect_tracer(x):
    print("tracer is a jax.Array instance:", isinstance(x, jax.Array))
    print("hasattr(tracer, 'block_until_ready'):", hasattr(x, "block_until_ready"))
    found = getattr(x, "block_until_ready", None)
    print("getattr(tracer, 'block_until_ready', None) is None:", found is None)
    try:
        x.block_until_ready  # noqa: B018 (the lookup is the experiment)
        print("the lookup raised: nothing")
    except AttributeError as error:
        print("the lookup raised AttributeError in:", raised_in(error))
        dedicated = "method is not available on traced array" in str(error)
        print("its message says the method is not available on a traced array:", dedicated)
    owners = [c for c in type(x).__mro__ if "block_until_ready" in vars(c)]
    print("a class in the tracer's MRO defines block_until_ready:", bool(owners))
    if owners:
        print("  defined as:", type(vars(owners[0])["block_until_ready"]).__name__)
    return x


inspect_tracer(jnp.ones(3))


def lookup_raised_in(x):
    """Where asking a traced value for block_until_ready raises, and whether hasattr is False."""
    try:
        x.block_until_ready  # noqa: B018 (the lookup is the experiment)
        print("  the lookup raised: nothing")
    except AttributeError as error:
        print("  the lookup raised AttributeError in:", raised_in(error))
    print("  hasattr(tracer, 'block_until_ready'):", hasattr(x, "block_until_ready"))
    return x * 2.0


for name, transform in (("vmap", jax.vmap), ("grad", lambda f: jax.grad(lambda a: f(a).sum()))):
    print(f"under {name}, without jit:")
    transform(lookup_raised_in)(jnp.ones(3))
