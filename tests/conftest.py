"""Suite-wide: every test carries its layer's marker, and no test passes while the services
it ran against logged an error it did not expect (tests/fixtures/logcheck.py)."""

import os
import pathlib
import sys

import pytest

from tests.fixtures import logcheck

TESTS = pathlib.Path(__file__).parent
LAYERS = ("unit", "functional", "integration")
# cmd modules that call eventlet.monkey_patch() on import
SCRIPTS = ("api", "engine", "worker", "all", "conductor")


def pytest_addoption(parser):
    parser.addoption(
        "--against-heat",
        metavar="URL",
        help="run the CLI suites against the Heat API at URL (e.g. the reference Heat 27, "
        "http://127.0.0.1:18004/v1) instead of heat-lite processes",
    )


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "expect_log_errors(*patterns): the services may log errors matching these regexes",
    )
    _without_the_users_clouds()


def _without_the_users_clouds():
    """The user's own OpenStack client settings stay out of the suite: openstacksdk and the
    ``openstack`` CLI read ~/.config/openstack/clouds.yaml (magnum-lite-all writes one) and
    the OS_* variables of a sourced openrc, and a lone cloud there overrides the auth_url or
    endpoint a test passes. Test processes and the commands they run get no OS_* variables
    but OS_CLIENT_CONFIG_FILE, an empty clouds.yaml read before the user's; a test that wants
    a clouds.yaml names its own (OS_CLIENT_CONFIG_FILE, or a HOME: cli.home_env)."""
    for name in [n for n in os.environ if n.startswith("OS_")]:
        del os.environ[name]
    # a file of the repository, not a temporary one: a nested pytest run in this process
    # (tests/unit/test_logcheck.py) configures again and cleans up after itself
    os.environ["OS_CLIENT_CONFIG_FILE"] = str(TESTS / "fixtures" / "no-clouds.yaml")


def pytest_collection_finish(session):
    """The services' console scripts (``<package>/cmd/``) monkey-patch eventlet when imported:
    in the test process that makes native-thread fixtures (an HTTP server thread) starve the
    rest of the suite, a hang with no error. Tests import the pieces, never a cmd module."""
    patched = [m for m in sorted(sys.modules) if ".cmd." in m and m.split(".")[-1] in SCRIPTS]
    eventlet_patcher = sys.modules.get("eventlet.patcher")
    if eventlet_patcher and eventlet_patcher.is_monkey_patched("thread"):
        raise pytest.UsageError(
            "the test process is monkey-patched by eventlet (imported: %s)" % ", ".join(patched)
        )


# the order modules run in: the integration layer's (a few tests each, 20-100 s of real
# processes) first, the unit layer's (many short tests, which even out the workers' ends)
# last; `-n 2 --dist loadfile` hands modules out in this order (pyproject's addopts keep
# pytest-xdist from reordering them by their count of tests, which put the longest
# modules last and left one worker running them alone for minutes)
RUN_ORDER = ("integration", "functional", "unit")


def _layer(item):
    try:
        return pathlib.Path(item.fspath).relative_to(TESTS).parts[0]
    except ValueError:
        return None


def pytest_collection_modifyitems(items):
    """tests/<layer>/... -> pytest.mark.<layer>, so ``-m unit`` selects every unit test;
    modules in RUN_ORDER (each module's tests stay together and in order)."""
    for item in items:
        layer = _layer(item)
        if layer in LAYERS and not item.get_closest_marker(layer):
            item.add_marker(getattr(pytest.mark, layer))
    rank = {layer: i for i, layer in enumerate(RUN_ORDER)}
    items.sort(key=lambda item: rank.get(_layer(item), len(RUN_ORDER)))


@pytest.fixture
def expect_log_errors(request):
    """Call with regexes of errors this test's services may log: expect("a", "b")."""
    patterns = request.node.stash.setdefault(_EXPECTED, [])

    def expect(*regexes):
        patterns.extend(regexes)  # each argument one regex (extend(str) took its letters)

    return expect


_EXPECTED = pytest.StashKey()


@pytest.fixture(autouse=True)
def service_logs(request):
    """After each test (and its own fixtures' teardown), the services' new log lines hold
    no ERROR and no traceback but the ones the test declared."""
    problems = logcheck.unexpected()
    if problems:  # services' start-up, or late work of the test before
        pytest.fail("before this test: " + logcheck.report(problems), pytrace=False)
    yield
    expected = list(request.node.stash.get(_EXPECTED, []))
    for marker in request.node.iter_markers("expect_log_errors"):
        expected.extend(marker.args)
    problems = logcheck.unexpected(expected)
    if problems:
        pytest.fail(logcheck.report(problems), pytrace=False)
