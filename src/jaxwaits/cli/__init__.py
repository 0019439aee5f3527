"""The command line: ``python -m jaxwaits <command>``. It parses, calls the rooms and prints; the
work is theirs. Exit codes: 0 all is well, 1 a check failed, 2 bad input (the message names it)."""

# The parser names, for each command, the module here that handles it; that module, and the
# rooms it calls, are imported only when its command runs (review and watch load no room).

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys

# not "from jaxwaits.cli import arguments": on that, astroid (autodoc2 reads the API with it) loops
import jaxwaits.cli.arguments as arguments
from harnesscheck.errors import ReviewError
from jaxwaits.errors import JaxwaitsError
from jaxwaits.project import find_project


def parser() -> argparse.ArgumentParser:
    """Every command and its arguments; building it imports no room."""
    return arguments.parser(description=__doc__)


def run() -> None:
    """The console script and ``python -m jaxwaits``: :func:`main`, then exit with its code.
    ``review`` runs with the garbage collector off and exits once its output is flushed,
    without tearing down the model it made of the program: collecting and freeing a large
    review's syntax trees took a sixth of its time (0.3 s of 2.0 on jax's own package), and
    nothing of them is left to write or to clean up."""
    reviewing = sys.argv[1:2] == ["review"]
    if reviewing:
        gc.disable()
    code = main()
    if reviewing:
        sys.stdout.flush()  # main flushed it, or pointed it at devnull for a reader gone
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


def main(argv: list[str] | None = None) -> int:
    """Run one command: 0 success, 1 a check failed, 2 bad input (the message names it); 141
    when whatever read the output stopped reading."""
    argv = sys.argv[1:] if argv is None else argv
    program: list[str] = []
    if argv[:1] == ["watch"]:  # what names the program is the program's: argparse never sees it
        argv, program = arguments.watched_program(argv)
    dashed = arguments.dashed_path(argv) if argv[:1] == ["review"] else None
    if dashed is not None:
        print(
            f"jaxwaits: review: {dashed!r} is not an option of review; put -- before paths "
            f"that start with -: jaxwaits review [options] -- {dashed!r}",
            file=sys.stderr,
        )
        return 2
    args = parser().parse_args(argv)
    if program:
        args.program = program
    handler = importlib.import_module(f"{__name__}.{args.handled_in}").HANDLERS[args.command]
    try:
        if not args.needs_project:
            code = handler(args)
        else:
            from jaxwaits.evidence.processes import children_die_with_us  # a room: loaded here

            with children_die_with_us():
                code = handler(find_project(), args)
        sys.stdout.flush()  # here, where a reader that went away (`| head`) can be caught
        return code
    except (JaxwaitsError, ReviewError) as error:
        print(f"jaxwaits: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader stopped reading: the rest is not wanted, and no flush at exit may fail
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a shell reports a program that SIGPIPE stopped
