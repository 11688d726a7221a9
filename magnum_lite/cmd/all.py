"""magnum-lite-all: the whole cloud in one command (simcloud, heat-lite, magnum-lite).

With no arguments it runs on the embedded default, with no broker and no database server:
SQLite files in the state directory (``./.magnum-lite/``, ``--state-dir``), each program
with its own in-process transport. oslo.config holds one configuration per process, so
each program is a child process of this command, started by its own console script:

    simcloud-api                 identity (with the catalog), compute, image, network,
                                 volume, load-balancer                      :8080
    heat-lite-all                heat's API, engine and a worker            :8004
    python -m magnum_lite.cmd.api_conductor
                                 magnum's API and conductor                 :9511

Databases are created or upgraded on every start, so state is kept across restarts. The
children are supervised: one that dies is reported and the command exits 1; SIGINT or
SIGTERM stops them all. ``--heat-config-file``, ``--magnum-config-file`` and
``--simcloud-config-file`` are read after the generated configs: naming PostgreSQL and
RabbitMQ there runs the same services on them.

It writes the cloud ``magnum-lite`` into the user's clouds.yaml, so
``openstack --os-cloud magnum-lite coe cluster create ...`` works with no other flag.
"""

import argparse
import ctypes
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import time

import requests
import yaml

from magnum_lite.cmd import all_setup

READY_TIMEOUT = 120


class Stop(Exception):
    """SIGINT or SIGTERM arrived: stop every child, exit 0."""


class ChildDied(Exception):
    """A child exited on its own: stop the others, exit 1."""


def script(name):
    """A console script of this installation (beside the interpreter), else from PATH."""
    beside = pathlib.Path(sys.executable).parent / name
    return str(beside) if beside.exists() else (shutil.which(name) or name)


def _die_with_parent():
    """In the child before exec: SIGTERM when magnum-lite-all dies, even by SIGKILL."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: the children outlive a killed parent


class Supervisor:
    """The child processes: started in order, watched, stopped in reverse order."""

    def __init__(self, layout):
        self.layout = layout
        self.children = {}  # name -> Popen, in start order

    def run_once(self, name, argv):
        """A one-shot step (db sync) into the service's log; exit status must be 0."""
        with open(self.layout.log(name), "ab") as log:
            rc = subprocess.call(argv, stdout=log, stderr=subprocess.STDOUT)
        if rc != 0:
            raise ChildDied("%s exited with %d:\n%s" % (" ".join(argv), rc, self.tail(name)))

    def start(self, name, argv):
        log = open(self.layout.log(name), "ab")
        # a session of its own: a terminal's Ctrl-C reaches this command only, which then
        # stops the children in order
        self.children[name] = subprocess.Popen(
            argv,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        log.close()

    def check(self):
        for name, proc in self.children.items():
            if proc.poll() is not None:
                raise ChildDied(
                    "%s (pid %d) exited with %d; its log %s ends:\n%s"
                    % (name, proc.pid, proc.returncode, self.layout.log(name), self.tail(name))
                )

    def tail(self, name, lines=15):
        try:
            text = self.layout.log(name).read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def wait_ready(self, name, url):
        """Until ``url`` answers (any status below 500); the child must stay alive."""
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            self.check()
            try:
                if requests.get(url, timeout=2).status_code < 500:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.2)
        raise ChildDied("%s did not answer at %s:\n%s" % (name, url, self.tail(name)))

    def stop(self, timeout=15):
        for proc in reversed(list(self.children.values())):
            if proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + timeout
        for proc in self.children.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="magnum-lite-all", description=__doc__.split("\n")[0])
    parser.add_argument("--state-dir", default=".magnum-lite", help="default ./.magnum-lite")
    ports = all_setup.Ports()
    parser.add_argument("--simcloud-port", type=int, default=ports.simcloud)
    parser.add_argument("--heat-port", type=int, default=ports.heat)
    parser.add_argument("--magnum-port", type=int, default=ports.magnum)
    for service in ("simcloud", "heat", "magnum"):
        parser.add_argument(
            "--%s-config-file" % service,
            action="append",
            default=[],
            metavar="FILE",
            help="read after the generated %s.conf (repeatable)" % service,
        )
    parser.add_argument(
        "--no-clouds-yaml", action="store_true", help="do not write the user's clouds.yaml"
    )
    return parser.parse_args(argv)


def config_args(layout, args, service):
    files = [layout.conf(service), *getattr(args, "%s_config_file" % service)]
    return [x for f in files for x in ("--config-file", str(pathlib.Path(f).resolve()))]


def services(layout, args):
    """(name, db sync argv, service argv, readiness URL, what it serves) in start order."""
    ports = layout.ports
    simcloud = config_args(layout, args, "simcloud")
    heat = config_args(layout, args, "heat")
    magnum = config_args(layout, args, "magnum")
    return [
        (
            "simcloud-api",
            [script("simcloud-manage"), *simcloud, "db_sync"],
            [script("simcloud-api"), *simcloud],
            layout.auth_url + "/v3",
            "identity, compute, image, network, volume, load-balancer on :%d" % ports.simcloud,
        ),
        (
            "heat-lite-all",
            [script("heat-lite-manage"), *heat, "db_sync"],
            [script("heat-lite-all"), *heat],
            "http://127.0.0.1:%d/" % ports.heat,
            "orchestration (heat API, engine, worker) on :%d" % ports.heat,
        ),
        (
            "magnum-lite",
            [script("magnum-lite-db-manage"), *magnum, "upgrade"],
            [sys.executable, "-m", "magnum_lite.cmd.api_conductor", *magnum],
            "http://127.0.0.1:%d/" % ports.magnum,
            "container-infra (magnum API, conductor) on :%d" % ports.magnum,
        ),
    ]


def check_ports_free(ports):
    """Each port must be free before anything starts (else readiness would ask another
    program)."""
    for service, port in sorted(vars(ports).items()):
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                raise ChildDied(
                    "port %d (%s) is already in use: stop what listens there or pass --%s-port"
                    % (port, service, service)
                )


def start_all(supervisor, layout, args):
    check_ports_free(layout.ports)
    plan = services(layout, args)
    for number, (name, sync, argv, url, what) in enumerate(plan, 1):
        began = time.monotonic()
        print(
            "[%d/%d] %-14s %s ..." % (number, len(plan), name, what),
            end="",
            flush=True,
        )
        supervisor.run_once(name, sync)
        supervisor.start(name, argv)
        supervisor.wait_ready(name, url)
        print(" up (%.1fs)" % (time.monotonic() - began), flush=True)


def announce_clouds_yaml(layout, args):
    entry = {"clouds": {all_setup.CLOUD_NAME: layout.cloud_entry()}}
    text = yaml.safe_dump(entry, default_flow_style=False, sort_keys=False)
    if args.no_clouds_yaml:
        print("\nclouds.yaml not written (--no-clouds-yaml); the entry would be:\n" + text)
        return
    try:
        path = all_setup.write_clouds_yaml(layout.cloud_entry())
    except (ValueError, yaml.YAMLError) as exc:
        print("\nclouds.yaml NOT written (%s); add this entry yourself:\n%s" % (exc, text))
        return
    print("\nCloud '%s' written to %s:\n%s" % (all_setup.CLOUD_NAME, path, text))


FIRST_COMMANDS = """\
First commands to try:
  openstack --os-cloud magnum-lite coe cluster template create k8s --coe kubernetes \\
      --image fedora-coreos-40 --external-network public --keypair default \\
      --flavor m1.small --master-flavor m1.medium
  openstack --os-cloud magnum-lite coe cluster create k8s-1 --cluster-template k8s \\
      --node-count 2
  openstack --os-cloud magnum-lite coe cluster list
  openstack --os-cloud magnum-lite stack list
  openstack --os-cloud magnum-lite server list
  openstack --os-cloud magnum-lite coe cluster delete k8s-1
"""


def announce(layout, supervisor):
    print("\nState directory: %s (SQLite databases, configs in etc/)" % layout.state_dir)
    print("Logs:")
    for name, proc in supervisor.children.items():
        print("  %-14s pid %-7d %s" % (name, proc.pid, layout.log(name)))
    print("\n" + FIRST_COMMANDS)
    print("magnum-lite-all is running; Ctrl-C stops everything.", flush=True)


def _raise_stop(signum, frame):
    raise Stop()


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    ports = all_setup.Ports(args.simcloud_port, args.heat_port, args.magnum_port)
    layout = all_setup.Layout(pathlib.Path(args.state_dir).resolve(), ports)
    layout.write_configs()
    supervisor = Supervisor(layout)
    signal.signal(signal.SIGTERM, _raise_stop)
    signal.signal(signal.SIGINT, _raise_stop)
    try:
        start_all(supervisor, layout, args)
        announce_clouds_yaml(layout, args)
        announce(layout, supervisor)
        while True:
            supervisor.check()
            time.sleep(0.5)
    except Stop:
        print("\nStopping...", flush=True)
        status = 0
    except (ChildDied, requests.RequestException) as exc:
        print("\nmagnum-lite-all: %s" % exc, file=sys.stderr, flush=True)
        status = 1
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    supervisor.stop()
    print("magnum-lite-all stopped.", flush=True)
    return status


def console_main():
    sys.exit(main())


if __name__ == "__main__":
    console_main()
