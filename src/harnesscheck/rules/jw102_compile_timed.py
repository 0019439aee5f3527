"""The first call of a jitted function is inside the timed region: it compiles before it
runs{claim}`compile-before-polling`. So is the first call of an operation outside jit, where
such operations are all the region times (``jnp.dot(a, b)``, ``a + b``, ``jax.grad(f)(x)``):
each compiles on its first call{claim}`eager-ops-compile`. And so is every call of a function
that jits a function it makes on that call (``jax.jit(inner)(x)``, ``inner`` nested in it) or
runs one in a lax loop outside jit (``lax.scan(body, ...)``): each call compiles a new function.
Checklist: {ref}`review-compile-in-the-measurement`.

```python
step = jax.jit(f)
t0 = time.perf_counter()
step(x).block_until_ready()  # compiles here  # jaxwaits: ignore[JW102] (the mistake)
elapsed = time.perf_counter() - t0
```

Right: one blocked call of `step` before `t0`, or `step.lower(x).compile()`.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterator

from harnesscheck.findings import Finding, finding, says
from harnesscheck.model.afresh import jitted_afresh
from harnesscheck.model.library import APPENDING, JITTING, LOOPS, MAPPING, MOVING, TRACING
from harnesscheck.model.module import Module
from harnesscheck.model.shapes import reshaped
from harnesscheck.model.syntax import (
    bound_names,
    callee_key,
    callee_name,
    dotted_parts,
    is_timer,
    names_read,
    param_names,
    positional_params,
    spans_line,
)
from harnesscheck.regions import TIMED_WORDS, Region, running
from harnesscheck.regions.intent import WARM_UP, WHOLE_RUN, meant, whole_run
from harnesscheck.regions.warm_up import (
    round_apart,
    static_changed,
    timed_again,
    unwarmed,
    warmed_on_a_slice,
)
from harnesscheck.rules import Seen, Source

CODE = "JW102"
NAME = "compile-timed"
ANCHOR = "review-compile-in-the-measurement"
CLAIMS = ("compile-before-polling", "eager-ops-compile")
SUMMARY = "the first call of a jitted function is timed: it compiles before it runs"
WORDS = TIMED_WORDS
BUILTINS = set(dir(builtins))
CLEARED = 6  # lines above the timer's start where clearing the caches says compiling is timed
ON_PURPOSE = (*WARM_UP, *WHOLE_RUN)  # words that say a region times compiling on purpose


def check(source: Source) -> Iterator[Finding]:
    """The calls in a timed region that compile: the first of a jitted function, of a lax loop
    over one, or of a function of the module that is the only caller of one, and, where the
    region times only operations outside jit, the first of each of those; unless the
    region's own timings are minimised, taken the median of or sliced past their first runs,
    or it is a warm-up, or a running clock (read in a loop it started before: time since then)."""
    facts = source.facts
    yield from _handed_first(source)
    called = facts.called.items()  # where jax.clear_caches() runs: asked once, by name
    cleared = [n for key, found in called if key.endswith("clear_caches") for n in found]
    for region in source.regions:
        if not region.fixed_count or region.again or running(region, facts):
            continue
        timings = _timings(facts, region.end)  # asked three times below: found once
        if round_apart(facts, region, timings):
            continue
        yield from _recompiled(facts, region)
        # a function called more than once has compiled its steps by its second call, unless
        # it jits them anew each time, around a function it makes on each call
        fresh = _jitted_afresh(facts, region.start) if facts.warms_up(region.start) else None
        if fresh is not None:
            fresh |= unwarmed(facts, region)
        if facts.keeps_fastest(timings, region.end):
            continue
        if meant(facts, region.start, region.end, ON_PURPOSE, readout=WARM_UP):
            continue
        if _named_for_compiling(facts, region):
            continue
        if cleared and _caches_cleared(facts, region, cleared):
            continue
        if whole_run(facts, region.start, region.end, timings):
            continue
        yield from _warmed_on_a_slice(facts, region)
        if fresh is not None and not fresh:
            continue
        said: dict[str, ast.Call] = {}  # step(x), step(x + 1): one compilation, said once
        for call in region.timed.every:
            if _warmed_here(facts, call):
                continue
            if fresh is not None and callee_key(call.func) not in fresh:
                continue
            compiled = _compiles(facts, call, region.start)
            if compiled and timed_again(facts, source.regions, region, call):
                continue  # the first call timed, then the next: the compilation shown on purpose
            if compiled:
                said.setdefault(compiled, call)
        if said:  # one region, one finding: at the first call that compiles, naming them all
            names = list(said)
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            many = len(names) > 1
            yield finding(
                CODE,
                next(iter(said.values())),
                f"{shown} {'are' if many else 'is'} first called inside the timed region: "
                f"{'their' if many else 'its'} compilation is timed; call "
                f"{'each' if many else 'it'} once (blocked) before the timer starts",
            )
        if fresh is None:  # one finding a place: a new shape on each round says the most
            reshaped_here = list(_new_shapes(facts, region, set(said)))
            yield from reshaped_here
            if _operations_only(facts, region) and not said:  # one compiling story a region
                places = {(f.line, f.col) for f in reshaped_here}
                yield from (
                    f for f in _operations_first(source, region) if (f.line, f.col) not in places
                )


def _handed_first(source: Source) -> Iterator[Finding]:
    """A helper that times a function it is handed (``def _timeit(fn): t0 = ...; fn(); ...``),
    handed at a call a jitted function (or a lambda calling one) called nowhere before that
    call: its first call, compiling, is in the helper's timing. Found at the call."""
    facts = source.facts
    for helper, position in set(_timing_helpers(source)):  # a helper may time it twice
        for call in facts.of(ast.Call):
            if callee_key(call.func) != helper or len(call.args) <= position:
                continue
            handed = call.args[position]
            body = handed.body if isinstance(handed, ast.Lambda) else handed
            inner = body.func if isinstance(body, ast.Call) else body
            name = callee_key(inner)
            # the call's own line or the helper's name may say compiling is what it times:
            # batch_first_seconds = timed(step, 1), _compile_time(new_jit, ...)
            said = says([facts.lines[call.lineno - 1], helper], ON_PURPOSE)
            first = facts.called.get(name, [call.lineno])[0] >= call.lineno
            if name in facts.jitted and first and not said:
                yield finding(
                    CODE,
                    call,
                    f"{name!r} is first called inside the timed region of {helper!r}: its "
                    "compilation is timed; call it once (blocked) before handing it over",
                )


def _timing_helpers(source: Source) -> Iterator[tuple[str, int]]:
    """The module's functions that time a call of one of their parameters, called nowhere
    else in them (a first call timed apart from the next is compiling shown on purpose), with
    that parameter's position; not where the region says it times compiling."""
    facts = source.facts
    for region in source.regions:
        definition = facts.innermost(region.start)
        if definition is None or not region.fixed_count:
            continue
        if meant(facts, region.start, region.end, ON_PURPOSE, readout=WARM_UP):
            continue
        if _named_for_compiling(facts, region):
            continue
        params = positional_params(definition)
        last = getattr(region.end, "end_lineno", None) or region.start
        for call in region.timed.every:
            name = callee_key(call.func)
            elsewhere = [
                line
                for line in facts.called.get(name, [])
                if spans_line(definition, line) and not region.start <= line <= last
            ]
            if name in params and not elsewhere:
                yield definition.name, params.index(name)


def _new_shapes(facts: Module, region: Region, said: set[str]) -> Iterator[Finding]:
    """The calls that compile again on each round of the loop around the region: of a jitted
    function (or an operation outside jit, where those are all it times) handed an array whose
    shape changes with the loop's variable, not called in the loop before the timer starts."""
    found = reshaped(facts, region.start)
    if found is None or not found[1]:
        return
    loop, made = found
    operations = _operations_only(facts, region)
    for call in region.timed.every:
        arguments = ast.Tuple([*call.args, *[k.value for k in call.keywords]])
        handed = sorted(names_read(arguments) & made.keys())
        compiling = _compiles(facts, call, region.start, first=False)
        if not compiling and operations and (operation := _operation(facts, call)):
            compiling = repr(operation)
        lines = facts.called.get(callee_key(call.func), [])
        warmed = any(loop.lineno < line < region.start for line in lines)
        if not handed or not compiling or warmed or compiling in said:
            continue
        said.add(compiling)
        yield finding(
            CODE,
            call,
            f"{compiling} is called with {handed[0]!r}, whose shape changes with "
            f"{made[handed[0]]!r} on each round of the loop: each new shape compiles inside the "
            "timed region; call it once (blocked) with each shape before the timer starts",
        )


def _named_for_compiling(facts: Module, region: Region) -> bool:
    """The function the region is in is named for what it times: compiling
    (``track_compile_elbo``, ``time_compilation``, ``warmup_step``; not ``run_compiled``)."""
    definition = facts.innermost(region.start)
    words = set(re.findall(r"[a-z]+", definition.name.lower())) if definition else set()
    return bool(words & {"compile", "compilation", "compiling", "warmup"})


def _warmed_here(facts: Module, node: ast.AST) -> bool:
    """A "# warm up" comment on the line before: this call is meant to compile."""
    return says(facts.lines[node.lineno - 2 : node.lineno - 1], WARM_UP)


def _operations_first(source: Source, region: Region) -> Iterator[Finding]:
    """One finding, at the first, for the operations outside jit a region times on their
    first call: one region, one compiling story."""
    facts, timed = source.facts, region.timed
    nodes = sorted([*timed.every, *timed.arithmetic], key=lambda n: (n.lineno, n.col_offset))
    first = [
        node
        for node in nodes
        if id(node) not in timed.deferred
        and not _warmed_here(facts, node)
        and _first_operation(facts, node, region.start)
        and not (isinstance(node, ast.Call) and timed_again(facts, source.regions, region, node))
    ]
    if not first:
        return
    shown = list(dict.fromkeys(repr(_operation(facts, node)) for node in first))
    named = ", ".join(shown[:3]) + (f" and {len(shown) - 3} more" if len(shown) > 3 else "")
    plural = len(shown) > 1
    yield finding(
        CODE,
        first[0],
        f"{named}, {'operations' if plural else 'an operation'} outside jit, "
        f"{'are' if plural else 'is'} first called inside the timed region: "
        f"{'each compiles' if plural else 'it compiles'} on its first call, and that is timed; "
        f"call {'them' if plural else 'it'} once (blocked) before the timer starts",
    )


def _caches_cleared(facts: Module, region: Region, cleared: list[int]) -> bool:
    """``jax.clear_caches()`` (run at the lines ``cleared``) in the region, or just before its
    timer starts (in the same round of a loop, or a few lines above in the same function): the
    region times compiling, on purpose."""
    end = getattr(region.end, "end_lineno", None) or region.start
    loops = [n for n in facts.of(ast.For, ast.While) if spans_line(n, region.start)]
    for line in cleared:
        if line > end:
            continue
        if line >= region.start or any(spans_line(loop, line) for loop in loops):
            return True
        if region.start - line <= CLEARED and facts.scope_of(line) == facts.scope_of(region.start):
            return True
    return False


def _recompiled(facts: Module, region: Region) -> Iterator[Finding]:
    """The calls of a function that jits a function it makes anew on each call, called once
    before the region as a warm-up: every call compiles, the warmed-up one too (voiage's
    structural_evpi_jit). Without a warm-up, recompiling is what the code as written costs."""
    if meant(facts, region.start, region.end, WARM_UP, readout=WARM_UP):
        return
    said: set[str] = set()
    for call in region.timed.every:
        name = callee_key(call.func)
        warmed = facts.called.get(name, [region.start])[0] < region.start  # a warm-up tried
        if _a_parameter(facts, call, name):
            continue  # def timeit_benchmark(args, benchmark_fn): what it was handed, not ours
        if name in facts.recompiling and warmed and name not in said:
            said.add(name)
            yield finding(
                CODE,
                call,
                f"{name!r} compiles a function it makes anew on each call (jitted, or run by a "
                "lax loop), so every call of it compiles, this one in the timed region too: "
                f"make that function once, outside {name!r} (a warm-up call does not help)",
            )


def _a_parameter(facts: Module, call: ast.Call, name: str) -> bool:
    """``name`` is a parameter of the function the call is made in."""
    inner = facts.innermost(call.lineno)
    return inner is not None and name in param_names(inner)


def _warmed_on_a_slice(facts: Module, region: Region) -> Iterator[Finding]:
    """A jitted function warmed up on a slice of an array and timed on the whole of it."""
    for call, name, array in warmed_on_a_slice(facts, region)[:1]:  # one region, one finding
        yield finding(
            CODE,
            call,
            f"{name!r} was warmed up on a slice of {array!r} and is timed on the whole of it: "
            "the new shape compiles inside the timed region; warm it up with the shapes it is "
            "timed with",
        )


def _jitted_afresh(facts: Module, line: int) -> set[str]:
    """What the innermost function around ``line`` jits anew on each call."""
    definition = facts.innermost(line)
    return set() if definition is None else jitted_afresh(facts, definition)


def _timings(facts: Module, end: ast.AST) -> set[str]:
    """The names the region's reading of its timer goes into: ``dt = time() - t0``,
    ``times.append(time() - t0)``, ``t = timeit.repeat(...)``."""
    if isinstance(end, ast.Call):  # timeit: the statement that binds its result
        holders = [n for n in facts.assigned if any(m is end for m in ast.walk(n.value))]
        return {name for n in holders for t in n.targets for name in bound_names(t)}
    names: set[str] = set()
    for node in ast.walk(end):
        if isinstance(node, ast.Assign):
            names |= {name for t in node.targets for name in bound_names(t)}
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            names |= set(bound_names(node.target))
        elif isinstance(node, ast.Call) and callee_name(node.func) in APPENDING:
            if isinstance(node.func, ast.Attribute):
                names |= set(bound_names(node.func.value))
    return names


def _operation(facts: Module, node: ast.AST) -> str:
    """How ``node`` is shown when it is an operation run outside jit that compiles on its first
    call: one of jax's own namespace but a transfer (``jnp.dot(a, b)``), arithmetic on JAX
    arrays (``a + b``), a transformation called (``jax.grad(f)(x)``, ``g(x)`` where
    ``g = jax.vmap(f)``), or a library's model run (``model(**inputs)``, ``net.apply(v, x)``);
    else ""."""
    if isinstance(node, ast.BinOp):
        return ast.unparse(node) if facts.computes(node) else ""
    if not isinstance(node, ast.Call):
        return ""
    func = node.func
    if isinstance(func, ast.Call):  # grad(f)(x) is traced and run, operation by operation
        wrapper = facts.wrapper(func.func)
        made = wrapper in TRACING and wrapper not in JITTING and func.args
        return f"{callee_key(func.func)}({callee_key(func.args[0])})" if made else ""
    name = callee_name(func)
    if isinstance(func, ast.Name) and func.id in facts.transformed:
        return func.id  # g = jax.grad(f), then g(x)
    if callee_key(func) in facts.models:
        return callee_key(func)  # model(**inputs): a library's model run op by op, not jitted
    ours = isinstance(func, ast.Attribute) and facts.from_jax(func)
    if not (ours or (isinstance(func, ast.Name) and func.id in facts.jax_names)):
        return ""
    moving = name in MOVING or name in TRACING or name in MAPPING  # tree_map: what it maps
    work = facts.jax_call(node) or name == "PRNGKey"  # the one function of jax's capitalised
    return callee_key(func) if not moving and work else ""


def _operations_only(facts: Module, region: Region) -> bool:
    """Whether operations outside jit are all the region times: what it measures, not the
    bookkeeping around a step, nor beside a call whose work the review cannot name."""
    timed = region.timed
    made = {id(call.func) for call in timed.every}  # grad(f) in grad(f)(x): the operation's
    return bool(timed.calls or timed.arithmetic) and all(
        id(call) in made
        or id(call) in timed.deferred
        or _operation(facts, call)
        or _aside(facts, call)
        for call in timed.every
    )


def _aside(facts: Module, call: ast.Call) -> bool:
    """A call that does no work of its own in a region: a wait, a clock, a builtin, NumPy's,
    a string's method, an append."""
    func = call.func
    if facts.is_wait(call) or is_timer(call):
        return True
    if isinstance(func, ast.Name):
        return func.id in BUILTINS and func.id not in facts.functions
    if isinstance(func, ast.Attribute):
        if isinstance(func.value, ast.Constant) or callee_name(func) in APPENDING:
            return True
        return (dotted_parts(func) or [""])[0] in facts.numpy_modules
    return False


def _first_operation(facts: Module, node: ast.AST, start: int) -> bool:
    """``node`` is an operation outside jit that the module does not call before ``start``:
    neither the same function nor, for arithmetic, the same operator."""
    if not _operation(facts, node):
        return False
    if isinstance(node, ast.BinOp):
        return not any(
            type(other.op) is type(node.op) and other.lineno < start and facts.computes(other)
            for other in facts.of(ast.BinOp)
        )
    assert isinstance(node, ast.Call)
    if isinstance(node.func, ast.Call):
        made = ast.dump(node.func)
        return not any(
            other.lineno < start and ast.dump(other.func) == made
            for other in facts.of(ast.Call)
            if isinstance(other.func, ast.Call)
        )
    key = callee_key(node.func)
    return key in facts.called and facts.called[key][0] >= start


def _compiles(facts: Module, call: ast.Call, start: int, first: bool = True) -> str:
    """What ``call`` compiles, shown: a jitted function, a lax loop over one, or a function of
    the module, a method of an instance or a class's constructor that calls one (the only
    caller, when it is the ``first`` call of it that is asked for); "" for none."""

    def first_call(name: str) -> bool:
        return name in facts.called and (not first or facts.called[name][0] >= start)

    name = callee_key(call.func)
    if name in facts.identities:
        return ""  # jit(lambda x: x, out_shardings=...) moves arrays: a copy, not a step
    if name in facts.jitted and first_call(name):
        return repr(name)
    if name in facts.static and (changed := static_changed(facts, call, start)):
        return f"{name!r} (a new value of a static argument, {changed})"
    if not first and name.removeprefix("self.") in facts.jitted:  # self.forward_pass(ids)
        return repr(name)  # (a method's first call: left to the calls of the class's users)
    if callee_name(call.func) in LOOPS:
        looped = [callee_key(a) for a in call.args if callee_key(a) in facts.jitted]
        return next((repr(n) for n in looped if first_call(n)), "")
    function = name.removeprefix("self.")
    owner, _, method = name.rpartition(".")
    if not first_call(name):
        return ""
    if owner in facts.instances:  # env.step(action): a method of the instance's class
        home, cls = facts.instances[owner]
        definitions = home.method_definitions(cls, method)
    elif made := facts.class_named(name):  # Tracing(field): its constructor runs
        home, definitions = made[0], made[0].method_definitions(made[1], "__init__")
    elif "." in function:
        return ""
    else:
        home, definitions = facts, facts.functions.get(function, [])
    for definition in definitions:
        keys = {callee_key(n.func) for n in ast.walk(definition) if isinstance(n, ast.Call)}
        inner = keys | {key.removeprefix("self.") for key in keys}  # self.step = jax.jit(f)
        for jitted in sorted(inner & home.jitted):
            lines = home.called.get(jitted, []) + home.called.get(f"self.{jitted}", [])
            if not first or all(spans_line(definition, line) for line in lines):
                return f"{jitted!r} (through {name!r})"
    return ""


def watched(seen: Seen) -> str:
    found = seen.found
    seconds = sum(f["compile_s"] for f in found)
    share = max((f["compile_s"] / f["interval_s"] for f in found if f["interval_s"] > 0), default=1)
    return (
        f"a compilation ran inside the interval timed from {seen.since} to here, {seen.times}: "
        f"{seconds:.3g} s, {share:.0%} of the interval; make one blocked call before the timer "
        "starts"
    )
