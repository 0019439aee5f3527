"""What the libraries of JAX's ecosystem do, read from ``library.toml`` (data: knowing one more
library is an entry there, not code): the callables that trace, jit, wait, time, pass arrays on
untouched, or map a function over a tree."""

from __future__ import annotations

import sys
import tomllib
from importlib import resources


def library(text: str) -> dict[str, set[str]]:
    """The names of each kind of callable in a table like library.toml, over every library it
    lists; a kind it does not know is an error that names the library."""
    kinds: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for library, entry in tomllib.loads(text).items():
        for kind, names in entry.items():
            if kind != "why" and kind not in kinds:
                raise ImportError(f"library.toml: [{library}] names no kind of callable: {kind}")
            kinds.get(kind, set()).update(names if kind != "why" else [])
    return kinds


KINDS = (
    "traces", "jits", "blocks", "loops", "times", "no-work", "waits", "waits-method",
    "device-waits", "passes", "robust", "appends", "callbacks", "maps", "models", "foreign",
    "moves", "computes", "waits-attribute",
)  # fmt: skip


def owners(text: str, kind: str) -> dict[str, set[str]]:
    """By each name of ``kind`` in a table like library.toml, the libraries (their top-level
    packages) that list it."""
    found: dict[str, set[str]] = {}
    for library, entry in tomllib.loads(text).items():
        for name in entry.get(kind, []):
            found.setdefault(name, set()).add(library.partition(".")[0])
    return found


def makes_models(origin: str) -> bool:
    """Whether the callable imported from ``origin`` (its full dotted name, ``flax.linen.Module``)
    is a library's class of models or a function that returns one."""
    return _listed(origin, MODEL_MAKERS)


def computes(origin: str) -> bool:
    """Whether the function imported from ``origin`` (``optax.apply_updates``) is a library's
    that computes on the arrays it is given and never waits."""
    return _listed(origin, COMPUTES)


def foreign(origin: str) -> bool:
    """Whether the callable imported from ``origin`` (``numba.jit``) is another library's own,
    named as one of JAX's."""
    return _listed(origin, FOREIGN)


def _listed(origin: str, names: dict[str, set[str]]) -> bool:
    top, _, rest = origin.partition(".")
    name = rest.rpartition(".")[2] or top
    return any(
        top in libraries and (name == entry or (entry[-1] == "*" and name.startswith(entry[:-1])))
        for entry, libraries in names.items()
    )


TABLE = resources.files(__package__).joinpath("library.toml").read_text("utf-8")
LIBRARY = library(TABLE)
MODEL_MAKERS = owners(TABLE, "models")
# What a model (or an optimizer, a train state, a solver) computes through, besides being called.
MODEL_METHODS = ("apply", "init", "update", "apply_gradients", "run", "init_state")
COMPUTES = owners(TABLE, "computes")
FOREIGN = owners(TABLE, "foreign")
TRACING = LIBRARY["traces"]  # its function argument (or decorated function) is traced, not run
JITTING = LIBRARY["jits"]
BLOCKING = LIBRARY["blocks"]  # what it jits waits for its results (equinox's filter_jit)
LOOPS = LIBRARY["loops"]  # called outside jit, they compile their function
MOVING = LIBRARY["moves"]  # transfers: called outside jit, they compile nothing
TIMERS = LIBRARY["times"]
# Parts of the jax namespace that do no work on the device (a call to them is not timed work).
NOT_WORK = LIBRARY["no-work"]
# Calls that wait for a JAX array's values (they read them, or wait for them).
WAITING_METHODS = LIBRARY["waits-method"]
WAITING_FUNCTIONS = LIBRARY["waits"]
WAITING_ATTRIBUTES = LIBRARY["waits-attribute"]  # loss._value: read, it fetches the values
# Calls that might wait for everything dispatched before them ...
DEVICE_WAITS = LIBRARY["device-waits"]
# ... and any call named like `sync()`, `sync_func()`, `synchronize_all_activity()`
PASSING = LIBRARY["passes"]  # calls that take arrays and never wait on them
ROBUST = LIBRARY["robust"]
CALLBACKS = LIBRARY["callbacks"]  # host callbacks that may change the host's state
APPENDING = LIBRARY["appends"]  # results.append(out): results holds it
MAPPING = LIBRARY["maps"]  # tree_map(place, params): what place returns, leaf by leaf
JAX_MODULES = {"jax", "jnp", "lax", "random", "jr", "jrandom"}
NUMPY_MODULES = {"np", "numpy", "onp"}

# Imports that name libraries, never the program's own modules, are not looked for: the
# standard library's (a package's own typing.py is not what `import typing` imports) and these.
LIBRARIES = {"jax", "jaxlib", "numpy", "flax", "optax", "equinox", "haiku"} | set(
    sys.stdlib_module_names
)
