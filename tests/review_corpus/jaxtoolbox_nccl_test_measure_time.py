# source: NVIDIA/JAX-Toolbox
# path: .github/container/nsys_jax/nsys_jax/scripts/jax_nccl_test.py
# commit: bcbbfa578be90bf5c1dfef2c67cf074589391eee
# licence: Apache-2.0
# url: https://github.com/NVIDIA/JAX-Toolbox/blob/bcbbfa578be90bf5c1dfef2c67cf074589391eee/.github/container/nsys_jax/nsys_jax/scripts/jax_nccl_test.py#L462-L606
# note: warmup_time deliberately includes compilation and is blocked; in the real run each measure_all call takes the previous (donated) input, so blocking the last input waits for every iteration
# expect: clean
    @partial(jax.jit, donate_argnames="buffer")
    @sharding
    def measure_all(sync, buffer):
        # ...
        return buffer
    # ...
    # Warmup, create events
    warmup_start = time.time()
    input = measure_all(sync, input)
    print_table = jax.process_index() == 0
    if print_table:
        live_table = BandwidthTable(
            collectives=args.collectives,
            max_element_count=2**args.max_size_power,
            num_participants=n_devices_per_rep,
        )
        print(
            "WARNING: there is no warmup run before the collection of these results. "
            "They are printed to help distinguish between 'slow progress' and 'hung'. "
            "Higher quality measurements will be printed next."
        )
        live_table.print_header()
    collective_sizes, _ = stream_event_timer_data(
        events,
        lambda element_count, collective_times: (
            live_table.print_row(
                element_count=element_count, collective_times=collective_times
            )
            if print_table
            else None
        ),
    )
    if print_table:
        live_table.print_footer()
    input.block_until_ready()
    warmup_time = time.time() - warmup_start
    if jax.process_index() == 0:
        print(f"Warmup time: {warmup_time:.2f}s")

    # Real run
    cuProfilerStart()
    measure_time = time.time()
    timing_result_stack = []
    for _ in range(args.num_iterations - 1):
        input = measure_all(sync, input)
        # No callback, no live printing.
        check_collective_sizes, collective_timings = stream_event_timer_data(events)
        assert check_collective_sizes == collective_sizes
        timing_result_stack.append(collective_timings)
    input.block_until_ready()
    measure_time = time.time() - measure_time
    if jax.process_index() == 0:
        print(f"Measurement time: {measure_time:.2f}s")
    cuProfilerStop()
