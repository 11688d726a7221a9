"""What magnum-lite-all writes around its services: each service's config file in the
state directory and the ``magnum-lite`` entry of the user's clouds.yaml (simcloud-manage
db_sync seeds the cloud: flavors, images, network ``public``, admin's keypair ``default``).

    layout = Layout(state_dir, ports)
    layout.write_configs()
    entry = write_clouds_yaml(layout.cloud_entry())
"""

import dataclasses
import os
import pathlib
import tempfile

import yaml

CLOUD_NAME = "magnum-lite"
ADMIN_PASSWORD = "password"  # simcloud's default [identity] admin_password, as devstack's

SIMCLOUD_CONF = """\
# Written by magnum-lite-all on every start; put changes in a file given with
# --simcloud-config-file (read after this one).
[api]
bind_host = 127.0.0.1
bind_port = {simcloud}

[database]
connection = sqlite:///{state}/simcloud.sqlite

[catalog]
orchestration_endpoint = http://127.0.0.1:{heat}/v1/%(project_id)s
container_infra_endpoint = http://127.0.0.1:{magnum}/v1
"""

HEAT_CONF = """\
# Written by magnum-lite-all on every start; put changes in a file given with
# --heat-config-file (read after this one).
[DEFAULT]
transport_url = fake://
host = magnum-lite-all

[database]
connection = sqlite:///{state}/heat.sqlite

[heat_api]
bind_host = 127.0.0.1
bind_port = {heat}

# Where heat-lite's cloud plugins reach simcloud (when they call its REST APIs): as the
# admin of project admin, so `openstack server list` shows the clusters' servers.
[clients_keystone]
auth_uri = http://127.0.0.1:{simcloud}/identity
username = admin
password = {password}
project_name = admin

# Heat's oslo.cache region, on as deployments of Heat set it ([cache] is off by default):
# a custom constraint (image, flavor, network...) that validated is not asked again for
# [constraint_validation_cache] expiration_time (60 s)
[cache]
enabled = true
backend = dogpile.cache.memory
"""

MAGNUM_CONF = """\
# Written by magnum-lite-all on every start; put changes in a file given with
# --magnum-config-file (read after this one).
[DEFAULT]
transport_url = fake://
host = magnum-lite-all
# no broker shared with heat-lite: the conductor polls the stacks of clusters in progress
sync_cluster_status_interval = 1
# Magnum's checks of images, flavors, keypairs and networks against simcloud's APIs
validate_os_resources = true

[database]
connection = sqlite:///{state}/magnum.sqlite

[api]
host = 127.0.0.1
port = {magnum}

[heat_client]
url = http://127.0.0.1:{heat}/v1/%(project_id)s

[heat_notifications]
enabled = false

# Where the checks reach simcloud: as the admin of project admin, the identity heat-lite's
# plugins act with, so the keypair magnum checks is the one the clusters' servers get.
[keystone_auth]
auth_type = password
auth_url = http://127.0.0.1:{simcloud}/identity
username = admin
password = {password}
project_name = admin
user_domain_id = default
project_domain_id = default
"""


@dataclasses.dataclass
class Ports:
    simcloud: int = 8080
    heat: int = 8004
    magnum: int = 9511


@dataclasses.dataclass
class Layout:
    """Where everything of one magnum-lite-all lives: configs, SQLite files, logs."""

    state_dir: pathlib.Path
    ports: Ports

    @property
    def etc(self):
        return self.state_dir / "etc"

    @property
    def logs(self):
        return self.state_dir / "logs"

    def conf(self, service):
        return self.etc / ("%s.conf" % service)

    def log(self, name):
        return self.logs / ("%s.log" % name)

    @property
    def auth_url(self):
        return "http://127.0.0.1:%d/identity" % self.ports.simcloud

    def write_configs(self):
        self.etc.mkdir(parents=True, exist_ok=True)
        self.logs.mkdir(parents=True, exist_ok=True)
        values = dict(dataclasses.asdict(self.ports), state=self.state_dir, password=ADMIN_PASSWORD)
        for service, template in (
            ("simcloud", SIMCLOUD_CONF),
            ("heat", HEAT_CONF),
            ("magnum", MAGNUM_CONF),
        ):
            # str.replace, not format: the templates carry %(project_id)s for the services
            text = template
            for key, value in values.items():
                text = text.replace("{%s}" % key, str(value))
            self.conf(service).write_text(text)

    def cloud_entry(self):
        """The clouds.yaml entry: keystone password auth against simcloud's identity."""
        return {
            "auth": {
                "auth_url": self.auth_url,
                "username": "admin",
                "password": ADMIN_PASSWORD,
                "project_name": "admin",
                "user_domain_id": "default",
                "project_domain_id": "default",
            },
            "identity_api_version": 3,
            "region_name": "RegionOne",
        }


def clouds_yaml_path():
    """The user's clouds.yaml, where openstacksdk looks for it (XDG config directory)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return pathlib.Path(base) / "openstack" / "clouds.yaml"


def write_clouds_yaml(entry, path=None):
    """Merge ``entry`` as cloud ``magnum-lite`` into clouds.yaml; the other clouds stay.

    Returns the path written. A file that is not a YAML mapping is left alone (ValueError).
    """
    path = pathlib.Path(path or clouds_yaml_path())
    data = {}
    if path.exists():
        data = yaml.safe_load(path.read_text()) or {}
        if not isinstance(data, dict) or not isinstance(data.get("clouds", {}), dict):
            raise ValueError("%s is not a clouds.yaml mapping; left unchanged" % path)
    data.setdefault("clouds", {})[CLOUD_NAME] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".clouds.yaml.")
    with os.fdopen(fd, "w") as out:
        yaml.safe_dump(data, out, default_flow_style=False, sort_keys=False)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    return path
