"""symwalk's gdb helpers, one module per concern."""
