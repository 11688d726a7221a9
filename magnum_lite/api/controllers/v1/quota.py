"""/v1/quotas (>= 1.6): admin CRUD of per-project limits; a project reads its own."""

import pecan
import wsme
from pecan import rest
from wsme import types as wtypes
from wsmeext import pecan as wsme_pecan

from magnum_lite import objects
from magnum_lite.api.controllers import base, versions
from magnum_lite.api.controllers.v1 import collection, listing, types
from magnum_lite.common import exception, policy
from magnum_lite.conf import CONF
from magnum_lite.objects import fields


class Quota(base.APIBase):
    id = wsme.wsattr(types.integer(1), readonly=True)
    project_id = wsme.wsattr(wtypes.StringType(max_length=255), default=None)
    resource = wsme.wsattr(wtypes.Enum(wtypes.text, *fields.QuotaResourceName.ALL), default=None)
    hard_limit = wsme.wsattr(types.integer(0), default=1)

    @classmethod
    def convert(cls, quota):
        q = cls()
        for key, value in base.convert_datetimes(quota.as_dict()).items():
            setattr(q, key, value)
        return q


class QuotaCollection(collection.Collection):
    quotas = [Quota]
    _type = "quotas"


class QuotaController(rest.RestController):
    def _enforce(self, rule, target=None):
        versions.require(pecan.request, "1.6")
        policy.enforce(pecan.request.context, rule, target, action=rule)

    @wsme_pecan.wsexpose(QuotaCollection, int, int, wtypes.text, wtypes.text, wtypes.text)
    def get_all(self, marker=None, limit=None, sort_key="id", sort_dir="asc", all_tenants=False):
        versions.require(pecan.request, "1.6")
        context = pecan.request.context
        filters = {}
        all_tenants = str(all_tenants).lower() in ("true", "1", "yes")
        if not (context.is_admin and all_tenants):
            filters["project_id"] = context.project_id
        objs, limit, sort_dir = listing.page(
            objects.Quota.list,
            context,
            lambda m: type("Marker", (), {"id": m}),
            marker,
            limit,
            sort_key,
            sort_dir,
            filters=filters,
        )
        items = [Quota.convert(o) for o in objs]
        return listing.collection(
            QuotaCollection, items, limit, None, sort_key, sort_dir, marker_attr="id"
        )

    @wsme_pecan.wsexpose(Quota, wtypes.text, wtypes.text)
    def get_one(self, project_id, resource):
        context = pecan.request.context
        self._enforce("quota:get", {"project_id": project_id})
        if not context.is_admin and project_id != context.project_id:
            raise exception.NotAuthorized()
        try:
            quota = objects.Quota.get_quota_by_project_id_resource(context, project_id, resource)
        except exception.QuotaNotFound:
            return Quota(
                project_id=project_id,
                resource=resource,
                hard_limit=CONF.quotas.max_clusters_per_project,
            )
        return Quota.convert(quota)

    @wsme_pecan.wsexpose(Quota, body=Quota, status_code=201)
    def post(self, quota):
        self._enforce("quota:create")
        values = quota.as_dict()
        if not values.get("project_id"):
            raise exception.ProjectNotFound(name=values.get("project_id"))
        if not values.get("resource"):
            raise exception.InvalidParameterValue(err="resource is mandatory")
        obj = objects.Quota(pecan.request.context, **values)
        obj.create()
        return Quota.convert(obj)

    @wsme_pecan.wsexpose(Quota, wtypes.text, wtypes.text, body=Quota, status_code=202)
    def patch(self, project_id, resource, quotapatch):
        self._enforce("quota:update")
        context = pecan.request.context
        objects.Quota.get_quota_by_project_id_resource(context, project_id, resource)
        quota = objects.Quota.update_quota(
            context, project_id, {"resource": resource, "hard_limit": quotapatch.hard_limit}
        )
        return Quota.convert(quota)

    @wsme_pecan.wsexpose(None, wtypes.text, wtypes.text, status_code=204)
    def delete(self, project_id, resource):
        self._enforce("quota:delete")
        context = pecan.request.context
        quota = objects.Quota.get_quota_by_project_id_resource(context, project_id, resource)
        quota.delete()
