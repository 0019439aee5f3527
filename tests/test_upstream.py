"""Locating a function in upstream source by its qualified name."""

import pytest

from jaxwaits.pieces import upstream

SOURCE = '''\
import x

class ArrayImpl:
  @use_cpp_method()
  def block_until_ready(self):
    return self

  if x:
    def conditional(self):
      pass

def effects_barrier():
  """Waits."""
  pass

class Twice:
  @property
  def v(self): return 1
  @v.setter
  def v(self, value): pass
'''


def locate(qualname):
    return upstream.locate(upstream.parse(SOURCE, "demo.py"), qualname)


def test_a_method_span_starts_at_its_decorator():
    span = locate("ArrayImpl.block_until_ready")
    assert (span.start, span.end) == (4, 6)
    expected = "  @use_cpp_method()\n  def block_until_ready(self):\n    return self\n"
    assert span.text(SOURCE) == expected


def test_definitions_inside_if_blocks_belong_to_the_scope():
    assert locate("ArrayImpl.conditional") == upstream.LineSpan(9, 10)


def test_a_missing_name_is_none():
    assert locate("ArrayImpl.copy_to_host_async") is None
    assert locate("Nothing.block_until_ready") is None


def test_two_definitions_of_one_name_are_ambiguous():
    with pytest.raises(ValueError, match="defined more than once"):
        locate("Twice.v")


def test_syntax_this_python_cannot_read_fails_clearly():
    with pytest.raises(upstream.UnreadableSource, match=r"demo.py:1: Python .* cannot parse"):
        upstream.parse("def broken(:\n", "demo.py")
