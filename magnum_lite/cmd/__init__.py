"""magnum-lite's console scripts.

Importing this package, which each script's module does first, prepares eventlet: its
deprecation banner off, its green DNS resolver off unless the environment says otherwise
(docs/limits-and-config.md, "eventlet's DNS resolver")."""

import os
import warnings

os.environ.setdefault("EVENTLET_NO_GREENDNS", "yes")
warnings.filterwarnings("ignore", message=r"(?s).*Eventlet is deprecated")
