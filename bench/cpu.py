"""CPU seconds the benchmarked services use: less sensitive than wall seconds to the
other work of a shared machine (each figure is the processes' user + system time).

    meter = cpu.Meter({"engine": popen, ...})
    ...                      # the work measured
    meter.lap()              # {"engine": 0.42, ..., "total": 1.9} since the last lap
"""

import os
import pathlib
import signal
import subprocess
import sys
import time

_TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid, children=False):
    """User + system seconds of process ``pid`` (0 once it is gone); with ``children``,
    also those of its children that have exited."""
    try:
        with open("/proc/%d/stat" % pid) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    used = int(fields[11]) + int(fields[12])
    if children:
        used += int(fields[13]) + int(fields[14])
    return used / _TICK


def postgres_seconds():
    """CPU seconds of the local PostgreSQL server so far: its postmaster, its live
    processes and the backends that have exited (None if it is not a local process).
    Between two readings: the server's CPU meanwhile, whoever it worked for."""
    try:
        out = subprocess.run(
            ["pgrep", "-o", "-x", "postgres"], capture_output=True, text=True, timeout=5
        ).stdout.split()
    except OSError:
        return None
    if not out:
        return None
    postmaster = int(out[0])
    kids = subprocess.run(
        ["pgrep", "-P", str(postmaster)], capture_output=True, text=True, timeout=5
    ).stdout.split()
    return cpu_seconds(postmaster, True) + sum(cpu_seconds(int(k), True) for k in kids)


class Meter:
    def __init__(self, procs):
        self.pids = {name: proc.pid for name, proc in procs.items() if proc is not None}
        self._last, self._last_pg = self._now(), postgres_seconds()

    def _now(self):
        return {name: cpu_seconds(pid) for name, pid in self.pids.items()}

    def lap(self):
        """CPU seconds since the last lap: each service's, their ``total``, and
        ``postgresql`` (the local server's, not in the total) when it can be read."""
        now, pg = self._now(), postgres_seconds()
        used = {name: now[name] - self._last.get(name, 0.0) for name in now}
        used["total"] = sum(used.values())
        if pg is not None and self._last_pg is not None:
            used["postgresql"] = pg - self._last_pg
        self._last, self._last_pg = now, pg
        return used


def settle(procs, window=0.5, busy_share=0.1, timeout=30):
    """Wait (at most ``timeout`` seconds) for the services' start-up to end: all of
    ``procs`` together under ``busy_share`` of a CPU over ``window`` seconds. Services
    answer before they are done starting (a conductor fills its x509 key pool on idle
    CPU, as it would long before a burst of creates reaches a deployed one); a burst
    measured from then on measures the burst. Returns the seconds waited."""
    meter = Meter(procs)
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        time.sleep(window)
        used = meter.lap()
        if used["total"] < busy_share * window:
            break
    return time.monotonic() - start


def heat_procs(heat):
    """The processes of a tests.fixtures.services.HeatProcesses (and its simcloud-api)."""
    procs = dict(heat.procs)
    if heat.cloud is not None:
        procs["simcloud"] = heat.cloud.proc
    return procs


def line(used):
    return " ".join("%s=%.2f" % (name, used[name]) for name in sorted(used))


class Profiler:
    """py-spy record of each process in ``procs`` until stop(): DIR/<name>.txt, collapsed
    stacks of the threads holding the GIL, i.e. near CPU time (py-spy installed beside
    this interpreter; nothing is done without ``out_dir``).
    """

    def __init__(self, procs, out_dir):
        self.recorders = []
        if not out_dir:
            return
        pathlib.Path(out_dir).mkdir(parents=True, exist_ok=True)
        py_spy = str(pathlib.Path(sys.executable).parent / "py-spy")
        for name, proc in procs.items():
            if proc is None:
                continue
            out = pathlib.Path(out_dir) / ("%s.txt" % name)
            pid = str(proc.pid)
            command = [py_spy, "record", "--gil", "--format", "raw", "--pid", pid, "-o", str(out)]
            self.recorders.append(
                subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            )

    def stop(self):
        for recorder in self.recorders:
            recorder.send_signal(signal.SIGINT)
        for recorder in self.recorders:
            recorder.wait(timeout=60)
