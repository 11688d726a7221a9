"""worker_client.cast_all: every prepared cast is sent even when one fails (the first
failure is raised afterwards), whether they go out in this thread or over several."""

import pytest

from heat_lite.rpc import worker_client

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("count", [2, 20])
def test_a_failing_cast_does_not_stop_the_others(count):
    sent = []

    def cast(i):
        def send():
            if i == 0:
                raise RuntimeError("broker gone")
            sent.append(i)

        return send

    with pytest.raises(RuntimeError, match="broker gone"):
        worker_client.cast_all([cast(i) for i in range(count)])
    assert sorted(sent) == list(range(1, count))
