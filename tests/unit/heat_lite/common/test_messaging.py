"""messaging.to_primitive gives what oslo's jsonutils.to_primitive gives (it only walks
plain JSON itself, bench/api_load.py)."""

import collections
import datetime
import uuid

from oslo_serialization import jsonutils

from heat_lite.common import identifier, messaging

IDENT = identifier.HeatIdentifier("p1", "s1", "7cd9", "/resources/r")

VALUES = [
    None,
    "text",
    3,
    2.5,
    True,
    [1, "a", None, [2, {"k": "v"}]],
    ("a", ("b", 1)),
    {"a": {"b": [1, {"c": None}]}, "d": ()},
    {1: "int key", None: "none key"},
    {"when": datetime.datetime(2026, 11, 26, 13, 0, 1), "id": uuid.UUID(int=5)},
    collections.OrderedDict([("z", 1), ("a", [datetime.date(2026, 1, 2)])]),
    {"identity": IDENT, "ids": [IDENT, dict(IDENT)]},
    [
        {"resource_name": "r%d" % i, "required_by": ["r%d" % (i + 1)], "links": []}
        for i in range(50)
    ],
    b"bytes",
]


def test_same_as_oslo_to_primitive():
    for value in VALUES:
        expected = jsonutils.to_primitive(value, convert_instances=True)
        assert messaging.to_primitive(value) == expected
        assert jsonutils.dumps(messaging.to_primitive(value)) == jsonutils.dumps(expected)


def test_serializer_uses_it():
    serializer = messaging.RequestContextSerializer()
    value = {"identity": IDENT, "at": datetime.datetime(2026, 1, 1)}
    assert serializer.serialize_entity(None, value) == {
        "identity": dict(IDENT),
        "at": "2026-01-01T00:00:00.000000",
    }


def test_rpc_handlers_default_to_heats_64():
    """oslo.messaging's and Heat's executor_thread_pool_size: a waiting nested-stack
    parent holds a handler, so 16 starved the children of 10 clusters."""
    from oslo_config import cfg

    messaging.set_defaults()
    cfg.CONF([], project="heat", default_config_files=[])
    try:
        assert cfg.CONF.executor_thread_pool_size == 64
    finally:
        cfg.CONF.reset()


def test_plain_json_is_sent_as_it_is():
    value = messaging.PlainJson([{"resource_name": "r0", "required_by": ["r1"]}])
    serializer = messaging.RequestContextSerializer()
    assert serializer.serialize_entity(None, value) is value
    assert jsonutils.dumps(value) == jsonutils.dumps(messaging.to_primitive(list(value)))
