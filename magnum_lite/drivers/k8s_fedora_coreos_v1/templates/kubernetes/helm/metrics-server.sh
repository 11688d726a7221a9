# ==== helm/metrics-server.sh ====
# metrics_server_enabled: the resource metrics API (kubectl top, the autoscalers).
. /etc/sysconfig/heat-params
if [ "$METRICS_SERVER_ENABLED" = "True" ]; then
    add_chart metrics-server kube-system https://kubernetes-sigs.github.io/metrics-server/ \
        metrics-server "${METRICS_SERVER_CHART_TAG#v}" <<VALUES
image:
  repository: ${CONTAINER_INFRA_PREFIX:-registry.k8s.io/metrics-server/}metrics-server
args: [--kubelet-preferred-address-types=InternalIP, --kubelet-insecure-tls]
tolerations: [{key: node-role.kubernetes.io/master, effect: NoSchedule}]
VALUES
fi
