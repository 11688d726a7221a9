"""cinder resource plugins."""
