"""The RPC clients against the endpoints they reach: every message a client sends names a
method the endpoint has, with keyword arguments its signature accepts, at a version the
endpoint serves (as Heat's test_rpc_client and test_rpc_worker_client check the wire).

The clients are driven with a recording stand-in for oslo.messaging's client, so the test
sees exactly the (method, kwargs, version, call or cast) that would go on the wire.
"""

import inspect

import pytest

from heat_lite.engine import service, worker
from heat_lite.rpc import api as rpc_api
from heat_lite.rpc import client, worker_client

pytestmark = pytest.mark.unit


class Recorder:
    """oslo.messaging's RPCClient as far as the clients use it: prepare(), call(), cast()."""

    def __init__(self):
        self.sent = []
        self.options = {}

    def prepare(self, **options):
        prepared = Recorder()
        prepared.sent = self.sent
        prepared.options = options
        return prepared

    def call(self, ctxt, method, **kwargs):
        self.sent.append(("call", method, kwargs, self.options))

    def cast(self, ctxt, method, **kwargs):
        self.sent.append(("cast", method, kwargs, self.options))


def _unwrapped(func):
    for cell in getattr(func, "__closure__", None) or ():
        if inspect.isfunction(cell.cell_contents):
            return _unwrapped(cell.cell_contents)
    return func


def _public_methods(cls):
    return sorted(
        name
        for name, member in inspect.getmembers(cls, inspect.isfunction)
        if not name.startswith("_")
    )


def _sent_by(client_cls, name, monkeypatch):
    """Call ``name`` with a placeholder for each required argument; what was sent."""
    monkeypatch.setattr(client.messaging, "topic_has_no_consumer", lambda topic: False)
    instance = client_cls.__new__(client_cls)
    instance._client = recorder = Recorder()
    method = getattr(instance, name)
    required = [
        p
        for p in list(inspect.signature(method).parameters.values())[1:]
        if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD
    ]
    method("ctxt", *["arg-%s" % p.name for p in required])
    assert recorder.sent, "%s.%s sent nothing" % (client_cls.__name__, name)
    return recorder.sent


def _version(text):
    return tuple(int(x) for x in text.split("."))


def _check_against(method_of, sent, server_version):
    """``method_of(name)``: the endpoint function the server dispatches ``name`` to."""
    for _kind, method, kwargs, options in sent:
        target = method_of(method)
        assert target is not None, "the server has no RPC method %s" % method
        inspect.signature(_unwrapped(target)).bind("self", "ctxt", **kwargs)
        version = options.get("version")
        assert version is not None and _version(version) <= _version(server_version)


@pytest.mark.parametrize("name", _public_methods(client.EngineClient))
def test_engine_client_messages_fit_the_engine(name, monkeypatch):
    sent = _sent_by(client.EngineClient, name, monkeypatch)
    assert {kind for kind, *_ in sent} <= {"call", "cast"}
    _check_against(service.endpoint_method, sent, rpc_api.ENGINE_RPC_VERSION)


@pytest.mark.parametrize("name", _public_methods(worker_client.WorkerClient))
def test_worker_client_messages_fit_the_worker(name, monkeypatch):
    sent = _sent_by(worker_client.WorkerClient, name, monkeypatch)
    assert {kind for kind, *_ in sent} == {"cast"}  # work is fire-and-forget
    _check_against(
        lambda name: getattr(worker.WorkerService, name, None), sent, rpc_api.WORKER_RPC_VERSION
    )


def test_create_stack_is_a_call_with_heats_arguments(monkeypatch):
    sent = _sent_by(client.EngineClient, "create_stack", monkeypatch)
    assert [(kind, method) for kind, method, *_ in sent] == [("call", "create_stack")]
    assert set(sent[0][2]) >= {"stack_name", "template", "params", "files", "args"}
