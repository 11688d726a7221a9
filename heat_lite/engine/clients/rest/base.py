"""What every REST client plugin shares: the entity table, CRUD calls, errors.

A plugin names its openstacksdk proxy (``compute``, ``network``, ...) and, per entity,
its collection path and JSON keys; the generic calls (get, show, list, update, delete,
find) follow the OpenStack conventions (``{"server": {...}}`` bodies, ``?name=`` filters).
A service's error body (Nova's ``{"itemNotFound": {"message": ...}}``, Neutron's
``NeutronError``, Octavia's ``faultstring``) becomes the client plugin's NotFound (404),
Conflict (409) or BadRequest (other 4xx) with the service's own message.

    class CinderClientPlugin(RestService):
        proxy_name = 'block_storage'
        entities = {'volume': Entity('/volumes', 'volume', 'volumes')}
"""

import collections

from heat_lite.common import cache, exception
from heat_lite.engine.clients import client_exception
from heat_lite.engine.clients.rest import session

Entity = collections.namedtuple("Entity", "path key plural")

_ERRORS = {404: client_exception.NotFound, 409: client_exception.Conflict}


def error_message(resp):
    """The message of a service's error body, whatever its format."""
    try:
        body = resp.json()
    except ValueError:
        return (resp.text or resp.reason or "").strip()
    if isinstance(body, dict):
        for key in ("faultstring", "message", "detail"):
            if isinstance(body.get(key), str):
                return body[key]
        for value in body.values():
            if isinstance(value, dict) and isinstance(value.get("message"), str):
                return value["message"]
    return str(body)


def check(resp):
    """``resp`` itself when it succeeded; else the error it carries, raised."""
    if resp.status_code < 400:
        return resp
    message = error_message(resp)
    if resp.status_code in _ERRORS:
        raise _ERRORS[resp.status_code](message)
    if resp.status_code < 500:
        raise client_exception.BadRequest(message)
    raise exception.Error("%s (HTTP %d)" % (message, resp.status_code))


class RestService:
    """A service reached through openstacksdk's proxy ``proxy_name``."""

    proxy_name = None
    microversion = None
    entities = {}
    # entity -> the name the service uses in its "not found" message
    entity_names = {}

    def __init__(self, context):
        self.context = context
        self.project_id = getattr(context, "project_id", None)

    @property
    def proxy(self):
        return getattr(session.connection(self.context), self.proxy_name)

    def remembered_id(self, entity, name_or_id, find_id):
        """``find_id()``, the id ``name_or_id`` stands for, remembered per project for
        ``[resource_finder_cache] expiration_time`` (Heat's MEMOIZE_FINDER on its neutron,
        nova flavor and glance image finders); a miss (an exception) is asked again."""
        key = "%s:%s:%s:%s" % (self.proxy_name, self.project_id, entity, name_or_id)
        return cache.memoize(cache.RESOURCE_FINDER, key, find_id)

    # -- raw calls ------------------------------------------------------------------------

    def request(self, method, url, body=None, params=None):
        """The JSON answer of ``method url`` (None when it has no body)."""
        kwargs = {"raise_exc": False}
        if self.microversion:
            kwargs["microversion"] = self.microversion
        if body is not None:
            kwargs["json"] = body
        if params:
            kwargs["params"] = params
        resp = check(self.proxy.request(url, method, **kwargs))
        return resp.json() if resp.content else None

    def entity(self, entity):
        return self.entities[entity]

    def url(self, entity, obj_id=None):
        path = self.entity(entity).path
        return path if obj_id is None else "%s/%s" % (path, obj_id)

    def not_found(self, entity, name_or_id):
        label = self.entity_names.get(entity, entity)
        return client_exception.NotFound("%s %s could not be found." % (label, name_or_id))

    # -- generic operations ---------------------------------------------------------------

    def create(self, entity, **values):
        body = self.request("POST", self.url(entity), {self.entity(entity).key: values})
        return self.view(entity, body[self.entity(entity).key])

    def view(self, entity, obj):
        """The object as the plugins read it (services may add derived keys)."""
        return obj

    def get(self, entity, obj_id):
        """The object, or None."""
        if not obj_id:
            return None
        try:
            return self.show(entity, obj_id)
        except client_exception.NotFound:
            return None

    def show(self, entity, obj_id):
        """The object; NotFound if there is none."""
        if not obj_id:
            raise self.not_found(entity, obj_id)
        body = self.request("GET", self.url(entity, obj_id))
        return self.view(entity, body[self.entity(entity).key])

    def list(self, entity, **filters):
        params = {k: v for k, v in filters.items() if v is not None}
        body = self.request("GET", self.url(entity), params=params)
        objs = [self.view(entity, o) for o in body[self.entity(entity).plural]]
        # a service may ignore a filter it does not know: apply them here too
        return [o for o in objs if all(matches(o.get(k), v) for k, v in params.items())]

    def update(self, entity, obj_id, name=None, **props):
        if name is not None:
            props["name"] = name
        key = self.entity(entity).key
        body = self.request("PUT", self.url(entity, obj_id), {key: props})
        return self.view(entity, body[key]) if body else self.show(entity, obj_id)

    def delete(self, entity, obj_id):
        """Remove the object; NotFound if it was gone already."""
        if not obj_id:
            raise self.not_found(entity, obj_id)
        self.request("DELETE", self.url(entity, obj_id))

    def find(self, entity, name_or_id):
        """The object with that id, else the only one visible with that name."""
        obj = self.get(entity, name_or_id)
        if obj is not None:
            return obj
        matches = self.list(entity, name=name_or_id) if name_or_id else []
        if len(matches) > 1:
            raise client_exception.Conflict(
                "Multiple %s matches found for name '%s', use an ID to be more specific."
                % (self.entity_names.get(entity, entity), name_or_id)
            )
        if not matches:
            raise self.not_found(entity, name_or_id)
        return matches[0]


def matches(value, wanted):
    if isinstance(value, bool):
        return str(value).lower() == str(wanted).lower()
    return value == wanted or str(value) == str(wanted)
