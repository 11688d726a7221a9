"""The service catalog: every service simcloud-api serves, plus heat-lite and magnum-lite.

Endpoints are configurable (``[catalog]``); ``%(project_id)s`` (or Keystone's
``$(project_id)s``) in a URL becomes the token's project:

    catalog.build('p1')
    # [{'type': 'identity', 'name': 'keystone', 'endpoints': [{'interface': 'public',
    #   'url': 'http://127.0.0.1:8080/identity', ...}, ...]}, ...]
"""

import uuid

from simcloud.conf import CONF

# (type, name, path under simcloud-api's base URL)
SIMCLOUD_SERVICES = (
    ("identity", "keystone", "/identity"),
    ("compute", "nova", "/compute/v2.1"),
    ("image", "glance", "/image"),
    ("network", "neutron", "/networking"),
    ("volumev3", "cinderv3", "/volume/v3/%(project_id)s"),
    ("block-storage", "cinder", "/volume/v3/%(project_id)s"),
    ("load-balancer", "octavia", "/load-balancer"),
)
INTERFACES = ("public", "internal", "admin")
_NAMESPACE = uuid.UUID("0b7a6c1e-2f0d-4f59-8d3c-7a4e9b1c5d21")


def base_url():
    api = CONF.api
    return (api.public_url or "http://%s:%d" % (api.bind_host, api.bind_port)).rstrip("/")


def services():
    """(type, name, URL template, internal URL template) of every catalog entry."""
    base = base_url()
    internal = (CONF.api.internal_url or base).rstrip("/")
    overrides = CONF.catalog.endpoint_overrides
    result = [
        (stype, name, overrides.get(stype, base + path), overrides.get(stype, internal + path))
        for stype, name, path in SIMCLOUD_SERVICES
    ]
    for stype, name, url in (
        ("orchestration", "heat", CONF.catalog.orchestration_endpoint),
        ("container-infra", "magnum", CONF.catalog.container_infra_endpoint),
    ):
        result.append((stype, name, url, url))
    return result


def _url(template, project_id):
    url = template.replace("$(project_id)s", "%(project_id)s").replace(
        "$(tenant_id)s", "%(project_id)s"
    )
    url = url.replace("%(tenant_id)s", "%(project_id)s")
    if "%(project_id)s" in url:
        if not project_id:
            return None
        url = url.replace("%(project_id)s", project_id)
    return url


def build(project_id):
    """The catalog a token scoped to ``project_id`` carries."""
    region = CONF.identity.region
    catalog = []
    for stype, name, template, internal_template in services():
        url = _url(template, project_id)
        if url is None:
            continue
        urls = {"public": url, "admin": url, "internal": _url(internal_template, project_id)}
        service_id = str(uuid.uuid5(_NAMESPACE, stype)).replace("-", "")
        endpoints = [
            {
                "id": str(uuid.uuid5(_NAMESPACE, stype + interface)).replace("-", ""),
                "interface": interface,
                "region": region,
                "region_id": region,
                "url": urls[interface],
            }
            for interface in INTERFACES
        ]
        catalog.append({"id": service_id, "type": stype, "name": name, "endpoints": endpoints})
    return catalog
