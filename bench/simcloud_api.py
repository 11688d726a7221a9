"""simcloud-api benchmark: what Heat's resource plugins will ask of the cloud, over REST.

    python bench/simcloud_api.py --n 20

Starts simcloud-api on a fresh PostgreSQL database, connects with openstacksdk as user demo
(keystoneauth session, endpoints from the catalog), makes a network and subnet, then N
times: a port, a server on it (waited ACTIVE), a server show; then deletes them all.
Prints the mean milliseconds of each call; the last line is
``token_ms=<ms> port_ms=<ms> server_create_ms=<ms> server_show_ms=<ms> total_s=<s>``.
"""

import argparse
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import openstack  # noqa: E402

from tests.fixtures import services  # noqa: E402
from tests.fixtures.simcloud_services import PASSWORDS, SimcloudProcess  # noqa: E402


def _timed(samples, key, call, *args, **kwargs):
    start = time.perf_counter()
    result = call(*args, **kwargs)
    samples.setdefault(key, []).append(time.perf_counter() - start)
    return result


def run(conn, n):
    samples = {}
    _timed(samples, "token", conn.session.get_token)
    net = conn.network.create_network(name="bench-net")
    conn.network.create_subnet(network_id=net.id, cidr="10.0.0.0/16", ip_version=4)
    image = conn.image.find_image("cirros-0.6.2")
    servers = []
    for i in range(n):
        port = _timed(samples, "port", conn.network.create_port, network_id=net.id)
        server = _timed(
            samples,
            "server_create",
            conn.compute.create_server,
            name="bench-%d" % i,
            image_id=image.id,
            flavor_id="1",
            networks=[{"port": port.id}],
        )
        _timed(samples, "server_show", conn.compute.get_server, server.id)
        servers.append((server, port))
    for server, port in servers:
        _timed(samples, "server_delete", conn.compute.delete_server, server)
        _timed(samples, "port_delete", conn.network.delete_port, port)
    return {k: 1000 * sum(v) / len(v) for k, v in samples.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=20)
    args = parser.parse_args()
    services.use_default_pools()
    db_name, db_url = services.create_database()
    cloud = SimcloudProcess(tempfile.mkdtemp(prefix="simcloud-bench-"), db_url)
    try:
        cloud.start()
        conn = openstack.connect(
            auth_url=cloud.auth_url,
            username="demo",
            password=PASSWORDS["demo"],
            project_name="demo",
            user_domain_id="default",
            project_domain_id="default",
        )
        start = time.perf_counter()
        means = run(conn, args.n)
        total = time.perf_counter() - start
    finally:
        cloud.stop()
        services.drop_database(db_name)
    for key, value in means.items():
        print("%-14s %7.1f ms" % (key, value))
    print(
        "token_ms=%.1f port_ms=%.1f server_create_ms=%.1f server_show_ms=%.1f total_s=%.2f"
        % (means["token"], means["port"], means["server_create"], means["server_show"], total)
    )


if __name__ == "__main__":
    main()
