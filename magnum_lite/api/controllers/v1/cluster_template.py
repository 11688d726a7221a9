"""/v1/clustertemplates: create, list, detail, show, JSON-patch update and delete.

Simple CRUD straight on objects (no conductor), as Magnum does.
"""

import pecan
import wsme
from pecan import rest
from wsme import types as wtypes
from wsmeext import pecan as wsme_pecan

from magnum_lite import objects
from magnum_lite.api import os_resources
from magnum_lite.api import utils as api_utils
from magnum_lite.api.controllers import base, link
from magnum_lite.api.controllers.v1 import collection, listing, types
from magnum_lite.common import exception, policy, utils
from magnum_lite.conf import CONF
from magnum_lite.drivers import registry
from magnum_lite.objects import fields

LABEL_VALUE = types.MultiType(wtypes.text, int, bool, float)


class ClusterTemplatePatchType(types.JsonPatchType):
    @staticmethod
    def non_removable_attrs():
        return [
            "/coe",
            "/image_id",
            "/network_driver",
            "/external_network_id",
            "/tls_disabled",
            "/public",
            "/server_type",
            "/registry_enabled",
            "/cluster_distro",
            "/hidden",
        ]


class ClusterTemplate(base.APIBase):
    uuid = types.uuid
    name = wtypes.StringType(min_length=1, max_length=255)
    coe = wsme.wsattr(wtypes.Enum(wtypes.text, *fields.ClusterType.ALL), mandatory=True)
    image_id = wsme.wsattr(wtypes.StringType(min_length=1, max_length=255), mandatory=True)
    flavor_id = wtypes.StringType(min_length=1, max_length=255)
    master_flavor_id = wtypes.StringType(min_length=1, max_length=255)
    dns_nameserver = wtypes.StringType(min_length=1, max_length=255)
    keypair_id = wsme.wsattr(wtypes.StringType(min_length=1, max_length=255), default=None)
    external_network_id = wtypes.StringType(min_length=1, max_length=255)
    fixed_network = wtypes.StringType(min_length=1, max_length=255)
    fixed_subnet = wtypes.StringType(min_length=1, max_length=255)
    network_driver = wtypes.StringType(min_length=1, max_length=255)
    volume_driver = wtypes.Enum(wtypes.text, "cinder")
    apiserver_port = wtypes.IntegerType(minimum=1024, maximum=65535)
    docker_volume_size = types.integer(1)
    docker_storage_driver = wtypes.StringType(min_length=1, max_length=255)
    cluster_distro = wtypes.StringType(min_length=1, max_length=255)
    http_proxy = wtypes.StringType(min_length=1, max_length=255)
    https_proxy = wtypes.StringType(min_length=1, max_length=255)
    no_proxy = wtypes.StringType(min_length=1, max_length=255)
    insecure_registry = wtypes.StringType(min_length=1, max_length=255)
    registry_enabled = wsme.wsattr(types.boolean, default=False)
    tls_disabled = wsme.wsattr(types.boolean, default=False)
    public = wsme.wsattr(types.boolean, default=False)
    master_lb_enabled = wsme.wsattr(types.boolean, default=False)
    floating_ip_enabled = wsme.wsattr(types.boolean, default=True)
    hidden = wsme.wsattr(types.boolean, default=False)
    server_type = wsme.wsattr(wtypes.Enum(wtypes.text, *fields.ServerType.ALL), default="vm")
    labels = wtypes.DictType(wtypes.text, LABEL_VALUE)
    tags = wtypes.StringType(min_length=0, max_length=255)
    driver = wtypes.StringType(min_length=0, max_length=255)
    project_id = wsme.wsattr(wtypes.text, readonly=True)
    user_id = wsme.wsattr(wtypes.text, readonly=True)
    links = wsme.wsattr([link.Link], readonly=True)

    def __init__(self, **kwargs):
        super().__init__()
        for attr in self._wsme_attributes:
            setattr(self, attr.name, kwargs.get(attr.name, wtypes.Unset))

    @classmethod
    def convert_with_links(cls, template):
        values = base.convert_datetimes(
            {k: getattr(template, k, None) for k in objects.ClusterTemplate.fields}
        )
        ct = cls(**values)
        ct.links = link.self_and_bookmark("clustertemplates", ct.uuid)
        return ct


class ClusterTemplateCollection(collection.Collection):
    clustertemplates = [ClusterTemplate]
    _type = "clustertemplates"


def _validate_dns(value):
    import ipaddress

    for address in (value or "").split(","):
        try:
            ipaddress.ip_address(address.strip())
        except ValueError:
            raise exception.InvalidParameterValue(err="Invalid DNS nameserver format: %s" % value)


def _fill_defaults(values, context):
    """Magnum's order: the driver check on the image's os_distro (an image that cannot be
    found has none there), then the cloud's resources (image first), then the image's
    os_distro becomes the template's cluster_distro."""
    values["project_id"] = context.project_id
    values["user_id"] = context.user_id
    if not values.get("network_driver"):
        values["network_driver"] = CONF.cluster_template.kubernetes_default_network_driver
    distro, image_driver = os_resources.image_for_driver(context, values["image_id"])
    values["driver"] = registry.get_driver_info(
        values.get("server_type") or "vm",
        distro,
        values["coe"],
        values.get("driver") or image_driver or CONF.drivers.default_driver,
    ).name
    os_resources.validate_template_resources(context, values)
    values["cluster_distro"] = os_resources.image_os_distro(context, values["image_id"])
    values["labels"] = {k: str(v) for k, v in (values.get("labels") or {}).items()}
    if not values.get("name"):
        values["name"] = utils.generate_name("template")
    values["uuid"] = utils.generate_uuid()


def _check_referenced_update(template, new):
    """A template clusters use may change only its name, tags, hidden, or become public."""
    changed = {
        k
        for k in objects.ClusterTemplate.fields
        if getattr(template, k) != new.get(k, getattr(template, k))
    }
    changed -= {"updated_at", "created_at"}
    allowed = (
        changed == {"name"}
        or changed == {"hidden"}
        or (changed == {"public"} and new.get("public"))
        or (changed == {"tags"} and new.get("tags") is not None)
    )
    if changed and not allowed and template.is_referenced():
        raise exception.ClusterTemplateReferenced(clustertemplate=template.uuid)
    return changed


class ClusterTemplatesController(rest.RestController):
    _custom_actions = {"detail": ["GET"]}

    def _all_tenants(self, context, rule):
        if context.is_admin:
            policy.enforce(context, rule, action=rule)
            context.all_tenants = True

    def _get(self, ident):
        context = pecan.request.context
        self._all_tenants(context, "clustertemplate:get_one_all_projects")
        return api_utils.get_resource("ClusterTemplate", ident)

    def _list(self, marker, limit, sort_key, sort_dir, url, rule):
        context = pecan.request.context
        policy.enforce(context, rule, action=rule)
        self._all_tenants(context, rule + "_all_projects")
        objs, limit, sort_dir = listing.page(
            objects.ClusterTemplate.list,
            context,
            lambda m: objects.ClusterTemplate.get_by_uuid(context, m),
            marker,
            limit,
            sort_key,
            sort_dir,
        )
        items = [ClusterTemplate.convert_with_links(o) for o in objs]
        return listing.collection(ClusterTemplateCollection, items, limit, url, sort_key, sort_dir)

    @wsme_pecan.wsexpose(ClusterTemplateCollection, types.uuid, int, wtypes.text, wtypes.text)
    def get_all(self, marker=None, limit=None, sort_key="id", sort_dir="asc"):
        return self._list(marker, limit, sort_key, sort_dir, None, "clustertemplate:get_all")

    @wsme_pecan.wsexpose(ClusterTemplateCollection, types.uuid, int, wtypes.text, wtypes.text)
    def detail(self, marker=None, limit=None, sort_key="id", sort_dir="asc"):
        return self._list(
            marker, limit, sort_key, sort_dir, "clustertemplates/detail", "clustertemplate:detail"
        )

    @wsme_pecan.wsexpose(ClusterTemplate, wtypes.text)
    def get_one(self, ident):
        context = pecan.request.context
        template = self._get(ident)
        if not template.public:
            policy.enforce(
                context, "clustertemplate:get", template.as_dict(), action="clustertemplate:get"
            )
        return ClusterTemplate.convert_with_links(template)

    @wsme_pecan.wsexpose(ClusterTemplate, body=ClusterTemplate, status_code=201)
    def post(self, cluster_template):
        context = pecan.request.context
        policy.enforce(context, "clustertemplate:create", action="clustertemplate:create")
        values = cluster_template.as_dict()
        if values.get("public") or values.get("hidden"):
            if not policy.enforce(context, "clustertemplate:publish", None, do_raise=False):
                raise exception.ClusterTemplatePublishDenied()
        if values.get("dns_nameserver"):
            _validate_dns(values["dns_nameserver"])
        _fill_defaults(values, context)
        template = objects.ClusterTemplate(context, **values)
        template.create()
        pecan.response.location = link.Link.make_link(
            "self", pecan.request.application_url, "clustertemplates", template.uuid
        ).href
        return ClusterTemplate.convert_with_links(template)

    @wsme_pecan.wsexpose(ClusterTemplate, wtypes.text, body=[ClusterTemplatePatchType])
    def patch(self, ident, patch):
        context = pecan.request.context
        self._all_tenants(context, "clustertemplate:update_all_projects")
        template = api_utils.get_resource("ClusterTemplate", ident)
        policy.enforce(
            context, "clustertemplate:update", template.as_dict(), action="clustertemplate:update"
        )
        doc = ClusterTemplate.convert_with_links(template).as_dict()
        doc.pop("links", None)
        patched = api_utils.apply_jsonpatch(doc, [types.literal(p) for p in patch])
        new = ClusterTemplate(
            **{k: v for k, v in patched.items() if k in objects.ClusterTemplate.fields}
        )
        new_values = {a.name: getattr(new, a.name) for a in new._wsme_attributes}
        new_values = {k: (None if v is wtypes.Unset else v) for k, v in new_values.items()}
        if "labels" in new_values and new_values["labels"] is not None:
            new_values["labels"] = {k: str(v) for k, v in new_values["labels"].items()}
        if new_values.get("dns_nameserver"):
            _validate_dns(new_values["dns_nameserver"])
        if (new_values.get("public") != template.public) or (
            new_values.get("hidden") != template.hidden
        ):
            if not policy.enforce(context, "clustertemplate:publish", None, do_raise=False):
                raise exception.ClusterTemplatePublishDenied()
        changed = _check_referenced_update(template, new_values)
        os_resources.validate_template_resources(context, new_values)
        for key in changed:
            setattr(template, key, new_values[key])
        template.save()
        return ClusterTemplate.convert_with_links(template)

    @wsme_pecan.wsexpose(None, wtypes.text, status_code=204)
    def delete(self, ident):
        context = pecan.request.context
        self._all_tenants(context, "clustertemplate:delete_all_projects")
        template = api_utils.get_resource("ClusterTemplate", ident)
        policy.enforce(
            context, "clustertemplate:delete", template.as_dict(), action="clustertemplate:delete"
        )
        template.destroy()
