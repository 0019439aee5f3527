# source: stanford-crfm/levanter
# path: src/levanter/inference/engine.py
# commit: 9263f81e8b453241332c2c0b2d2001bfb2d2241c
# licence: Apache-2.0
# url: https://github.com/stanford-crfm/levanter/blob/9263f81e8b453241332c2c0b2d2001bfb2d2241c/src/levanter/inference/engine.py#L538-L1133
# @hax.named_jit(donate_args=(True, False, False))
@functools.partial(jax.jit, static_argnums=(3, 4), donate_argnames=("gen_state",))
def _run_generation_loop(
    gen_state: GenState,
    model: LmHeadModel,
    sampler: Sampler,
    max_tokens_per_round: int,
    max_rounds: int,
) -> tuple[GenState, _DecodeOutputs]:
# ...
            submit_start = iter_start
            future_state, decode_outputs = _run_generation_loop(
                self.gen_state,
                self.model,
                self.sampler,
                # TODO: tune max_tokens_per_round
                self.config.max_tokens_per_round or self.config.max_seqs,
                self.config.max_rounds,
            )
            submit_done = time.time()
            # Time spent with device executing (and the host thread waiting)
            self.gen_state = future_state
            device_time = time.time() - submit_done  # expect: review-timing-without-blocking

            extract_start = time.time()
            new_tokens = self._ingest_outputs(decode_outputs)
            extract_time = time.time() - extract_start
