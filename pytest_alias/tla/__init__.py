"""The TLA+ toolchain: Java and tla2tools.jar, SANY, TLC, cfg files, syntax, values, state graphs, the run cache."""
