"""How often a benchmark asks the API whether it is done yet.

Every POLL_S at first, then every POLL_SHARE of the time waited so far, at most POLL_MAX_S:
a wait is overstated by at most that share (2 %), and the bench's own requests stay a
small part of the services' CPU on long runs. Polling every 20 ms throughout took a third
of heat-lite's CPU and about 5 of 21 s of a 1000-layer create (API and engine on the same
2 cores as the workers and PostgreSQL), which no real client does (Magnum polls every
10 s); magnum-lite-api listing 10 clusters every 50 ms took 11 % of all the CPU of a
10-cluster create.

    start = time.monotonic()
    while not done():
        time.sleep(polling.pause(time.monotonic() - start))
"""

import os

POLL_S = float(os.environ.get("BENCH_POLL_S", "0.02"))
POLL_SHARE = 0.02
POLL_MAX_S = 0.25


def pause(waited):
    """Seconds to sleep before the next poll, ``waited`` seconds into the wait."""
    return min(max(POLL_S, POLL_SHARE * waited), POLL_MAX_S)
