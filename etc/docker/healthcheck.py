"""Container healthcheck: healthy when http://127.0.0.1:<port><path> answers below 500.

python healthcheck.py 8004 /
"""

import http.client
import sys

port, path = int(sys.argv[1]), sys.argv[2]
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
try:
    conn.request("GET", path)
    status = conn.getresponse().status
except OSError as exc:
    sys.exit("no answer: %s" % exc)
sys.exit(0 if status < 500 else "status %d" % status)
