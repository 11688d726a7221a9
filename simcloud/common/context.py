"""Who a request acts for: the token's user, project and roles.

ctx = RequestContext(user_id='u1', project_id='p1', roles=['member'])
ctx.is_admin        # False
RequestContext.admin()   # the cloud itself (seeding): sees everything
"""


class RequestContext:
    def __init__(self, user_id=None, project_id=None, roles=(), token=None, token_data=None):
        self.user_id = user_id
        self.project_id = project_id
        self.roles = list(roles)
        self.token = token
        self.token_data = token_data
        self.is_admin = "admin" in self.roles

    @classmethod
    def admin(cls):
        """The cloud acting for itself: no project, every object visible."""
        return cls(roles=["admin"])
