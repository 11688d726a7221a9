"""magnum-lite: OpenStack Magnum's cluster API and conductor, with its Heat driver.

    api/          magnum-lite-api: the /v1 REST API (Pecan + WSME); checks, then RPC
    conductor/    magnum-lite-conductor: the RPC endpoints and the RPC client the API uses
    service/      the conductor's periodic tasks (status sync, heartbeat)
    drivers/      the cluster drivers: registry.py (what each runs, read by both), the
                  conductor's loader, the Heat driver and k8s_fedora_coreos_v1
    cluster_credentials/   a cluster's CAs and certificates, its trustee and trust
    objects/, db/ the versioned objects over the database; common/, conf/ below all

The layers import only downwards (pyproject.toml's import-linter contracts).
"""
