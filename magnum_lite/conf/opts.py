"""Every option group for oslo-config-generator (entry point ``oslo.config.opts``)."""

from magnum_lite.conf import MODULES


def list_opts():
    groups = {}
    for module in MODULES:
        for group, opts in module.list_opts():
            groups.setdefault(group, []).extend(opts)
    return sorted(groups.items(), key=lambda item: (item[0] != "DEFAULT", item[0]))
