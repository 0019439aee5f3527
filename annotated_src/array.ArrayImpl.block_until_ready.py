  #| `use_cpp_method()` marks this method as one jaxlib implements natively. `ArrayImpl` is
  #| declared with `@use_cpp_class(xc.ArrayImpl)`, which copies every *unmarked* method onto
  #| jaxlib's native `ArrayImpl` class and leaves a marked one to the native class's own
  #| implementation. So `x.block_until_ready()` runs native code, and the body below is its
  #| reference semantics. {claim}`method-is-native`
  @use_cpp_method()
  #| A method of one array: it can only wait on what this array holds.
  def block_until_ready(self):
    #| The deletion check comes first: a deleted or donated array raises here, naming the
    #| deletion, instead of waiting. {claim}`checks-deleted-first`
    self._check_if_deleted()
    #| `self._arrays` is the array's list of per-device buffers: one for an array on a single
    #| device, one per addressable device for a sharded array. {claim}`one-buffer-per-device`
    for db in self._arrays:
      #| Each buffer is waited on in turn, so the call returns when the slowest is ready. That is
      #| the whole wait: no device queue is drained, no other array is waited on, and nothing
      #| moves to the host. {claim}`waits-on-own-buffers` {claim}`block-does-not-fetch`
      db.block_until_ready()
    #| The array itself comes back, so a harness can block and bind in one expression.
    #| {claim}`returns-self`
    return self
