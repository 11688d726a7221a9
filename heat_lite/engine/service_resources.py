"""The engine's resource and event RPC methods: resource list (with nested_depth) and
show, and the stack's events (docs/heat-api.md §4.3, §4.4).

``ResourceMethods`` is an endpoint of topic ``engine`` (heat_lite.engine.service);
they read the database and format with heat_lite.engine.api.

    engine.list_stack_resources(ctx, identity, nested_depth=2)
    engine.list_events(ctx, identity, filters={'uuid': event_id})   # event show
"""

import hashlib
import time

import oslo_messaging

from heat_lite.common import exception, identifier, messaging
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import api, stack_loader, templates
from heat_lite.engine import stack as parser
from heat_lite.rpc import api as rpc_api

expected = oslo_messaging.expected_exceptions(exception.HeatException)

# rows formatted between two chances for the engine's other green threads to run
_YIELD_EVERY = 100


class ResourceMethods:
    """Resource and event endpoint methods."""

    target = oslo_messaging.Target(version=rpc_api.ENGINE_RPC_VERSION)

    @expected
    def list_stack_resources(
        self, cnxt, stack_identity, nested_depth=0, with_detail=False, filters=None
    ):
        stack = stack_loader.load_stack(cnxt, stack_identity, show_deleted=True)
        return _list(cnxt, stack, nested_depth, with_detail, filters)

    @expected
    def list_stack_resources_if_changed(
        self,
        cnxt,
        stack_identity,
        version_seen=None,
        nested_depth=0,
        with_detail=False,
        filters=None,
    ):
        """heat-lite's conditional list_stack_resources (docs/rpc-and-convergence.md
        §2.2): ``{"version": v, "resources": None}`` when the list would be the one of
        ``version_seen``; else ``{"version": v or None, "resources": [...]}``. Only a plain
        list (no detail, no nested stacks) has a version: the API then answers a polled,
        unchanged 1,000-resource stack without the rows being read, formatted, sent
        and decoded again."""
        stack = stack_loader.load_stack(cnxt, stack_identity, show_deleted=True)
        current = None if nested_depth or with_detail else _list_version(stack)
        if current is not None and current == version_seen:
            return {"version": current, "resources": None}
        resources = _list(cnxt, stack, nested_depth, with_detail, filters)
        return {"version": current, "resources": resources}

    @expected
    def describe_stack_resource(self, cnxt, stack_identity, resource_name, with_attr=None):
        stack = stack_loader.load_stack(cnxt, stack_identity, show_deleted=True)
        rows = current_rows(db_api.resource_get_all_by_stack(stack.id))
        for row in rows:
            if row.name == resource_name:
                return resource_detail(cnxt, stack, rows, row, with_attr)
        raise exception.ResourceNotFound(resource_name=resource_name, stack_name=stack.name)

    @expected
    def list_events(
        self,
        cnxt,
        stack_identity,
        filters=None,
        limit=None,
        marker=None,
        sort_keys=None,
        sort_dir=None,
        nested_depth=None,
    ):
        """The stack's events; with ``nested_depth`` also those of its nested stacks down
        to that depth, each with a ``root_stack`` (the clients then skip their own walk)."""
        stack = stack_loader.load_stack(cnxt, stack_identity, show_deleted=True)
        idents = {stack.id: stack.identifier()}
        root = None
        if nested_depth:
            root = idents[stack.id]
            idents.update(_descendants(stack.id, min(nested_depth, CONF.max_nested_stack_depth)))
        rows = db_api.event_get_all_by_stacks(
            list(idents),
            filters=filters,
            limit=limit,
            marker=marker,
            sort_keys=sort_keys,
            sort_dir=sort_dir,
        )
        # one event asked for by its uuid (event show) comes with its resource's
        # properties at the time, as Heat's list_events does
        with_props = bool(filters and "uuid" in filters)
        return [
            api.format_event(
                r,
                idents[r.stack_id],
                root,
                db_api.resource_properties_data_get(r.rsrc_prop_data_id)
                if with_props and r.rsrc_prop_data_id is not None
                else None,
            )
            for r in rows
        ]


def _list(cnxt, stack, nested_depth, with_detail, filters):
    # as Heat: status=CREATE_COMPLETE filters on action CREATE and status COMPLETE
    filters = api.translate_filters(filters)
    resources = _stack_resources(cnxt, stack, nested_depth, with_detail, filters)
    # without detail every value is a string, a list of them or an identity dict
    return resources if with_detail else messaging.PlainJson(resources)


def _stack_resources(cnxt, stack, nested_depth, with_detail, filters):
    """The stack's resources, then (``nested_depth`` > 0) those of its child stacks,
    each marked with the ``parent_resource`` that owns its stack."""
    rows = current_rows(db_api.resource_get_all_by_stack(stack.id, not with_detail))
    children = _child_stacks(stack)
    required_by = _required_by(rows)
    stack_ident = stack.identifier().identity
    list_key = None if with_detail else _list_key(stack)
    tmpls = {}
    result = []
    for number, row in enumerate(rows, 1):
        if number % _YIELD_EVERY == 0:
            # a 1,000-resource list is ~10 ms of CPU: the engine's other calls (a
            # stack show, a worker's call) go on meanwhile (green threads yield here)
            time.sleep(0)
        child = children.get(row.nova_instance)
        key = _item_key(list_key, row, required_by[row.id], child)
        info = _formatted.get(key) if key is not None else None
        if info is None:
            info = _format_resource(
                cnxt,
                stack,
                row,
                required_by[row.id],
                with_detail,
                child=child,
                stack_ident=stack_ident,
                tmpls=tmpls,
            )
            if key is not None:
                _remember(key, info)
        if not filters or _matches(info, filters):
            result.append(info)
    for row in rows if nested_depth and nested_depth > 0 else ():
        child = children.get(row.nova_instance)
        if child is None:
            continue
        child_stack = parser.Stack.load(cnxt, row=child)
        result.extend(_stack_resources(cnxt, child_stack, nested_depth - 1, with_detail, filters))
    return result


def resource_detail(cnxt, stack, rows, row, with_attr=None):
    """One resource of ``rows`` in detail (description, attributes, metadata)."""
    child = _child_stacks(stack).get(row.nova_instance)
    required_by = _required_by(rows)[row.id]
    return _format_resource(cnxt, stack, row, required_by, True, with_attr, child=child)


def _format_resource(
    cnxt,
    stack,
    row,
    required_by,
    detail,
    with_attr=None,
    child=None,
    stack_ident=None,
    tmpls=None,
):
    """Heat's format_stack_resource; ``required_by``: the sorted names of the rows that
    require it; ``child`` is the row of the stack it owns, if any. A list passes
    the stack's identity and a dict for the templates its rows name, each looked up once."""
    tmpl = stack.t
    if row.current_template_id:
        tmpls = {} if tmpls is None else tmpls
        tmpl = tmpls.get(row.current_template_id)
        if tmpl is None:
            tmpl = tmpls[row.current_template_id] = templates.load(row.current_template_id)
    rsrc_type = tmpl.resource_type(row.name)
    info = api.format_stack_resource(row, stack, rsrc_type, required_by, child, stack_ident)
    if detail:
        info.update(_details(cnxt, stack, row, tmpl, with_attr))
    return info


def _details(cnxt, stack, row, tmpl, with_attr):
    """``description``, ``metadata`` and ``attributes`` (all of the type's, plus
    ``with_attr``); the API shows metadata only through its own endpoint."""
    from heat_lite.engine import resource as rsrc_mod

    rsrc_stack = stack
    if tmpl is not stack.t:
        rsrc_stack = parser.Stack.load(cnxt, row=db_api.stack_get(stack.id, True))
        rsrc_stack.t = tmpl
    defn = rsrc_stack.definitions.get(row.name)
    metadata = row.rsrc_metadata or {}
    if defn is None:
        return {"description": "", "metadata": metadata, "attributes": {}}
    details = {"description": defn.description, "metadata": metadata, "attributes": {}}
    try:
        rsrc = rsrc_mod.Resource.load(row, rsrc_stack, defn)
    except exception.HeatException:
        return details
    for name in _attribute_names(rsrc) + list(with_attr or []):
        try:
            details["attributes"][name] = rsrc.get_attribute(name)
        except Exception:
            details["attributes"][name] = None
    return details


# The items of the resource lists made lately, by all that an item shows: the rows of a
# polled stack that did not change are not formatted again (a third of the engine's CPU
# for a list of 1,000). Items are shared between answers, so nothing may change them.
_FORMATTED_MAX = 10000
_formatted = {}


def _list_key(stack):
    """What a list item shows of its stack, or None when the stack's template has no
    stored id (rows typed by it cannot be recognised then)."""
    shown = _shown_of_stack(stack)
    return None if shown is None else (db_api.generation(),) + shown


def _shown_of_stack(stack):
    template_id = getattr(stack.t, "id", None)
    if template_id is None:
        return None
    return (
        stack.id,
        stack.name,
        stack.tenant,
        stack.owner_id,
        stack.parent_resource_name,
        template_id,
    )


def _list_version(stack):
    """The version of the stack's plain resource list (a string), or None when its
    template has no stored id. Read before the rows, so a list is never older than the
    version it is sent with."""
    shown = _shown_of_stack(stack)
    if shown is None:
        return None
    # the same on every engine: no process's own cache generation in it
    state = repr((shown, db_api.resources_version(stack.id)))
    return hashlib.sha1(state.encode()).hexdigest()


def _item_key(list_key, row, required_by, child):
    """Everything format_stack_resource reads of a row (stored templates never change)."""
    if list_key is None:
        return None
    return (
        list_key,
        row.id,
        row.name,
        row.nova_instance,
        row.action,
        row.status,
        row.status_reason,
        row.created_at,
        row.updated_at,
        row.current_template_id,
        tuple(required_by),
        (child.tenant, child.name, child.id) if child is not None else None,
    )


def _remember(key, info):
    if len(_formatted) >= _FORMATTED_MAX:
        _formatted.clear()
    _formatted[key] = info


def _attribute_names(rsrc):
    """The attributes resource show lists: the type's schema; for a provider template
    resource (Heat's TemplateResource) the outputs of its template."""
    names = list(type(rsrc).attributes_schema)
    if getattr(rsrc, "template_name", None):
        try:
            child = rsrc.child_template()
        except (exception.HeatException, ValueError):
            return names
        names += [n for n in (child.get("outputs") or child.get("Outputs") or {}) if n not in names]
    return names


def _required_by(rows):
    """{row id: sorted names of the rows whose ``requires`` name it}, in one pass over the
    edges (not a scan of all N rows for each of a list's N rows)."""
    found = {r.id: [] for r in rows}
    for row in rows:
        for required in set(row.requires or ()):
            if required in found:
                found[required].append(row.name)
    for dependents in found.values():
        dependents.sort()
    return found


def _descendants(stack_id, depth):
    """{id: HeatIdentifier} of the nested stacks under ``stack_id``, ``depth`` levels down."""
    found, level = {}, [stack_id]
    for _ in range(depth):
        if not level:
            break
        rows = db_api.stack_get_all(
            None, show_nested=True, show_deleted=True, filters={"owner_id": level}
        )
        found.update((r.id, identifier.HeatIdentifier(r.tenant, r.name, r.id)) for r in rows)
        level = [r.id for r in rows]
    return found


def _child_stacks(stack):
    """{id: row} of the stacks whose owner is ``stack`` (its nested stacks)."""
    rows = db_api.stack_get_all(None, show_nested=True, filters={"owner_id": stack.id})
    return {row.id: row for row in rows}


def current_rows(rows):
    """One row per resource name: the live one, not a replaced or deleted leftover."""
    by_name = {}
    for row in rows:
        best = by_name.get(row.name)
        if (
            best is None
            or (row.replaced_by is None and best.replaced_by is not None)
            or row.id > best.id
            and row.replaced_by is None
        ):
            by_name[row.name] = row
    return sorted(by_name.values(), key=lambda r: r.id)


def _matches(info, filters):
    for key, value in (filters or {}).items():
        values = value if isinstance(value, list) else [value]
        field = {
            "name": "resource_name",
            "status": "resource_status",
            "action": "resource_action",
            "type": "resource_type",
            "id": "resource_identity",
            "physical_resource_id": "physical_resource_id",
        }.get(key, key)
        actual = info.get(field)
        if key == "type":
            if not any(v in (actual or "") for v in values):
                return False
        elif key != "id" and actual not in values:
            return False
    return True
