"""The request context: who is calling, carried from the API through RPC to the workers.

ctx = RequestContext(user_id='u1', project_id='p1', roles=['member'])
RequestContext.from_dict(ctx.to_dict()).project_id == 'p1'
"""

from oslo_context import context


class RequestContext(context.RequestContext):
    """oslo.context plus the keys Heat puts on the wire (username, project_name, ...)."""

    def __init__(
        self,
        username=None,
        password=None,
        region_name=None,
        auth_url=None,
        auth_token_info=None,
        **kwargs,
    ):
        kwargs.setdefault("is_admin", "admin" in (kwargs.get("roles") or []))
        super().__init__(**kwargs)
        self.username = username
        self.password = password
        self.region_name = region_name
        self.auth_url = auth_url
        # the token's validated body, kept (as Heat's context keeps it) for a trust-scoped
        # token only: the identity service refuses to rescope one, so the client plugins
        # act with it as it is (a Magnum cluster's trustee calls Heat so)
        self.auth_token_info = auth_token_info

    @property
    def trust_id(self):
        """The trust the caller's token is scoped to (None for any other token)."""
        token = (self.auth_token_info or {}).get("token") or {}
        return (token.get("OS-TRUST:trust") or {}).get("id")

    @property
    def tenant_id(self):
        return self.project_id

    def to_dict(self):
        d = super().to_dict()
        d.update(
            username=self.username,
            region_name=self.region_name,
            auth_url=self.auth_url,
            project_name=self.project_name,
            auth_token_info=self.auth_token_info,
        )
        return d

    @classmethod
    def from_dict(cls, values):
        return cls(
            auth_token=values.get("auth_token"),
            user_id=values.get("user_id", values.get("user")),
            project_id=values.get("project_id", values.get("tenant")),
            project_name=values.get("project_name"),
            user_name=values.get("user_name"),
            username=values.get("username"),
            region_name=values.get("region_name"),
            auth_url=values.get("auth_url"),
            auth_token_info=values.get("auth_token_info"),
            roles=values.get("roles") or [],
            is_admin=values.get("is_admin", False),
            read_only=values.get("read_only", False),
            show_deleted=values.get("show_deleted", False),
            request_id=values.get("request_id"),
            overwrite=False,
        )


def get_admin_context():
    return RequestContext(
        user_id="admin", project_id="admin", roles=["admin"], is_admin=True, overwrite=False
    )
