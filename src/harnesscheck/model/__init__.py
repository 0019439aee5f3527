"""What the program's modules define and do, as the rules see it: the syntax helpers, the library
of what JAX's ecosystem does, each module's facts, and the project they are read from."""
