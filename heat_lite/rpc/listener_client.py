"""EngineListenerClient: calls to one engine's (or worker's) listener, topic
``heat-engine-listener``, server = that process's engine_id.

Version history: 1.0 listening.

    EngineListenerClient(engine_id).is_alive(ctx)   # False if it does not answer in time
"""

import oslo_messaging

from heat_lite.common import messaging
from heat_lite.conf import CONF
from heat_lite.rpc import api as rpc_api


class EngineListenerClient:
    BASE_RPC_API_VERSION = "1.0"

    def __init__(self, engine_id):
        self._client = messaging.get_rpc_client(
            topic=rpc_api.LISTENER_TOPIC, server=engine_id, version=self.BASE_RPC_API_VERSION
        )

    def is_alive(self, ctxt):
        """Whether the engine answers ``listening`` within engine_life_check_timeout."""
        try:
            client = self._client.prepare(timeout=CONF.engine_life_check_timeout)
            return client.call(ctxt, "listening")
        except oslo_messaging.MessagingTimeout:
            return False
