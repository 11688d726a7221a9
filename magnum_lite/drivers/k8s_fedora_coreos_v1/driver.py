"""Kubernetes on Fedora CoreOS virtual machines, through Heat (Magnum 22's
k8s_fedora_coreos_v1): templates in ./templates, tables in ./template_def.py.

Installed as the entry point ``k8s_fedora_coreos_v1`` of ``magnum_lite.drivers``.
"""

from magnum_lite.drivers.heat import driver
from magnum_lite.drivers.k8s_fedora_coreos_v1 import template_def


class Driver(driver.HeatDriver):
    @property
    def provides(self):
        return [{"server_type": "vm", "os": "fedora-coreos", "coe": "kubernetes"}]

    def get_template_definition(self):
        return template_def.template_definition()
