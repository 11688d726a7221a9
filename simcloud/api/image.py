"""The image service (Glance v2 subset) under ``/image``: images with their properties,
data upload, JSON-patch updates, tags.

Custom properties (``os_distro``, ...) sit at the top level of an image, as Glance
shows them. Errors are Glance's plain webob bodies (``404 Not Found\\n\\n...``).
"""

import webob
from webob import exc as webob_exc

from simcloud.api import router
from simcloud.cloud import glance
from simcloud.common import exception

CORE = (
    "id",
    "name",
    "status",
    "visibility",
    "protected",
    "disk_format",
    "container_format",
    "min_disk",
    "min_ram",
    "size",
    "checksum",
    "os_hash_algo",
    "os_hash_value",
    "tags",
    "os_hidden",
)
PATCH_TYPE = "application/openstack-images-v2.1-json-patch"
_HTTP = {
    400: webob_exc.HTTPBadRequest,
    403: webob_exc.HTTPForbidden,
    404: webob_exc.HTTPNotFound,
    405: webob_exc.HTTPMethodNotAllowed,
    409: webob_exc.HTTPConflict,
    413: webob_exc.HTTPRequestEntityTooLarge,
}


def glance_error(error):
    if error.code == 401:
        return router.keystone_error(error)
    response = _HTTP.get(error.code, webob_exc.HTTPInternalServerError)(explanation=error.message)
    return webob.Request.blank("/").get_response(response)


def _version(req, vid, status):
    return {"id": vid, "status": status, "links": [{"rel": "self", "href": req.url("/image/v2/")}]}


def versions(req):
    values = [_version(req, "v2.16", "CURRENT")] + [
        _version(req, "v2.%d" % n, "SUPPORTED") for n in range(15, -1, -1)
    ]
    return 300, {"versions": values}


def _time(value):
    return value.strftime("%Y-%m-%dT%H:%M:%SZ") if value else None


def view(req, image):
    body = {k: v for k, v in image.items() if k not in ("project_id", "created_at", "updated_at")}
    body.update(
        owner=image["project_id"],
        created_at=_time(image.get("created_at")),
        updated_at=_time(image.get("updated_at") or image.get("created_at")),
        virtual_size=None,
        self="/v2/images/%s" % image["id"],
        file="/v2/images/%s/file" % image["id"],
        schema="/v2/schemas/image",
    )
    for key in (
        "size",
        "checksum",
        "os_hash_algo",
        "os_hash_value",
        "disk_format",
        "container_format",
    ):
        body.setdefault(key, None)
    return body


def _filtered(req):
    images = glance.GlanceService(req.context).list_visible("image")
    p = req.params
    for key in (
        "name",
        "status",
        "visibility",
        "os_distro",
        "disk_format",
        "container_format",
        "owner",
    ):
        if key in p:
            attr = "project_id" if key == "owner" else key
            images = [i for i in images if str(i.get(attr)) == p[key]]
    if "visibility" not in p:
        images = [
            i
            for i in images
            if i["visibility"] != "community" or i["project_id"] == req.context.project_id
        ]
    for tag in p.getall("tag"):
        images = [i for i in images if tag in (i.get("tags") or [])]
    return images


def list_images(req):
    page, more = router.paginate(_filtered(req), req.params)
    body = {
        "images": [view(req, i) for i in page],
        "first": "/v2/images",
        "schema": "/v2/schemas/images",
    }
    if more and page:
        body["next"] = "/v2/images?marker=%s&limit=%s" % (page[-1]["id"], req.params["limit"])
    return 200, body


def create_image(req):
    body = req.body
    if not isinstance(body, dict):
        raise exception.BadRequest("Body must be a JSON object.")
    props = dict(body)
    image = glance.GlanceService(req.context).create_image(
        props.pop("name", None), image_id=props.pop("id", None), **props
    )
    return router.json_response(
        201, view(req, image), {"Location": req.url("/image/v2/images/%s" % image["id"])}
    )


def show_image(req, image_id):
    return 200, view(req, glance.GlanceService(req.context).show("image", image_id))


def _apply_patch(image, operations):
    """JSON-patch ``operations`` -> (name, properties to set, keys to remove)."""
    name, props, remove = None, {}, []
    for op in operations:
        if not isinstance(op, dict) or op.get("op") not in ("add", "replace", "remove"):
            raise exception.BadRequest(
                "Unable to find `op` in JSON Schema change. It must be "
                "one of the following: add, remove, replace."
            )
        path = str(op.get("path", "")).lstrip("/")
        if not path or "/" in path:
            raise exception.BadRequest("Invalid JSON pointer for this resource: '/%s'" % path)
        if op["op"] == "remove":
            if path in CORE:
                raise exception.Forbidden("Property %s may not be removed." % path)
            if path not in image:
                raise exception.Conflict("Property %s does not exist." % path)
            remove.append(path)
        elif path == "name":
            name = op.get("value")
        else:
            props[path] = op.get("value")
    return name, props, remove


def update_image(req, image_id):
    content_type = req.raw.content_type or ""
    if content_type != PATCH_TYPE:
        return router.json_response(415, None)
    service = glance.GlanceService(req.context)
    image = service.show("image", image_id)
    operations = req.body
    if not isinstance(operations, list):
        raise exception.BadRequest("Request body must be a JSON array of operation objects.")
    name, props, remove = _apply_patch(image, operations)
    updated = service.update_image(image_id, name=name, remove=remove, **props)
    return 200, view(req, updated)


def delete_image(req, image_id):
    glance.GlanceService(req.context).delete_image(image_id)
    return 204, None


def upload(req, image_id):
    glance.GlanceService(req.context).upload(image_id, req.raw.body or b"")
    return 204, None


def download(req, image_id):
    image = glance.GlanceService(req.context).show("image", image_id)
    if image["status"] != glance.ACTIVE:
        return 204, None
    response = webob.Response(body=image["name"].encode(), content_type="application/octet-stream")
    return response


def add_tag(req, image_id, tag):
    service = glance.GlanceService(req.context)
    image = service.show("image", image_id)
    tags = list(image.get("tags") or [])
    if tag not in tags:
        service.update_image(image_id, tags=tags + [tag])
    return 204, None


def delete_tag(req, image_id, tag):
    service = glance.GlanceService(req.context)
    image = service.show("image", image_id)
    if tag not in (image.get("tags") or []):
        raise exception.NotFound("Tag %s not found." % tag)
    service.update_image(image_id, tags=[t for t in image["tags"] if t != tag])
    return 204, None


def image_schema(req):
    properties = {key: {"type": ["null", "string"]} for key in CORE}
    return 200, {
        "name": "image",
        "properties": properties,
        "additionalProperties": {"type": "string"},
        "links": [],
    }


def images_schema(req):
    return 200, {
        "name": "images",
        "properties": {"images": {"type": "array", "items": image_schema(req)[1]}},
        "links": [],
    }


def import_info(req):
    return 200, {
        "import-methods": {
            "description": "Import methods available.",
            "type": "array",
            "value": ["glance-direct"],
        }
    }


def stores_info(req):
    return 200, {"stores": [{"id": "simcloud", "description": "simulated store", "default": True}]}


service = router.Service(
    "image",
    routes=[
        ("GET", "", versions),
        ("GET", "v2", versions),
        ("GET", "v2/images", list_images),
        ("POST", "v2/images", create_image),
        ("GET", "v2/images/{image_id}", show_image),
        ("PATCH", "v2/images/{image_id}", update_image),
        ("DELETE", "v2/images/{image_id}", delete_image),
        ("PUT", "v2/images/{image_id}/file", upload),
        ("GET", "v2/images/{image_id}/file", download),
        ("PUT", "v2/images/{image_id}/tags/{tag}", add_tag),
        ("DELETE", "v2/images/{image_id}/tags/{tag}", delete_tag),
        ("GET", "v2/schemas/image", image_schema),
        ("GET", "v2/schemas/images", images_schema),
        ("GET", "v2/info/import", import_info),
        ("GET", "v2/info/stores", stores_info),
    ],
    public=[("GET", ""), ("GET", "v2")],
    render_error=glance_error,
    data_uploads=[("PUT", "v2/images/{image_id}/file")],
)
