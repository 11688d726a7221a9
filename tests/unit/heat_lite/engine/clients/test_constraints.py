"""The custom constraints that ask the (simulated) cloud, with Heat's messages."""

import pytest

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.engine import clients, constraints


def _check(name, value, ctx):
    schema = constraints.Schema(
        constraints.Schema.STRING, constraints=[constraints.CustomConstraint(name)]
    )
    schema.validate_constraints(value, ctx)


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("nova.flavor", "m1.huge", "The Flavor ID (m1.huge) could not be found."),
        ("nova.keypair", "nokey", "The Key (nokey) could not be found."),
        ("nova.server", "novm", "The Server (novm) could not be found."),
        ("glance.image", "noimage", "The Image (noimage) could not be found."),
        ("cinder.volume", "novol", "The Volume (novol) could not be found."),
        ("neutron.network", "nonet", "Unable to find network with name or id 'nonet'"),
        ("neutron.subnet", "nosub", "Unable to find subnet with name or id 'nosub'"),
        ("neutron.port", "noport", "Unable to find port with name or id 'noport'"),
        ("neutron.router", "nor", "Unable to find router with name or id 'nor'"),
        ("octavia.loadbalancer", "nolb", "Load Balancer nolb not found."),
    ],
)
def test_unknown_names_fail_with_heat_message(ctx, name, value, message):
    with pytest.raises(exception.StackValidationFailed) as err:
        _check(name, value, ctx)
    assert str(err.value) == "Error validating value '%s': %s" % (value, message)


def test_known_names_pass(ctx):
    neutron = clients.client_plugin(ctx, "neutron")
    net = neutron.create_net("private")
    subnet = neutron.create_subnet(net["id"], "10.0.0.0/24", "private-subnet")
    clients.client_plugin(ctx, "nova").create_keypair("mykey")
    volume = clients.client_plugin(ctx, "cinder").create_volume("vol", 1)
    for name, value in [
        ("nova.flavor", "m1.small"),
        ("nova.flavor", "3"),
        ("nova.keypair", "mykey"),
        ("glance.image", "cirros-0.6.2"),
        ("neutron.network", "public"),
        ("neutron.network", "private"),
        ("neutron.network", net["id"]),
        ("neutron.subnet", "private-subnet"),
        ("neutron.subnet", subnet["id"]),
        ("cinder.volume", volume["id"]),
    ]:
        _check(name, value, ctx)


def test_other_projects_objects_are_not_found(ctx, cloud):
    """In keystone mode the plugins act with the request's token, in its project."""
    CONF.set_override("auth_strategy", "keystone")
    token, project = cloud.token("admin")
    admin = ctx.from_dict(dict(ctx.to_dict(), auth_token=token, project_id=project))
    net = clients.client_plugin(admin, "neutron").create_net("theirs")
    assert net["project_id"] == project
    _check("neutron.network", "theirs", admin)
    token, project = cloud.token("demo")
    demo = ctx.from_dict(dict(ctx.to_dict(), auth_token=token, project_id=project))
    with pytest.raises(exception.StackValidationFailed, match="Unable to find network"):
        _check("neutron.network", "theirs", demo)


# -- [constraint_validation_cache] -----------------------------------------------------------


class _Clock:
    """dogpile.cache's clock (time.time of its region and lock modules), moved by hand."""

    def __init__(self):
        self.now = 1000.0

    def time(self):
        return self.now


@pytest.fixture
def cached(ctx, monkeypatch):
    """[cache] on (memory backend) in a fresh region; yields the clock and the lookups made."""
    import dogpile.cache.region
    import dogpile.lock

    from heat_lite.common import cache

    CONF.set_override("enabled", True, group="cache")
    CONF.set_override("backend", "dogpile.cache.memory", group="cache")
    monkeypatch.setattr(cache, "_region", None)
    clock = _Clock()
    monkeypatch.setattr(dogpile.cache.region, "time", clock)
    monkeypatch.setattr(dogpile.lock, "time", clock)
    lookups = []
    plugin = clients.client_plugin

    def counting(context, name):
        lookups.append(name)
        return plugin(context, name)

    monkeypatch.setattr(clients, "client_plugin", counting)
    return clock, lookups


def test_cache_serves_a_validated_value_until_it_expires(ctx, cached):
    clock, lookups = cached
    _check("glance.image", "cirros-0.6.2", ctx)
    _check("glance.image", "cirros-0.6.2", ctx)
    _check("nova.flavor", "m1.small", ctx)
    assert lookups == ["glance", "nova"]
    clock.now += CONF.constraint_validation_cache.expiration_time - 1
    _check("glance.image", "cirros-0.6.2", ctx)
    assert lookups == ["glance", "nova"]
    clock.now += 2  # past the 60 s of Heat's default
    _check("glance.image", "cirros-0.6.2", ctx)
    assert lookups == ["glance", "nova", "glance"]


def test_cache_keeps_projects_apart(ctx, cached):
    _clock, lookups = cached
    other = ctx.from_dict(dict(ctx.to_dict(), project_id="p2"))
    _check("neutron.network", "public", ctx)
    _check("neutron.network", "public", other)
    with pytest.raises(exception.StackValidationFailed, match="Unable to find subnet"):
        _check("neutron.subnet", "public", ctx)  # another constraint, same value
    assert lookups == ["neutron"] * 3


def test_cache_never_remembers_a_failure(ctx, cached):
    _clock, lookups = cached
    for _ in range(2):
        with pytest.raises(exception.StackValidationFailed, match="Unable to find network"):
            _check("neutron.network", "later", ctx)
    clients.client_plugin(ctx, "neutron").create_net("later")
    _check("neutron.network", "later", ctx)
    _check("neutron.network", "later", ctx)
    assert lookups == ["neutron"] * 4  # two misses, the lookup that found it, the create


@pytest.mark.parametrize("group", ["cache", "constraint_validation_cache"])
def test_cache_off_asks_every_time(ctx, cached, group):
    _clock, lookups = cached
    CONF.set_override("enabled" if group == "cache" else "caching", False, group=group)
    _check("glance.image", "cirros-0.6.2", ctx)
    _check("glance.image", "cirros-0.6.2", ctx)
    assert lookups == ["glance", "glance"]


# -- [resource_finder_cache] -----------------------------------------------------------------


@pytest.fixture
def finds(cached, monkeypatch):
    """The Neutron finds (REST look-ups) made, as (project, entity, name_or_id)."""
    from heat_lite.engine.clients.rest import neutron

    made = []
    find = neutron.NeutronClientPlugin.find

    def counting(plugin, entity, name_or_id):
        made.append((plugin.project_id, entity, name_or_id))
        return find(plugin, entity, name_or_id)

    monkeypatch.setattr(neutron.NeutronClientPlugin, "find", counting)
    return made


def test_finder_remembers_an_id_per_project_for_an_hour(ctx, cached, finds):
    clock, _lookups = cached
    other = ctx.from_dict(dict(ctx.to_dict(), project_id="p2"))
    public = clients.client_plugin(ctx, "neutron").find("net", "public")["id"]
    finds.clear()
    for context in (ctx, ctx, other):
        neutron = clients.client_plugin(context, "neutron")
        assert neutron.find_resourceid_by_name_or_id("net", "public") == public
    assert neutron.find_resourceid_by_name_or_id("subnet", "public-subnet")
    assert finds == [
        (ctx.project_id, "net", "public"),
        ("p2", "net", "public"),
        ("p2", "subnet", "public-subnet"),
    ]
    clock.now += CONF.resource_finder_cache.expiration_time + 1
    clients.client_plugin(ctx, "neutron").find_resourceid_by_name_or_id("net", "public")
    assert len(finds) == 4


def test_finder_never_remembers_a_miss(ctx, finds):
    neutron = clients.client_plugin(ctx, "neutron")
    with pytest.raises(Exception, match="Unable to find network"):
        neutron.find_resourceid_by_name_or_id("net", "later")
    net = neutron.create_net("later")
    assert neutron.find_resourceid_by_name_or_id("net", "later") == net["id"]
    assert finds == [(ctx.project_id, "net", "later")] * 2


@pytest.mark.parametrize("group", ["cache", "resource_finder_cache"])
def test_finder_off_asks_every_time(ctx, finds, group):
    CONF.set_override("enabled" if group == "cache" else "caching", False, group=group)
    neutron = clients.client_plugin(ctx, "neutron")
    neutron.find_resourceid_by_name_or_id("net", "public")
    neutron.find_resourceid_by_name_or_id("net", "public")
    assert len(finds) == 2


@pytest.fixture
def gets(monkeypatch):
    """The flavor and image look-ups the nova and glance plugins make, as (name, value)."""
    from heat_lite.engine.clients.rest import glance, nova

    asked = []
    for cls, name in (
        (nova.NovaClientPlugin, "get_flavor"),
        (glance.GlanceClientPlugin, "get_image"),
    ):
        real = getattr(cls, name)

        def counting(plugin, value, real=real, name=name):
            asked.append((name, value))
            return real(plugin, value)

        monkeypatch.setattr(cls, name, counting)
    return asked


def test_flavor_and_image_ids_are_remembered_too(ctx, cached, gets):
    """Heat's nova and glance plugins memoize _find_flavor_id and _find_image_id alike."""
    for _ in range(2):
        assert clients.client_plugin(ctx, "nova").find_flavor_by_name_or_id("m1.small") == "2"
        image = clients.client_plugin(ctx, "glance").find_image_by_name_or_id("cirros-0.6.2")
    assert image == clients.client_plugin(ctx, "glance").show("image", image)["id"]
    assert gets == [("get_flavor", "m1.small"), ("get_image", "cirros-0.6.2")]


def test_a_validated_flavor_or_image_is_found_again_without_asking(ctx, cached, gets):
    """As in Heat, nova.flavor and glance.image validate through the finders
    (find_flavor_by_name_or_id, find_image_by_name_or_id): the create that follows a
    validation takes the id the validation found."""
    _check("nova.flavor", "m1.small", ctx)
    _check("glance.image", "cirros-0.6.2", ctx)
    assert gets == [("get_flavor", "m1.small"), ("get_image", "cirros-0.6.2")]
    assert clients.client_plugin(ctx, "nova").find_flavor_by_name_or_id("m1.small") == "2"
    assert clients.client_plugin(ctx, "glance").find_image_by_name_or_id("cirros-0.6.2")
    assert len(gets) == 2
