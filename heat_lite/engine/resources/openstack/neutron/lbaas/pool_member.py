"""OS::Neutron::LBaaS::PoolMember: as OS::Octavia::PoolMember, without monitor fields."""

from heat_lite.engine.resources.openstack.neutron import lbaas
from heat_lite.engine.resources.openstack.octavia import pool_member


class PoolMember(pool_member.PoolMember):
    support_status = lbaas.SUPPORT_STATUS
    properties_schema = pool_member.member_schema(prefix="neutron.lbaas")


def resource_mapping():
    return {"OS::Neutron::LBaaS::PoolMember": PoolMember}
