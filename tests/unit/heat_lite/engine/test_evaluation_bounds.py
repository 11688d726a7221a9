"""The bounds of function evaluation: max_resolved_value_size and [yaql] time_limit."""

import threading
import time
import tracemalloc

import pytest

from heat_lite.common import cpu_budget, exception
from heat_lite.conf import CONF
from heat_lite.engine import function
from tests.unit.heat_lite.engine.test_functions import resolve

pytestmark = pytest.mark.unit


@pytest.fixture
def limit():
    CONF.set_override("max_resolved_value_size", 1000)
    yield 1000
    CONF.clear_override("max_resolved_value_size")


def test_value_size():
    assert function.value_size("abc") == 3
    assert function.value_size(["ab", {"k": "vv"}, 7, None]) == 1 + 2 + (1 + 1 + 2) + 1 + 1
    assert function.value_size(["x" * 100] * 100, stop_above=500) <= 601


def test_str_replace_is_refused_before_it_is_built(limit):
    snippet = {"str_replace": {"template": "x" * 100, "params": {"x": "y" * 10**7}}}
    tracemalloc.start()
    try:
        with pytest.raises(exception.RequestLimitExceeded) as err:
            resolve(snippet)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10**8  # the 1 GB string was never built
    assert str(err.value) == (
        "Request limit exceeded: The value of str_replace (1000000000 bytes or more) "
        "exceeds the maximum allowed size (1000 bytes)."
    )


def test_repeat_is_refused_before_it_is_built(limit):
    lists = {"<%%%s%%>" % k: [str(i) for i in range(200)] for k in "abc"}
    snippet = {"repeat": {"template": "<%a%><%b%><%c%>", "for_each": lists}}
    with pytest.raises(exception.RequestLimitExceeded, match="The value of repeat"):
        resolve(snippet)


def test_list_join_is_refused_before_it_is_built(limit):
    snippet = {"list_join": ["d" * 100, ["a"] * 100]}
    with pytest.raises(exception.RequestLimitExceeded, match="The value of list_join"):
        resolve(snippet)


def test_any_other_function_result_is_checked(limit):
    snippet = {"list_concat": [["a" * 600], ["b" * 600]]}
    with pytest.raises(exception.RequestLimitExceeded, match="The value of list_concat"):
        resolve(snippet)


def test_within_the_limit(limit):
    snippet = {"str_replace": {"template": "x" * 10, "params": {"x": "yy"}}}
    assert resolve(snippet) == "y" * 20


def test_unlimited():
    CONF.set_override("max_resolved_value_size", -1)
    try:
        assert len(resolve({"list_join": ["", ["x" * 2000]]})) == 2000
    finally:
        CONF.clear_override("max_resolved_value_size")


def test_yaql_time_limit():
    CONF.set_override("time_limit", 0.2, group="yaql")
    try:
        expression = "range(200).select(range(200).select(range(200).select($).sum()).sum()).sum()"
        start = time.monotonic()
        with pytest.raises(exception.RequestLimitExceeded) as err:
            resolve({"yaql": {"expression": expression}})
        print("yaql stopped after %.2f s" % (time.monotonic() - start))
    finally:
        CONF.clear_override("time_limit", group="yaql")
    assert str(err.value) == (
        "Request limit exceeded: The yaql expression took more than 0.2 seconds of CPU time "
        "to evaluate."
    )


def test_cpu_budget_passes_results_and_errors():
    assert cpu_budget.call(sum, [1, 2], seconds=1, what="x") == 3
    with pytest.raises(ZeroDivisionError):
        cpu_budget.call(lambda: 1 / 0, seconds=1, what="x")


def test_cpu_budget_is_not_swallowed_by_except_exception():
    def stubborn():
        while True:
            try:
                while True:
                    (lambda: None)()
            except Exception:
                continue

    with pytest.raises(exception.RequestLimitExceeded, match="^Request limit exceeded: loop took"):
        cpu_budget.call(stubborn, seconds=0.1, what="loop")


def test_cpu_budget_restores_the_previous_trace_function():
    seen = []

    def outer_trace(frame, event, arg):
        seen.append(event)

    def run():
        import sys

        sys.settrace(outer_trace)
        try:
            cpu_budget.call(sum, [1], seconds=1, what="x")
            assert sys.gettrace() is outer_trace
        finally:
            sys.settrace(None)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()


def _spin(seconds):
    """Python calls for ``seconds`` of wall time (a bound on a test that would hang)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        (lambda: None)()
    return "not stopped"


class _SwallowsInDel:
    def __del__(self):
        _spin(1.0)


def _stop_swallowed_by_except_base_exception():
    try:
        _spin(1.0)
    except BaseException:
        pass
    return _spin(5.0)


def _stop_swallowed_by_a_finalizer():
    _SwallowsInDel()  # dropped at once: its __del__ runs here and swallows any exception
    return _spin(5.0)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize(
    "func", [_stop_swallowed_by_except_base_exception, _stop_swallowed_by_a_finalizer]
)
def test_cpu_budget_stops_again_after_a_stop_is_swallowed(func):
    """The interpreter removes a trace function that raises: the bound must outlive a stop
    that the evaluated code (or the garbage collector, in a __del__) swallows."""
    with pytest.raises(exception.RequestLimitExceeded):
        cpu_budget.call(func, seconds=0.1, what="loop")


def test_cpu_budget_leaves_no_profile_function():
    import sys

    with pytest.raises(exception.RequestLimitExceeded):
        cpu_budget.call(_spin, 5.0, seconds=0.1, what="loop")
    assert sys.gettrace() is None and sys.getprofile() is None
