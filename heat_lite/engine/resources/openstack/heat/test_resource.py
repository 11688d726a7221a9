"""OS::Heat::TestResource: stores a value, optionally waits, fails or needs replacement.

Knobs as in Heat: ``value``, ``fail``, ``wait_secs``, ``action_wait_secs`` (per action),
``update_replace``; attribute ``output`` is the stored value.
"""

import time

from heat_lite.engine import attributes, constraints, properties, resource

P = properties.Schema


class TestResource(resource.Resource):
    resource_id_names_an_object = False  # made in the engine: nothing to leak
    properties_schema = {
        "value": P(
            P.STRING, "The input string to be stored.", default="test_string", update_allowed=True
        ),
        "update_replace_value": P(
            P.STRING, "Some value that can be stored but can not be updated.", update_allowed=False
        ),
        "fail": P(
            P.BOOLEAN,
            "Value which can be set to fail the resource operation to test failure scenarios.",
            default=False,
            update_allowed=True,
        ),
        "update_replace": P(
            P.BOOLEAN,
            "Value which can be set to trigger update replace for the particular resource.",
            default=False,
            update_allowed=True,
        ),
        "client_name": P(P.STRING, "Client to use", default=""),
        "entity_name": P(P.STRING, "Client entity to poll", default=""),
        "wait_secs": P(
            P.NUMBER,
            "Seconds to wait after an action (-1 is infinite).",
            default=0,
            update_allowed=True,
        ),
        "action_wait_secs": P(
            P.MAP,
            "Options for simulating waiting.",
            update_allowed=True,
            schema={
                "create": P(
                    P.NUMBER,
                    "Seconds to wait after a create. Defaults to the global wait_secs.",
                    update_allowed=True,
                ),
                "update": P(
                    P.NUMBER,
                    "Seconds to wait after an update. Defaults to the global wait_secs.",
                    update_allowed=True,
                ),
                "delete": P(
                    P.NUMBER,
                    "Seconds to wait after a delete. Defaults to the global wait_secs.",
                    update_allowed=True,
                ),
            },
        ),
        "attr_wait_secs": P(
            P.NUMBER,
            "Number value for timeout during resolving output value.",
            default=0,
            update_allowed=True,
        ),
        "constraint_prop_secs": P(
            P.NUMBER,
            "Number value for delay during resolve constraint.",
            default=0,
            update_allowed=True,
            constraints=[constraints.Range(min=0)],
        ),
    }
    attributes_schema = {
        "output": attributes.Schema(
            "The string that was stored. This value is also available by referencing the resource.",
            type=attributes.Schema.STRING,
        ),
    }

    def _wait_secs(self, action):
        per_action = (self.properties["action_wait_secs"] or {}).get(action)
        return per_action if per_action is not None else self.properties["wait_secs"]

    def handle_create(self):
        if not self.properties["fail"]:
            # as Heat's: a resource meant to fail never gets a physical id
            self.data_set("value", self.properties["value"])
            self.resource_id_set(self.physical_resource_name())
        return time.monotonic(), self._wait_secs("create")

    def check_create_complete(self, cookie):
        return self._check_done(cookie)

    def needs_replace_with_prop_diff(self, prop_diff, after):
        """As Heat's: a new value is a replacement while ``update_replace`` is true."""
        return "value" in prop_diff and bool(after.get("update_replace"))

    def handle_update(self, new_defn, prop_diff):
        if "value" in prop_diff:
            self.data_set("value", prop_diff["value"])
        return time.monotonic(), self._wait_secs("update")

    def check_update_complete(self, cookie):
        return self._check_done(cookie)

    def handle_check(self):
        """The resource is checkable: CHECK_IN_PROGRESS -> CHECK_COMPLETE."""
        return None

    def handle_delete(self):
        return time.monotonic(), self._wait_secs("delete")

    def check_delete_complete(self, cookie):
        started, secs = cookie
        return secs is None or secs < 0 or time.monotonic() - started >= secs

    def _check_done(self, cookie):
        started, secs = cookie
        if secs is not None and (secs < 0 or time.monotonic() - started < secs):
            return False
        if self.properties["fail"]:
            raise ValueError("Test Resource failed %s" % self.name)
        return True

    def get_attribute(self, key, *path):
        if key == "output":
            return self.data().get("value", self.properties["value"])
        return None


def resource_mapping():
    return {"OS::Heat::TestResource": TestResource}
