"""Sync points: the database rows where a graph node collects the inputs of its predecessors.

One row per (entity, traversal, is_update), and one ``sync_point_input`` row per input
received there (an edge of the graph). ``sync`` adds a predecessor's input and counts it
atomically (heat_lite.db.api.sync_point_add_input) and, when every predecessor has
reported, calls back with all the inputs. The stack itself has a sync point keyed by
the stack id, collecting one input per graph root.

Node keys are tuples ``(resource_id, is_update)``; in the row they are written as Heat
writes them, ``"tuple:(3, True, 'resource')"``, and parsed back without ``ast``.

    sync_point.sync(stack_id, traversal, True, (7, True), predecessors={(5, True)},
                    new_data={(5, True): node_data}, callback=trigger)
"""

import re

from heat_lite.common import exception
from heat_lite.db import api as db_api

_KEY_RE = re.compile(r"^tuple:\((-?\d+), (True|False), '(\w+)'\)$")


def make_key(node):
    rsrc_id, is_update = node[0], node[1]
    return "tuple:(%d, %s, 'resource')" % (rsrc_id, bool(is_update))


def parse_key(key):
    match = _KEY_RE.match(key)
    if match is None:
        return key
    return int(match.group(1)), match.group(2) == "True"


def serialize_input_data(input_data):
    return {make_key(k): v for k, v in input_data.items()}


def deserialize_input_data(data):
    return {parse_key(k): v for k, v in (data or {}).items()}


def rows(stack_id, traversal_id, nodes, stack_extra=None):
    """The rows of a traversal's sync points (db_api.stack_update stores them with the
    graph): one per graph node plus one for the stack itself (whose extra_data starts as
    ``stack_extra``)."""
    points = [
        {
            "entity_id": str(rsrc_id),
            "traversal_id": traversal_id,
            "is_update": is_update,
            "stack_id": stack_id,
        }
        for rsrc_id, is_update in nodes
    ]
    points.append(
        {
            "entity_id": stack_id,
            "traversal_id": traversal_id,
            "is_update": True,
            "stack_id": stack_id,
            "extra_data": stack_extra,
        }
    )
    return points


def delete_all(stack_id, traversal_id):
    return db_api.sync_point_delete_all_by_stack_and_traversal(stack_id, traversal_id)


def sync(
    entity_id,
    traversal_id,
    is_update,
    predecessors,
    new_data,
    callback,
    new_failures=None,
    is_skip=False,
    write=None,
):
    """Record ``new_data`` (one ``{sender: data}``) at the sync point; call ``callback``
    once all inputs are in. ``write``: the sender's deferred state write, sent with the
    report (db_api.sync_point_add_input).

    ``callback(entity_id, input_data, resource_failures, skip_propagate)`` receives the
    merged input keyed by node tuples, the failures (``{name: reason}``) and skip flag
    sent along by any predecessor. Raises EntityNotFound when the sync point is gone
    (the traversal was superseded). Returns whether the callback ran.
    """
    targets = {entity_id: predecessors}
    done = sync_many(
        traversal_id, is_update, targets, new_data, callback, new_failures, is_skip, write
    )
    return entity_id in done


def sync_many(
    traversal_id,
    is_update,
    targets,
    new_data,
    callback,
    new_failures=None,
    is_skip=False,
    write=None,
):
    """``sync`` the same input into several sync points in one database round trip.

    ``targets`` maps entity ids to their predecessors. The input is a row per target
    (heat_lite.db.api.sync_point_add_input), counted in the sync point's atomic_key: the
    sender whose row makes the count reach the number of predecessors reads the inputs
    (a second round trip, once per completed sync point, saved where this input is the
    only one) and calls back. A sender that had reported there already changes nothing
    and completes nothing. Returns the entities whose callback ran; raises
    EntityNotFound if a target's sync point is gone.
    """
    ((sender, data),) = new_data.items()
    extra = {}
    if new_failures:
        extra["resource_failures"] = dict(new_failures)
    if is_skip:
        extra["skip_propagate"] = True
    counts = db_api.sync_point_add_input(
        targets, traversal_id, is_update, make_key(sender), data, extra or None, write=write
    )
    ready = [
        entity_id
        for entity_id, predecessors in targets.items()
        if counts.get(str(entity_id)) is not None and counts[str(entity_id)] >= len(predecessors)
    ]
    # a sync point whose only input is this one (a chain's link, a leaf) is not read back
    others = [entity_id for entity_id in ready if counts[str(entity_id)] > 1]
    inputs = db_api.sync_point_inputs(others, traversal_id, is_update) if others else {}
    own = ({make_key(sender): data}, extra or None)
    done = []
    for entity_id in ready:
        received, merged = inputs.get(str(entity_id), own)
        if _complete(entity_id, targets[entity_id], received, merged, callback):
            done.append(entity_id)
    missing = [entity_id for entity_id in targets if str(entity_id) not in counts]
    if missing:
        raise exception.EntityNotFound(entity="Sync Point", name=missing[0])
    return done


def _complete(entity_id, predecessors, received, extra, callback):
    if any(make_key(p) not in received for p in predecessors):
        return False
    extra = extra or {}
    callback(
        entity_id,
        deserialize_input_data(received),
        extra.get("resource_failures", {}),
        extra.get("skip_propagate", False),
    )
    return True
