  #| What `jax.effects_barrier()` waits on. The set lives in `dispatch.runtime_tokens`, an
  #| instance of `RuntimeTokenSet`, which subclasses `threading.local`: each Python thread
  #| has its own tokens, and this method sees only those of the thread calling it.
  #| {claim}`barrier-waits-on-tokens`
  def block_until_ready(self):
    #| Errors are collected rather than raised at once, so that every token is waited on.
    exceptions = []
    #| Errors already collected, by type and arguments, so one failure reported by several
    #| tokens is raised once.
    seen = []
    #| Two kinds of token. `current_tokens`: for each *ordered* effect, the token of the last
    #| computation dispatched with it. `output_runtime_tokens`: for each device, the runtime
    #| token of the last computation dispatched there that had effects or host callbacks.
    #| A computation with neither records no token, so this loop does not wait for it; and a
    #| later one replaces an earlier one's token, so an earlier failure is not seen here.
    #| {claim}`barrier-waits-on-tokens` {claim}`barrier-for-callbacks`
    #| {claim}`barrier-reports-latest-failures`
    for eff, token in itertools.chain(self.current_tokens.items(),
                                      self.output_runtime_tokens.items()):
      #| A failed computation surfaces here, as its token's error.
      try:
        #| The wait itself, on a token, never on an output array.
        token.block_until_ready()
      #| Only runtime errors are collected; anything else propagates at once.
      except _jax.JaxRuntimeError as e:
        #| Errors are compared by type and arguments.
        key = (type(e), e.args)
        #| Only an error not seen before is kept.
        if not key in seen:
          #| Its key is recorded, for the comparisons that follow.
          seen.append(key)
          #| The error is queued, to be raised once every token has been waited on.
          exceptions.append(e)

    #| All tokens are dropped, waited on or failed: a second barrier right after this one
    #| finds nothing to wait on, and raises nothing. {claim}`errors-surface-at-the-wait`
    self.clear()

    #| The barrier is also where a failed effectful computation reports its error.
    if exceptions:
      #| A single distinct error is raised as it is.
      if len(exceptions) == 1:
        #| The `JaxRuntimeError` itself, not wrapped in a group: a computation that failed
        #| after its call returned reports it here. {claim}`errors-surface-at-the-wait`
        raise exceptions[0]
      #| Several are raised together, as an `ExceptionGroup`, which is not a `RuntimeError`
      #| ({claim}`barrier-reports-latest-failures`). This collecting entered in jax
      #| {changed-in}`0.12.0 <dispatch.RuntimeTokenSet.block_until_ready>`; before, the first
      #| failing token raised at once, the tokens after it were
      #| not waited on, and the set was not cleared.
      raise ExceptionGroup(
          'One or more previous effectful computations failed.',
          tuple(exceptions)
      )
