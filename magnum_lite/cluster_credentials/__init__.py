"""What a cluster is given to reach the cloud and be reached: its certificate
authorities and client certificate (cert_manager) and its trustee and trust
(trust_manager), Magnum's conductor/handlers/common modules.

The conductor makes them as a cluster is created and removes them with it; the drivers
read them (the stack's trust parameters, the CA key) and the Heat driver's poller
removes them when a cluster's stacks are gone. Both import only objects and below, so
a driver needs no part of the conductor.
"""
