"""nova resource plugins."""
