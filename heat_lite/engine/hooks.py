"""Breakpoints: the ``hooks`` of resource_registry ``resources`` entries (Heat's hooks).

An environment may stop a resource before it is created, updated or deleted:

    resource_registry:
      resources:
        server_*:          # fnmatch pattern on the resource name
          hooks: [pre-create, pre-update]
        nested_res:        # a nested stack resource: entries for its child's resources
          inner:
            hooks: pre-delete

The worker reaching such a resource takes its lock, records the hook in the resource's
data (key = the hook, value ``"True"``), writes the event ``CREATE paused until Hook
pre-create is cleared`` (with the resource's unchanged state) and waits. A signal
``{"unset_hook": "pre-create"}`` (``openstack stack hook clear``) deletes the data
entry and writes ``Hook pre-create is cleared``; the worker goes on.

    hooks.validate(env)                              # InvalidBreakPointHook for a bad type
    hooks.matches(env, 'server_1', hooks.PRE_CREATE)  # True
    hooks.check_unset(rsrc, details)                 # before a signal is handled
"""

import collections.abc
import fnmatch
import time

from heat_lite.common import exception
from heat_lite.db import api as db_api
from heat_lite.engine import event

HOOK_TYPES = (PRE_CREATE, PRE_UPDATE, PRE_DELETE, POST_CREATE, POST_UPDATE, POST_DELETE) = (
    "pre-create",
    "pre-update",
    "pre-delete",
    "post-create",
    "post-update",
    "post-delete",
)
HOOKS = "hooks"
UNSET_HOOK = "unset_hook"
HOOK_SET = "True"

# how often a paused resource looks whether its hook was cleared
POLL_START, POLL_CAP = 0.01, 0.25


def _hook_list(value):
    if isinstance(value, str):
        return [value]
    if isinstance(value, collections.abc.Sequence):
        return list(value)
    return None


def _valid(value):
    hooks = _hook_list(value)
    return hooks is not None and all(h in HOOK_TYPES for h in hooks)


def validate(env):
    """Every ``hooks`` entry of the registry (at any depth) names known hook types."""
    _validate_entries((env or {}).get("resource_registry") or {})


def _validate_entries(mapping):
    for key, value in mapping.items():
        if key == HOOKS and not _valid(value):
            raise exception.InvalidBreakPointHook(
                message='Invalid hook type "%s" for resource breakpoint, acceptable hook '
                "types are: %s" % (value, HOOK_TYPES)
            )
        if isinstance(value, dict):
            _validate_entries(value)


def _resources_section(env):
    registry = (env or {}).get("resource_registry") or {}
    resources = registry.get("resources") or {}
    return resources if isinstance(resources, dict) else {}


def matches(env, resource_name, hook):
    """Whether an entry whose pattern matches ``resource_name`` sets ``hook``."""
    for pattern, entry in _resources_section(env).items():
        if not (isinstance(entry, dict) and fnmatch.fnmatchcase(resource_name, str(pattern))):
            continue
        if hook in (_hook_list(entry.get(HOOKS)) or ()):
            return True
    return False


def child_resources(env, resource_name):
    """The ``resources`` section a nested stack of resource ``resource_name`` gets: the
    contents of the entries matching its name (exact name last, so it wins), as Heat's
    ``remove_resources_except``."""
    section = _resources_section(env)
    merged = {}
    for pattern, entry in section.items():
        if isinstance(entry, dict) and fnmatch.fnmatchcase(resource_name, str(pattern)):
            merged.update(entry)
    if isinstance(section.get(resource_name), dict):
        merged.update(section[resource_name])
    return merged


# -- the resource side ---------------------------------------------------------------------


def is_set(rsrc, hook):
    return db_api.resource_data_get_all(rsrc.id).get(hook) == HOOK_SET


def clear(rsrc, hook):
    db_api.resource_data_delete(rsrc.id, hook)
    if rsrc._data is not None:
        rsrc._data.pop(hook, None)


def wait_while_set(rsrc, action, hook, deadline):
    """Record the hook and wait until a signal clears it (the caller holds the lock).

    A stack delete (or abandon) ends the wait as it ends a running task: the worker's
    ``cancel_event`` (or, should that not arrive, the DELETE traversal seen in the stack
    row) raises CancelOperation; past ``deadline`` (time.monotonic()) Timeout. Either
    way the hook is cleared first. A superseding update does not end it (as in Heat).
    """
    rsrc.data_set(hook, HOOK_SET)
    event.add_resource_event(rsrc, "%s paused until Hook %s is cleared" % (action, hook))
    cancel = getattr(rsrc, "cancel_event", None)
    wait = POLL_START
    while is_set(rsrc, hook):
        failure = None
        if _deleting(rsrc) or (cancel is not None and cancel.is_set()):
            failure = exception.CancelOperation()
        elif deadline is not None and time.monotonic() > deadline:
            failure = exception.Timeout()
        if failure is not None:
            clear(rsrc, hook)
            event.add_resource_event(rsrc, "Failure occurred while waiting.")
            raise failure
        if cancel is None:
            time.sleep(wait)
        else:
            cancel.wait(wait)
        wait = min(wait * 2, POLL_CAP)


def _deleting(rsrc):
    """The stack is gone, or a DELETE traversal replaced the one the resource is in."""
    row = db_api.stack_get(rsrc.stack.id, show_deleted=True)
    if row is None:
        return True
    return row.current_traversal != rsrc.stack.current_traversal and row.action == "DELETE"


def check_unset(rsrc, details):
    """A signal ``{"unset_hook": <hook>}`` must name a hook that is set on ``rsrc``."""
    if not (isinstance(details, dict) and UNSET_HOOK in details):
        return False
    hook = details[UNSET_HOOK]
    if hook not in HOOK_TYPES:
        raise exception.InvalidBreakPointHook(
            message='Invalid hook type "%s" for %s' % (hook, describe(rsrc))
        )
    if not is_set(rsrc, hook):
        raise exception.InvalidBreakPointHook(
            message='The "%s" hook is not defined on %s' % (hook, describe(rsrc))
        )
    return True


def unset(rsrc, details):
    """Clear the hook a signal names (checked by ``check_unset``) and say so in an event."""
    hook = details[UNSET_HOOK]
    clear(rsrc, hook)
    event.add_resource_event(rsrc, "Hook %s is cleared" % hook)


def describe(rsrc):
    """Heat's ``str(resource)``: ``NoneResource "a" Stack "s" [<stack id>]`` (with the
    physical id after the name once there is one)."""
    text = '%s "%s"' % (type(rsrc).__name__, rsrc.name)
    if rsrc.resource_id is not None:
        text += " [%s]" % rsrc.resource_id
    return '%s Stack "%s" [%s]' % (text, rsrc.stack.name, rsrc.stack.id)
