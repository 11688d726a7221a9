"""OS::Neutron::LBaaS::* (Neutron LBaaS v2) resource plugins.

Heat 27 hides these types (support status HIDDEN, "Use octavia instead.": not listed,
``resource_types/<type>`` answers 400) and turns them into placeholders; here they stay
usable, served by the same simulated load-balancing service as OS::Octavia::*, so
Magnum's with_master_lb.yaml still gets a load balancer.
"""

SUPPORT_STATUS = {
    "status": "HIDDEN",
    "message": "Use octavia instead.",
    "version": "21.0.0",
    "previous_status": {
        "status": "SUPPORTED",
        "message": None,
        "version": "6.0.0",
        "previous_status": None,
    },
}
