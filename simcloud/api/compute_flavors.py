"""Nova's flavors, keypairs and server groups (what a server is built from), under
``/compute/v2.1``; their routes are in compute.py's table."""

import uuid

from simcloud.api import compute_views as views
from simcloud.api import router
from simcloud.cloud import nova
from simcloud.common import exception


def _bad(message):
    return exception.BadRequest(message)


# flavors -----------------------------------------------------------------------------


def _flavors(req):
    compute = nova.NovaService(req.context)
    flavors = compute.list("flavor")
    is_public = req.params.get("is_public", "true").lower()
    if not req.context.is_admin or is_public in ("true", "1", "yes"):
        flavors = [f for f in flavors if f["is_public"]]
    elif is_public in ("false", "0", "no"):
        flavors = [f for f in flavors if not f["is_public"]]
    for key, attr in (("minRam", "ram"), ("minDisk", "disk")):
        if key in req.params:
            flavors = [f for f in flavors if f[attr] >= int(req.params[key])]
    return router.paginate(flavors, req.params)[0]


def list_flavors(req):
    return 200, {"flavors": [views.flavor_brief(req, f) for f in _flavors(req)]}


def list_flavors_detail(req):
    return 200, {"flavors": [views.flavor(req, f) for f in _flavors(req)]}


def show_flavor(req, flavor_id):
    flavor = nova.NovaService(req.context).get("flavor", flavor_id)
    if flavor is None:
        raise exception.NotFound("Flavor %s could not be found." % flavor_id)
    return 200, {"flavor": views.flavor(req, flavor)}


def create_flavor(req):
    if not req.context.is_admin:
        raise exception.Forbidden(
            "Policy doesn't allow os_compute_api:os-flavor-manage:create to be performed."
        )
    body = req.member("flavor")
    try:
        args = [int(body[k]) for k in ("vcpus", "ram", "disk")]
    except (KeyError, TypeError, ValueError):
        raise _bad("Invalid input for field/attribute flavor: vcpus, ram and disk are required.")
    flavor = nova.NovaService(req.context).create_flavor(
        body.get("name"),
        str(body.get("id") or uuid.uuid4()),
        *args,
        is_public=bool(body.get("os-flavor-access:is_public", True)),
        description=body.get("description"),
    )
    return 200, {"flavor": views.flavor(req, flavor)}


def delete_flavor(req, flavor_id):
    if not req.context.is_admin:
        raise exception.Forbidden(
            "Policy doesn't allow os_compute_api:os-flavor-manage:delete to be performed."
        )
    compute = nova.NovaService(req.context)
    if compute.get("flavor", flavor_id) is None:
        raise exception.NotFound("Flavor %s could not be found." % flavor_id)
    compute.delete("flavor", flavor_id)
    return 202, None


def flavor_extra_specs(req, flavor_id):
    show_flavor(req, flavor_id)
    flavor = nova.NovaService(req.context).get("flavor", flavor_id)
    return 200, {"extra_specs": flavor.get("extra_specs") or {}}


# keypairs and server groups ----------------------------------------------------------


def list_keypairs(req):
    keys = nova.NovaService(req.context).keypairs()
    return 200, {"keypairs": [{"keypair": views.keypair(req, k, brief=True)} for k in keys]}


def show_keypair(req, name):
    return 200, {"keypair": views.keypair(req, nova.NovaService(req.context).get_keypair(name))}


def create_keypair(req):
    body = req.member("keypair")
    if not isinstance(body.get("name"), str) or not body["name"].strip():
        raise _bad("Invalid input for field/attribute name.")
    key = nova.NovaService(req.context).create_keypair(
        body["name"], body.get("public_key"), body.get("type") or "ssh"
    )
    return (201 if req.version_at_least("2.2") else 200), {"keypair": views.keypair(req, key)}


def delete_keypair(req, name):
    nova.NovaService(req.context).delete_keypair(name)
    return (204 if req.version_at_least("2.2") else 202), None


def list_server_groups(req):
    groups = nova.NovaService(req.context).list_visible("server_group")
    return 200, {"server_groups": [views.server_group(req, g) for g in groups]}


def create_server_group(req):
    body = req.member("server_group")
    policies = body.get("policies") or ([body["policy"]] if body.get("policy") else None)
    if not body.get("name") or not policies:
        raise _bad("Invalid input for field/attribute server_group.")
    group = nova.NovaService(req.context).create_server_group(
        body["name"], policies, body.get("rules")
    )
    return 200, {"server_group": views.server_group(req, group)}


def show_server_group(req, group_id):
    group = nova.NovaService(req.context).show("server_group", group_id)
    return 200, {"server_group": views.server_group(req, group)}


def delete_server_group(req, group_id):
    compute = nova.NovaService(req.context)
    compute.show("server_group", group_id)
    compute.delete("server_group", group_id)
    return 204, None
