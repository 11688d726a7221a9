"""One paging path for every collection: limit, marker, sort_key, sort_dir and ``next``."""

from magnum_lite.api import utils as api_utils


def page(obj_list, context, marker_obj_getter, marker, limit, sort_key, sort_dir, **kwargs):
    """Objects of one page: ``obj_list(context, limit=, marker=<id>, ...)``."""
    limit = api_utils.validate_limit(limit)
    sort_dir = api_utils.validate_sort_dir(sort_dir)
    marker_id = marker_obj_getter(marker).id if marker else None
    objs = obj_list(
        context, limit=limit, marker=marker_id, sort_key=sort_key, sort_dir=sort_dir, **kwargs
    )
    return objs, limit, sort_dir


def collection(cls, items, limit, url, sort_key, sort_dir, marker_attr="uuid"):
    coll = cls()
    setattr(coll, cls._type, items)
    coll.next = coll.get_next(
        limit, url=url, marker_attr=marker_attr, sort_key=sort_key, sort_dir=sort_dir
    )
    return coll
