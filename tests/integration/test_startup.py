"""Console scripts as an operator meets them: --help, start-up errors, a taken port, an
installed wheel that finds its migrations outside the checkout."""

import socket
import subprocess
import sys
import uuid

import pytest

from tests.fixtures import services

pytestmark = pytest.mark.integration

SCRIPTS = ["heat-lite-api", "heat-lite-engine", "heat-lite-worker", "heat-lite-all"]


def run(argv, tmp_path, timeout=60):
    return subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )


def write_conf(tmp_path, text):
    conf = tmp_path / ("heat-%s.conf" % uuid.uuid4().hex[:6])
    conf.write_text(text)
    return str(conf)


@pytest.mark.parametrize("name", SCRIPTS)
def test_help_says_what_the_script_does_without_warnings(name, tmp_path):
    result = run([services.script(name), "--help"], tmp_path)
    assert result.returncode == 0
    first_docline = {
        "heat-lite-api": "the orchestration REST API",
        "heat-lite-engine": "stack lifecycle RPC server",
        "heat-lite-worker": "convergence worker",
        "heat-lite-all": "API, engine and a worker in one process",
    }[name]
    assert first_docline in " ".join(result.stdout.split())
    assert "Eventlet is deprecated" not in result.stderr + result.stdout
    assert "--debug" in result.stdout


def test_manage_help_lists_its_commands_and_db_sync_says_what_it_did(tmp_path):
    manage = services.script("heat-lite-manage")
    result = run([manage, "--help"], tmp_path)
    shown = " ".join(result.stdout.split())
    assert "db_sync create the schema, or upgrade it to the newest revision" in shown
    assert "db_version print the schema revision the database is at" in shown
    assert "purge_deleted remove stacks soft-deleted longer ago than AGE" in shown
    with services.isolated_backends() as (db_url, _transport):
        conf = write_conf(tmp_path, "[database]\nconnection = %s\n" % db_url)
        first = run([manage, "--config-file", conf, "db_sync"], tmp_path)
        again = run([manage, "--config-file", conf, "db_sync"], tmp_path)
        version = run([manage, "--config-file", conf, "db_version"], tmp_path)
    assert first.returncode == 0, first.stderr
    assert "upgraded from empty to" in first.stdout
    assert "is up to date" in again.stdout
    head = again.stdout.split("revision ")[1].rstrip(")\n")
    assert version.stdout.strip() == "%s (head: %s)" % (head, head)


def one_line_error(result, prog):
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith(prog + ": ")]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_missing_vhost_is_one_line_and_debug_shows_the_traceback(tmp_path):
    vhost = "heatlite_missing_%s" % uuid.uuid4().hex[:8]
    conf = write_conf(
        tmp_path,
        "[DEFAULT]\ntransport_url = rabbit://%s/%s\n[database]\nconnection = sqlite:///%s\n"
        % (services.RABBIT, vhost, tmp_path / "heat.sqlite"),
    )
    manage = services.script("heat-lite-manage")
    assert run([manage, "--config-file", conf, "db_sync"], tmp_path).returncode == 0
    engine = services.script("heat-lite-engine")
    line = one_line_error(run([engine, "--config-file", conf], tmp_path), "heat-lite-engine")
    assert "RabbitMQ vhost '%s' does not exist" % vhost in line
    assert "rabbitmqctl add_vhost %s" % vhost in line
    debug = run([engine, "--config-file", conf, "--debug"], tmp_path)
    assert debug.returncode != 0 and "Traceback" in debug.stderr


def test_missing_database_and_missing_schema_are_one_line(tmp_path):
    missing = "heatlite_missing_%s" % uuid.uuid4().hex[:8]
    conf = write_conf(
        tmp_path,
        "[database]\nconnection = postgresql+psycopg2://postgres@127.0.0.1/%s\n" % missing,
    )
    manage = services.script("heat-lite-manage")
    line = one_line_error(
        run([manage, "--config-file", conf, "db_sync"], tmp_path), "heat-lite-manage"
    )
    assert "PostgreSQL database '%s' does not exist" % missing in line
    assert "createdb" in line and "db_sync" in line

    with services.isolated_backends() as (db_url, transport_url):
        conf = write_conf(
            tmp_path,
            "[DEFAULT]\ntransport_url = %s\n[database]\nconnection = %s\n"
            % (transport_url, db_url),
        )
        result = run([services.script("heat-lite-engine"), "--config-file", conf], tmp_path)
    line = one_line_error(result, "heat-lite-engine")
    assert "the heat database has no tables" in line and "db_sync" in line


def test_a_taken_port_is_an_error_at_start_up(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        conf = write_conf(tmp_path, "[heat_api]\nbind_host = 127.0.0.1\nbind_port = %d\n" % port)
        result = run([services.script("heat-lite-api"), "--config-file", conf], tmp_path)
    line = one_line_error(result, "heat-lite-api")
    assert "127.0.0.1:%d is already in use" % port in line


def test_a_wheel_installed_elsewhere_finds_its_migrations(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "-w",
            str(wheels),
            str(services.REPO),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    wheel = next(wheels.glob("magnum_lite-*.whl"))
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", str(wheel)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    sync = run([str(venv / "bin" / "heat-lite-manage"), "db_sync"], elsewhere)
    assert sync.returncode == 0, sync.stderr
    assert "upgraded from empty to" in sync.stdout
    assert (elsewhere / "heat.sqlite").exists()
    # heat-lite-all from the same directory: its db_sync finds the migrations too, and it serves
    port = services.free_port()
    conf = write_conf(
        elsewhere, "[DEFAULT]\ntransport_url = fake://\n[heat_api]\nbind_port = %d\n" % port
    )
    proc = subprocess.Popen(
        [str(venv / "bin" / "heat-lite-all"), "--config-file", conf],
        cwd=elsewhere,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        import requests
        import tenacity

        @tenacity.retry(stop=tenacity.stop_after_delay(60), wait=tenacity.wait_fixed(0.3))
        def stacks():
            assert proc.poll() is None, proc.stdout.read()
            return requests.get("http://127.0.0.1:%d/v1/admin/stacks" % port, timeout=2)

        assert stacks().json() == {"stacks": []}
    finally:
        proc.terminate()
        proc.wait(timeout=30)
