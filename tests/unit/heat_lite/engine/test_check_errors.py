"""Which errors of a node's check are outages (the watchdog sends the node again) and
which fail the resource for good (check_resource.is_transient)."""

import amqp.exceptions
import kombu.exceptions
import oslo_messaging
import pytest
from sqlalchemy import exc as sa_exc

from heat_lite.common import exception
from heat_lite.engine import check_resource


def _dbapi(cls, message):
    return cls("SELECT 1", {}, Exception(message))


@pytest.mark.parametrize(
    "exc",
    [
        oslo_messaging.MessagingTimeout("no reply"),
        amqp.exceptions.NotAllowed("Connection.open: (530) NOT_ALLOWED - vhost x not found"),
        kombu.exceptions.OperationalError("connection refused"),
        ConnectionResetError("reset by peer"),
        _dbapi(sa_exc.OperationalError, "server closed the connection unexpectedly"),
        sa_exc.TimeoutError("QueuePool limit of size 5 overflow 0 reached"),
    ],
    ids=lambda exc: type(exc).__name__,
)
def test_outages_are_left_to_the_watchdog(exc):
    assert check_resource.is_transient(exc)


@pytest.mark.parametrize(
    "exc",
    [
        RuntimeError("a bug"),
        KeyError("missing"),
        exception.StackValidationFailed(message="Could not fetch remote template"),
        _dbapi(sa_exc.IntegrityError, "duplicate key value violates unique constraint"),
        _dbapi(sa_exc.ProgrammingError, "syntax error at or near"),
    ],
    ids=lambda exc: type(exc).__name__,
)
def test_other_errors_fail_the_resource(exc):
    assert not check_resource.is_transient(exc)
