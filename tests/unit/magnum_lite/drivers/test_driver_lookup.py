"""Driver lookup through the ``magnum_lite.drivers`` entry points."""

import types

import pytest

from magnum_lite.common import exception
from magnum_lite.conf import CONF
from magnum_lite.drivers.common import driver
from magnum_lite.drivers.k8s_fedora_coreos_v1 import driver as fcos

pytestmark = pytest.mark.unit


@pytest.fixture(autouse=True)
def fresh_cache():
    driver.load_drivers.cache_clear()
    yield
    driver.load_drivers.cache_clear()


def test_lookup_by_type_and_by_name():
    assert isinstance(driver.Driver.get_driver("vm", "fedora-coreos", "kubernetes"), fcos.Driver)
    found = driver.Driver.get_driver("bm", "x", "y", driver_name="k8s_fedora_coreos_v1")
    assert isinstance(found, fcos.Driver)
    template = types.SimpleNamespace(
        server_type="vm", cluster_distro="fedora-coreos", coe="kubernetes", driver=None
    )
    cluster = types.SimpleNamespace(cluster_template=template)
    assert isinstance(driver.Driver.get_driver_for_cluster(None, cluster), fcos.Driver)


def test_unsupported_type_names_what_is_loaded():
    with pytest.raises(exception.ClusterTypeNotSupported) as err:
        driver.Driver.get_driver("vm", "ubuntu", "kubernetes")
    assert str(err.value) == (
        "Cluster type (vm, ubuntu, kubernetes) is not supported by any loaded cluster "
        "driver. Loaded drivers support: (vm, fedora-coreos, kubernetes)."
    )


def test_disabled_drivers_are_not_loaded():
    CONF.set_override("disabled_drivers", ["k8s_fedora_coreos_v1"], group="drivers")
    try:
        with pytest.raises(exception.ClusterTypeNotSupported, match="no cluster drivers"):
            driver.Driver.get_driver("vm", "fedora-coreos", "kubernetes")
    finally:
        CONF.clear_override("disabled_drivers", group="drivers")
