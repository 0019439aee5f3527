  @profiler.annotate_function
  def copy_to_host_async(self):
    self._check_if_deleted()
    if self._npy_value is None:
      if jaxlib_extension_version >= 495 and ifrt_version >= 71:
        _jax.batched_copy_to_host_async([self])
      else:
        if self.is_fully_replicated and self.sharding.has_addressable_devices:
          self._copy_single_device_array_to_host_async()
          return
        for i, _ in _cached_index_calc(self.sharding, self.shape):
          self._arrays[i]._copy_single_device_array_to_host_async()
