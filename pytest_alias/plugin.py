"""pytest plugin entry point (``pytest11``). The benchmark items arrive in a later issue."""
