"""heat-lite's console scripts.

Importing this package (which every ``heat_lite.cmd.<script>`` module does before its own
first line runs) silences eventlet's deprecation banner: the services use eventlet on
purpose, as Heat does, and eight lines of warning on every start, ``--help`` included,
tell an operator nothing.
"""

import warnings

warnings.filterwarnings("ignore", message=r"(?s).*Eventlet is deprecated")
