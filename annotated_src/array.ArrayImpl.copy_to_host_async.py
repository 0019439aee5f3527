  #| Unlike `block_until_ready`, this method carries no `use_cpp_method()`: its Python body is
  #| copied onto jaxlib's `ArrayImpl` and is the code that runs. The decorator only names the
  #| call in profiler traces.
  @profiler.annotate_function
  #| It starts a device-to-host copy and returns. Reading the values on the host
  #| (`np.asarray(x)`) is a separate call, and that one waits for the transfer.
  #| {claim}`copy-to-host-async-starts-only` {claim}`three-waits`
  def copy_to_host_async(self):
    #| The same deletion check as the blocking method, first. {claim}`checks-deleted-first`
    self._check_if_deleted()
    #| `_npy_value` is the array's cached host copy: if the values are already on the host,
    #| nothing is started.
    if self._npy_value is None:
      #| Which path runs depends on the installed jaxlib, not on the array (jax 0.12.0.1 with
      #| its own jaxlib takes the first).
      if jaxlib_extension_version >= 495 and ifrt_version >= 71:
        #| The batched runtime call, given a list of one array. It returns without waiting for
        #| the copy. {claim}`copy-to-host-async-starts-only`
        _jax.batched_copy_to_host_async([self])
      #| Older jaxlib: the per-shard path this method had before jax
      #| {changed-in}`0.12.0 <array.ArrayImpl.copy_to_host_async>`.
      else:
        #| A fully replicated array with a shard on this process needs only one copy.
        if self.is_fully_replicated and self.sharding.has_addressable_devices:
          #| The copy of its first shard starts.
          self._copy_single_device_array_to_host_async()
          #| Nothing more is started.
          return
        #| Otherwise one copy per shard that the host value needs (replicas skipped).
        for i, _ in _cached_index_calc(self.sharding, self.shape):
          #| Each starts, and none is waited on.
          self._arrays[i]._copy_single_device_array_to_host_async()
