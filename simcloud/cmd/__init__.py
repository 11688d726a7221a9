"""The simulated cloud's console scripts.

Importing this package (which every ``simcloud.cmd.<script>`` module does before its own
first line runs) prepares eventlet for the services:

* its deprecation banner is silenced: the services use eventlet on purpose, and eight
  lines of warning on every start, ``--help`` included, tell an operator nothing;
* its green DNS resolver is off (``EVENTLET_NO_GREENDNS=yes`` unless the environment says
  otherwise, as Nova sets it): importing dnspython for it cost each process ~0.6 s of CPU
  of a ~2 s start, and the services only resolve the few hosts of their config (the
  database, the broker, the other services), which the system resolver answers at once.
"""

import os
import warnings

os.environ.setdefault("EVENTLET_NO_GREENDNS", "yes")
warnings.filterwarnings("ignore", message=r"(?s).*Eventlet is deprecated")
