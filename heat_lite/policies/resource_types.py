"""``resource_types:<type>``: admin-only resource types, enforced by the engine.

A type not listed here has no rule, and oslo.policy then uses the ``default`` rule.
"""

from oslo_policy import policy

from heat_lite.policies import base

ADMIN_ONLY_TYPES = (
    "OS::Nova::Flavor",
    "OS::Cinder::EncryptedVolumeType",
    "OS::Cinder::VolumeType",
    "OS::Cinder::Quota",
    "OS::Neutron::Quota",
    "OS::Nova::Quota",
    "OS::Octavia::Quota",
    "OS::Manila::ShareType",
    "OS::Neutron::ProviderNet",
    "OS::Neutron::QoSPolicy",
    "OS::Neutron::QoSBandwidthLimitRule",
    "OS::Neutron::QoSDscpMarkingRule",
    "OS::Neutron::QoSMinimumBandwidthRule",
    "OS::Neutron::QoSMinimumPacketRateRule",
    "OS::Neutron::Segment",
    "OS::Nova::HostAggregate",
    "OS::Cinder::QoSSpecs",
    "OS::Cinder::QoSAssociation",
    "OS::Keystone::*",
    "OS::Blazar::Host",
    "OS::Octavia::Flavor",
    "OS::Octavia::FlavorProfile",
    "OS::Octavia::AvailabilityZone",
    "OS::Octavia::AvailabilityZoneProfile",
)

rules = [
    policy.RuleDefault(name="resource_types:%s" % type_name, check_str=base.RULE_PROJECT_ADMIN)
    for type_name in ADMIN_ONLY_TYPES
]


def list_rules():
    return rules
