"""Stack, resource and event identities, as Heat passes them over RPC.

ident = HeatIdentifier('p1', 's1', '7cd9...')
dict(ident) == {'tenant': 'p1', 'stack_name': 's1', 'stack_id': '7cd9...', 'path': ''}
ident.url_path() == 'stacks/s1/7cd9...'
ResourceIdentifier(resource_name='r', **ident).url_path() == 'stacks/s1/7cd9.../resources/r'
"""

import collections.abc
import urllib.parse


class HeatIdentifier(collections.abc.Mapping):
    FIELDS = (TENANT, STACK_NAME, STACK_ID, PATH) = ("tenant", "stack_name", "stack_id", "path")

    def __init__(self, tenant, stack_name, stack_id, path=""):
        if path and not path.startswith("/"):
            path = "/" + path
        self.identity = {
            self.TENANT: tenant,
            self.STACK_NAME: stack_name,
            self.STACK_ID: str(stack_id),
            self.PATH: path,
        }

    @classmethod
    def from_arn(cls, arn):
        """Parse ``arn:openstack:heat::<tenant>:stacks/<name>/<id>[/path]``."""
        prefix = "arn:openstack:heat::"
        if not arn.startswith(prefix):
            raise ValueError('"%s" is not a valid ARN' % arn)
        tenant, _, rest = arn[len(prefix) :].partition(":")
        parts = rest.split("/", 3)
        if len(parts) < 3 or parts[0] != "stacks":
            raise ValueError('"%s" is not a valid ARN' % arn)
        path = "/" + parts[3] if len(parts) > 3 else ""
        return cls(
            urllib.parse.unquote(tenant),
            urllib.parse.unquote(parts[1]),
            urllib.parse.unquote(parts[2]),
            path,
        )

    def stack_path(self):
        return "%s/%s" % (
            urllib.parse.quote(self.stack_name, ""),
            urllib.parse.quote(self.stack_id, ""),
        )

    def url_path(self):
        return "stacks/%s%s" % (self.stack_path(), urllib.parse.quote(self.path))

    def arn(self):
        return "arn:openstack:heat::%s:%s" % (urllib.parse.quote(self.tenant, ""), self.url_path())

    def stack(self):
        return HeatIdentifier(self.tenant, self.stack_name, self.stack_id)

    def __getattr__(self, attr):
        if attr in self.FIELDS:
            return self.identity[attr]
        raise AttributeError(attr)

    def __getitem__(self, key):
        return self.identity[key]

    def __iter__(self):
        return iter(self.FIELDS)

    def __len__(self):
        return len(self.FIELDS)

    def __repr__(self):
        return repr(dict(self))


class ResourceIdentifier(HeatIdentifier):
    def __init__(self, tenant, stack_name, stack_id, path="", resource_name=None):
        if resource_name is not None:
            path = "/".join([path.rstrip("/"), "resources", resource_name])
        super().__init__(tenant, stack_name, stack_id, path)


class EventIdentifier(HeatIdentifier):
    def __init__(self, tenant, stack_name, stack_id, path="", event_id=None):
        if event_id is not None:
            path = "/".join([path.rstrip("/"), "events", event_id])
        super().__init__(tenant, stack_name, stack_id, path)
