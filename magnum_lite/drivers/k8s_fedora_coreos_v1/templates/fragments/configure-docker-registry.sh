# ==== configure-docker-registry.sh ====
# registry_enabled: a local registry on every worker (localhost:registry_port) whose
# storage is a Swift container, reached with the trustee's credentials.
. /etc/sysconfig/heat-params
if [ "$REGISTRY_ENABLED" = "True" ]; then
    install -d /etc/sysconfig/registry
    umask 077
    cat > /etc/sysconfig/registry/config.yml <<REGISTRY
version: 0.1
log: {level: info}
http: {addr: ":5000"}
storage:
  cache: {blobdescriptor: inmemory}
  # images go to the Swift container, as the trustee (scoped to the trust)
  swift:
    container: "$REGISTRY_CONTAINER"
    chunksize: $REGISTRY_CHUNKSIZE
    trustid: "$TRUST_ID"
    username: "$TRUSTEE_USERNAME"
    domainid: "$TRUSTEE_DOMAIN_ID"
    password: "$TRUSTEE_PASSWORD"
    authurl: "$AUTH_URL"
    region: "$SWIFT_REGION"
    insecureskipverify: $REGISTRY_INSECURE
REGISTRY
    cat > /etc/systemd/system/registry.service <<UNIT
[Unit]
Description=Local image registry backed by Swift
After=network-online.target

[Service]
ExecStartPre=-/bin/podman rm --force registry
ExecStart=/bin/podman run --name registry --publish $REGISTRY_PORT:5000 \\
    --volume /etc/sysconfig/registry:/etc/docker/registry:ro,z docker.io/library/registry:2
ExecStop=/bin/podman stop registry
Restart=always

[Install]
WantedBy=multi-user.target
UNIT
fi
