"""OS::Neutron::LBaaS::HealthMonitor: as OS::Octavia::HealthMonitor, LBaaS v2's types."""

from heat_lite.engine.resources.openstack.neutron import lbaas
from heat_lite.engine.resources.openstack.octavia import health_monitor


class HealthMonitor(health_monitor.HealthMonitor):
    support_status = lbaas.SUPPORT_STATUS
    properties_schema = health_monitor.monitor_schema(
        ["PING", "TCP", "HTTP", "HTTPS"], prefix="neutron.lbaas"
    )


def resource_mapping():
    return {"OS::Neutron::LBaaS::HealthMonitor": HealthMonitor}
