# ==== helm/ingress-nginx.sh ====
# ingress_controller=nginx: the ingress-nginx chart as a DaemonSet on the nodes
# labelled role=$INGRESS_CONTROLLER_ROLE, on the hosts' ports.
. /etc/sysconfig/heat-params
if [ "$INGRESS_CONTROLLER" = "nginx" ]; then
    add_chart nginx-ingress kube-system https://kubernetes.github.io/ingress-nginx \
        ingress-nginx "$NGINX_INGRESS_CONTROLLER_CHART_TAG" <<VALUES
controller:
  image: {registry: "${CONTAINER_INFRA_PREFIX:-registry.k8s.io}", tag: "${NGINX_INGRESS_CONTROLLER_TAG}"}
  kind: DaemonSet
  hostNetwork: true
  nodeSelector: {role: "${INGRESS_CONTROLLER_ROLE}"}
  service: {type: ClusterIP}
  metrics: {enabled: ${MONITORING_ENABLED,,}}
VALUES
fi
