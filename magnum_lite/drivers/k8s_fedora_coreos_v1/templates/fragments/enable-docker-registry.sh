# ==== enable-docker-registry.sh ====
# Start the registry configure-docker-registry.sh set up.
. /etc/sysconfig/heat-params
if [ "$REGISTRY_ENABLED" = "True" ]; then
    systemctl daemon-reload
    systemctl enable --now registry
fi
