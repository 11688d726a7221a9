"""Kubernetes on Fedora CoreOS virtual machines, through Heat (Magnum 22's
k8s_fedora_coreos_v1): templates in ./templates, tables in ./template_def.py.

Listed in magnum_lite/drivers/registry.py as ``k8s_fedora_coreos_v1``, which runs
(vm, fedora-coreos, kubernetes).
"""

from magnum_lite.drivers.heat import driver
from magnum_lite.drivers.k8s_fedora_coreos_v1 import template_def


class Driver(driver.HeatDriver):
    def get_template_definition(self):
        return template_def.template_definition()
