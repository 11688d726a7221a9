"""octavia resource plugins."""
