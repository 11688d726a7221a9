"""The drivers' registry (what each driver runs, no driver code) and the conductor's
loader (the Driver of a cluster, from the module the registry names)."""

import ast
import importlib
import pathlib
import types

import pytest

from magnum_lite.common import exception
from magnum_lite.conf import CONF
from magnum_lite.drivers import loader, registry
from magnum_lite.drivers.common import driver
from magnum_lite.drivers.k8s_fedora_coreos_v1 import driver as fcos

pytestmark = pytest.mark.unit


@pytest.fixture
def disabled():
    def disable(names):
        CONF.set_override("disabled_drivers", names, group="drivers")

    yield disable
    CONF.clear_override("disabled_drivers", group="drivers")


def test_lookup_by_type_and_by_name():
    info = registry.get_driver_info("vm", "fedora-coreos", "kubernetes")
    assert info.name == "k8s_fedora_coreos_v1"
    assert registry.get_driver_info("bm", "x", "y", driver_name="k8s_fedora_coreos_v1") is info
    assert isinstance(loader.get_driver("vm", "fedora-coreos", "kubernetes"), fcos.Driver)
    found = loader.get_driver("bm", "x", "y", driver_name="k8s_fedora_coreos_v1")
    assert isinstance(found, fcos.Driver)
    template = types.SimpleNamespace(
        server_type="vm", cluster_distro="fedora-coreos", coe="kubernetes", driver=None
    )
    assert registry.get_driver_info_for_template(template) is info
    cluster = types.SimpleNamespace(cluster_template=template)
    assert isinstance(loader.get_driver_for_cluster(None, cluster), fcos.Driver)


def test_an_unknown_driver_name_falls_back_to_the_type():
    info = registry.get_driver_info("vm", "fedora-coreos", "kubernetes", driver_name="nope")
    assert info.name == "k8s_fedora_coreos_v1"


def test_unsupported_type_names_what_is_loaded():
    expected = (
        "Cluster type (vm, ubuntu, kubernetes) is not supported by any loaded cluster "
        "driver. Loaded drivers support: (vm, fedora-coreos, kubernetes)."
    )
    with pytest.raises(exception.ClusterTypeNotSupported) as err:
        registry.get_driver_info("vm", "ubuntu", "kubernetes")
    assert str(err.value) == expected
    with pytest.raises(exception.ClusterTypeNotSupported) as err:
        loader.get_driver("vm", "ubuntu", "kubernetes")
    assert str(err.value) == expected


def test_disabled_drivers_are_found_on_neither_side(disabled):
    disabled(["k8s_fedora_coreos_v1"])
    with pytest.raises(exception.ClusterTypeNotSupported, match="no cluster drivers"):
        registry.get_driver_info("vm", "fedora-coreos", "kubernetes")
    with pytest.raises(exception.ClusterTypeNotSupported, match="no cluster drivers"):
        loader.get_driver("bm", "x", "y", driver_name="k8s_fedora_coreos_v1")


def test_master_size_and_resize():
    info = registry.get_driver_info("vm", "fedora-coreos", "kubernetes")
    for count in (1, 3, 5):
        info.validate_master_size(count)
    for count in (0, 2, 4):
        with pytest.raises(exception.MasterNGSizeInvalid, match="size of %d is" % count):
            info.validate_master_size(count)
    with pytest.raises(exception.MasterNGResizeNotSupported):
        info.validate_master_resize(3)
    resizable = registry.DriverInfo("x", "x", (), master_resize_supported=True)
    resizable.validate_master_resize(3)
    with pytest.raises(exception.MasterNGSizeInvalid):
        resizable.validate_master_resize(2)


def test_every_registered_module_has_a_driver():
    names = [info.name for info in registry.DRIVERS]
    assert len(names) == len(set(names))
    for info in registry.DRIVERS:
        cls = importlib.import_module(info.module).Driver
        assert issubclass(cls, driver.Driver), info.module
        assert all(len(cluster_type) == 3 for cluster_type in info.provides), info.name


def _type_checking_imports(path):
    """The modules imported under ``if typing.TYPE_CHECKING:`` in a source file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                if isinstance(child, ast.Import):
                    found.update(alias.name for alias in child.names)
    return found


def test_the_loader_declares_every_module_it_loads():
    """lint-imports sees the loader's imports by name only through its TYPE_CHECKING
    imports: they must be the registry's modules, no more, no fewer."""
    declared = _type_checking_imports(pathlib.Path(loader.__file__))
    assert declared == {info.module for info in registry.DRIVERS}
