"""Seeding (as ``keystone-manage bootstrap`` and devstack do): the admin project, user and
role, the member, reader and service roles, a demo project/user, the service project and
its users; then the cloud's flavors, images, the public network and the users' keypairs.

Ids are derived from names, so any process may seed and every process agrees. A seeded
user's password is set again when the config's no longer matches it.

    bootstrap.run()
"""

import uuid

from simcloud.cloud import glance, neutron, nova
from simcloud.common import context
from simcloud.conf import CONF
from simcloud.db import identity as db
from simcloud.identity import passwords

_NAMESPACE = uuid.UUID("5d8e3b7a-1c2f-4e6a-9b0d-3f7c2a1e8b64")
ROLES = ("admin", "member", "reader", "service")


def seeded_id(kind, name):
    return uuid.uuid5(_NAMESPACE, "%s:%s" % (kind, name)).hex


def _ensure(kind, name, **values):
    obj_id = seeded_id(kind, name)
    db.insert(kind, dict(values, id=obj_id, name=name))
    return obj_id


def _ensure_user(name, password, project_id, roles):
    user_id = seeded_id("user", name)
    user = db.get("user", user_id)
    if user is None:
        db.insert(
            "user",
            dict(
                id=user_id,
                name=name,
                domain_id="default",
                enabled=True,
                default_project_id=project_id,
                password_hash=passwords.hash_password(password),
            ),
        )
    elif not passwords.check_password(password, user.password_hash):
        db.update("user", user_id, {"password_hash": passwords.hash_password(password)})
    for role in roles:
        db.assignment_add(user_id, project_id, seeded_id("role", role))
    return user_id


def seed_identity():
    for role in ROLES:
        _ensure("role", role)
    conf = CONF.identity
    admin = _ensure("project", "admin", domain_id="default", description="Bootstrap project")
    demo = _ensure("project", "demo", domain_id="default", description="Demo project")
    service = _ensure("project", "service", domain_id="default", description="Service project")
    _ensure_user("admin", conf.admin_password, admin, ("admin", "member", "reader"))
    _ensure_user("demo", conf.demo_password, demo, ("member", "reader"))
    for name in conf.service_users:
        _ensure_user(name, conf.service_password, service, ("admin", "service"))
    return admin


def seed_cloud(admin_project_id):
    ctx = context.RequestContext(
        user_id=seeded_id("user", "admin"), project_id=admin_project_id, roles=["admin"]
    )
    nova.NovaService(ctx).seed_flavors()
    glance.GlanceService(ctx).seed_images()
    neutron.NeutronService(ctx).ensure_public()
    seed_keypairs()


def seed_keypairs():
    """[simulation] keypairs: each made as its user, in the user's own project."""
    for entry in CONF.simulation.keypairs:
        user_name, _, key_name = entry.partition(":")
        user = db.get("user", seeded_id("user", user_name))
        if user is None or not key_name:
            raise ValueError("[simulation] keypairs: %r names no seeded user and key" % entry)
        ctx = context.RequestContext(
            user_id=user.id, project_id=user.default_project_id, roles=["member"]
        )
        nova.NovaService(ctx).seed_keypair(key_name)


def run():
    seed_cloud(seed_identity())
