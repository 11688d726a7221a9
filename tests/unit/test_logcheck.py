"""tests/fixtures/logcheck.py and the suite's ``service_logs`` check: a test whose services
log an ERROR or a traceback it did not declare fails."""

import logging
import textwrap

import pytest

from tests.fixtures import logcheck

pytest_plugins = ["pytester"]

ERROR_WITH_TRACEBACK = (
    "2026-11-26 09:59:38,603 26197 ERROR oslo_messaging.rpc.server Exception during handling\n"
    "Traceback (most recent call last):\n"
    '  File "x.py", line 1, in f\n'
    "psycopg2.errors.ForeignKeyViolation: update or delete on table\n"
)
INFO = "2026-11-26 09:59:38,700 26197 INFO heat_lite.engine Stack CREATE started\n"


@pytest.fixture
def log_file(tmp_path):
    path = tmp_path / "worker0.log"
    path.write_text("")
    source = logcheck.watch_file(path, "worker0")
    yield path
    logcheck.retire(source)
    logcheck.unexpected()


def _append(path, text):
    with open(path, "a") as f:
        f.write(text)


def test_each_check_reads_only_the_lines_since_the_last(log_file):
    _append(log_file, INFO + ERROR_WITH_TRACEBACK + INFO)
    problems = logcheck.unexpected()
    assert problems == [("worker0", ERROR_WITH_TRACEBACK)]  # the traceback is one entry
    assert logcheck.unexpected() == []
    _append(log_file, INFO)
    assert logcheck.unexpected() == []


def test_a_traceback_at_any_level_and_a_critical_count(log_file):
    warning = "2026-11-26 09:59:38,603 1 WARNING x failed\nTraceback (most recent call last):\n"
    critical = "2026-11-26 09:59:38,603 1 CRITICAL x gone\n"
    _append(log_file, warning + INFO + critical)
    assert [text for _label, text in logcheck.unexpected()] == [warning, critical]


def test_oslo_log_records_are_read_too(log_file):
    oslo = "2026-11-26 10:01:30.191 999 ERROR oslo_messaging.rpc.server [-] Exception\n"
    _append(log_file, oslo + "2026-11-26 10:01:30.200 999 INFO x fine\n")
    assert logcheck.unexpected() == [("worker0", oslo)]


def test_expected_patterns_are_searched_in_the_whole_entry(log_file):
    _append(log_file, ERROR_WITH_TRACEBACK)
    assert logcheck.unexpected([r"ForeignKeyViolation"]) == []
    _append(log_file, ERROR_WITH_TRACEBACK)
    assert len(logcheck.unexpected([r"KeyError"])) == 1


def test_a_line_still_being_written_waits_for_the_next_check(log_file):
    _append(log_file, "2026-11-26 09:59:38,603 1 ERR")
    assert logcheck.unexpected() == []
    _append(log_file, "OR x broke\n")
    assert logcheck.unexpected() == [("worker0", "2026-11-26 09:59:38,603 1 ERROR x broke\n")]


def test_a_retired_source_is_checked_once_more(tmp_path):
    path = tmp_path / "api.log"
    path.write_text("")
    source = logcheck.watch_file(path, "api")
    _append(path, ERROR_WITH_TRACEBACK)
    logcheck.retire(source)
    assert len(logcheck.unexpected()) == 1
    _append(path, ERROR_WITH_TRACEBACK)
    assert logcheck.unexpected() == []


def test_in_process_services_are_watched_through_logging():
    handler = logcheck.watch_logging("in process")
    try:
        logging.getLogger("heat_lite.engine.worker").info("fine")
        try:
            raise KeyError("x")
        except KeyError:
            logging.getLogger("heat_lite.engine.worker").exception("boom")
        ((label, text),) = logcheck.unexpected()
        assert label == "in process"
        assert text.startswith("ERROR heat_lite.engine.worker boom\nTraceback")
        assert text.endswith("KeyError: 'x'")
    finally:
        logcheck.retire(handler)
        logcheck.unexpected()


def test_the_suite_fails_a_test_whose_services_logged_an_unexpected_error(pytester):
    pytester.makepyfile(
        textwrap.dedent(
            """
            import pytest
            from tests.fixtures import logcheck

            ERROR = "2026-11-26 09:59:38,603 1 ERROR x ValueError: boom\\n"

            @pytest.fixture(scope="module")
            def service(tmp_path_factory):
                path = tmp_path_factory.mktemp("svc") / "engine.log"
                path.write_text("")
                source = logcheck.watch_file(path, "engine")
                yield path
                logcheck.retire(source)

            def _log(path):
                with open(path, "a") as f:
                    f.write(ERROR)

            def test_unexpected(service):
                _log(service)

            @pytest.mark.expect_log_errors("ValueError: boom")
            def test_marked(service):
                _log(service)

            def test_declared(service, expect_log_errors):
                expect_log_errors("ValueError")
                _log(service)

            def test_clean(service):
                pass
            """
        )
    )
    result = pytester.runpytest("-p", "tests.conftest", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_unexpected*",
            "*services logged errors the test did not expect (1):*",
            "*--- engine:*",
        ]
    )
