"""The API tests' FakeEngine answers the calls the real engine answers, with its signatures.

The fake stands in for the engine's endpoints behind the real RPC client, so a method whose
parameters drift from the real endpoint's would let the API tests pass against a call the
engine would refuse. This holds them together.
"""

import inspect

import pytest

from heat_lite.engine import service
from tests.functional.heat_lite.conftest import FakeEngine

pytestmark = pytest.mark.functional


def _unwrapped(method):
    """The function under oslo.messaging's expected_exceptions (which keeps no __wrapped__)."""
    for cell in method.__closure__ or ():
        if inspect.isfunction(cell.cell_contents):
            return _unwrapped(cell.cell_contents)
    return method


def _parameters(method):
    """(name, default) of every parameter after self and the context; ``**`` for a
    ``**kwargs`` catch-all."""
    params = list(inspect.signature(_unwrapped(method)).parameters.values())[2:]
    return [("**", None) if p.kind is p.VAR_KEYWORD else (p.name, p.default) for p in params]


def _endpoint_methods(cls):
    return {
        name: member
        for name, member in inspect.getmembers(cls, inspect.isfunction)
        if not name.startswith("_") and name not in ("reset", "start", "stop")
    }


@pytest.mark.parametrize("name", sorted(_endpoint_methods(FakeEngine)))
def test_fake_engine_method_has_the_real_signature(name):
    real = service.endpoint_method(name)
    assert real is not None, "the engine has no RPC method %s" % name
    fake, real = _parameters(getattr(FakeEngine, name)), _parameters(real)
    if real and real[-1][0] == "**":
        # the real endpoint takes the rest as keywords: the fake may name them, with defaults
        real = real[:-1]
        assert all(default is not inspect.Parameter.empty for _, default in fake[len(real) :])
        fake = fake[: len(real)]
    assert fake == real
