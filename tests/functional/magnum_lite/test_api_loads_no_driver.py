"""magnum-lite-api answers every driver question from the registry: a process that
creates a template and clusters through the API, is refused an even master count and a
master resize, has imported no driver code (only magnum_lite.drivers.registry), no
conductor endpoint and no cluster credentials."""

import json
import pathlib
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.functional
ROOT = pathlib.Path(__file__).resolve().parents[3]

SCRIPT = textwrap.dedent(
    """
    import json
    import sys

    import webtest

    from magnum_lite.api import app as api_app
    from magnum_lite.common import rpc
    from magnum_lite.conf import CONF
    from magnum_lite.db import api as db_api
    from tests.functional.magnum_lite import fixtures

    url = sys.argv[1]
    CONF([], project="magnum", default_config_files=[])
    CONF.set_override("connection", url, group="database")
    CONF.set_override("encryption_key", "functional-tests", group="x509")
    db_api.configure(url)
    db_api.create_schema()
    rpc.init(CONF, url="fake://")
    api = webtest.TestApp(api_app.setup_app())
    h = {"X-Project-Id": "p1", "X-User-Id": "u1", "X-Roles": "member",
         "OpenStack-API-Version": "container-infra latest"}
    answers = []
    r = api.post_json("/v1/clustertemplates", {"coe": "kubernetes", "image_id": "fedora",
                                               "name": "t"}, headers=h, expect_errors=True)
    answers.append([r.status_int, r.json.get("driver")])
    r = api.post_json("/v1/clusters", {"cluster_template_id": "t", "master_count": 2},
                      headers=h, expect_errors=True)
    answers.append([r.status_int, r.json["errors"][0]["detail"]])
    cluster = fixtures.cluster(fixtures.template("p1", name="ct"), "p1", name="c1")
    r = api.post_json("/v1/clusters/c1/actions/resize",
                      {"node_count": 3, "nodegroup": "default-master"},
                      headers=h, expect_errors=True)
    answers.append([r.status_int, r.json["errors"][0]["detail"]])
    r = api.post_json("/v1/clusters", {"cluster_template_id": "t", "name": "c2"},
                      headers=h, expect_errors=True)
    answers.append([r.status_int])
    prefixes = ("magnum_lite.drivers", "magnum_lite.conductor", "magnum_lite.cluster_credentials",
                "magnum_lite.service")
    loaded = sorted(m for m in sys.modules if m.startswith(prefixes))
    print(json.dumps({"answers": answers, "loaded": loaded}))
    """
)


def test_the_api_imports_no_driver_code(tmp_path):
    url = "sqlite:///%s" % (tmp_path / "magnum.sqlite")
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["answers"] == [
        [201, "k8s_fedora_coreos_v1"],
        [400, "master nodegroup size of 2 is invalid, size cannot be an even number."],
        [400, "Resizing a master nodegroup is not supported."],
        [202],
    ]
    assert result["loaded"] == [
        "magnum_lite.conductor",
        "magnum_lite.conductor.api",
        "magnum_lite.drivers",
        "magnum_lite.drivers.registry",
    ]
