  def block_until_ready(self):
    exceptions = []
    seen = []
    for eff, token in itertools.chain(self.current_tokens.items(),
                                      self.output_runtime_tokens.items()):
      try:
        token.block_until_ready()
      except _jax.JaxRuntimeError as e:
        key = (type(e), e.args)
        if not key in seen:
          seen.append(key)
          exceptions.append(e)

    self.clear()

    if exceptions:
      if len(exceptions) == 1:
        raise exceptions[0]
      raise ExceptionGroup(
          'One or more previous effectful computations failed.',
          tuple(exceptions)
      )
