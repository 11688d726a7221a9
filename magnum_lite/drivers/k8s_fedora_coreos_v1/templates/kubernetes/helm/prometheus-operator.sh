# ==== helm/prometheus-operator.sh ====
# monitoring_enabled: kube-prometheus-stack with Prometheus keeping
# monitoring_retention_days / _size of data, Grafana (its admin password from the
# grafana_admin_passwd label) and, with monitoring_ingress_enabled, ingresses under
# cluster_root_domain_name. The masters' private addresses are scraped for etcd
# and the control plane.
. /etc/sysconfig/heat-params
if [ "$MONITORING_ENABLED" = "True" ]; then
    masters='__KUBE_MASTERS_PRIVATE__'
    master_list=$(echo "$masters" | tr -d '[]" ' | tr ',' ' ')
    endpoints=""
    for ip in $master_list; do endpoints="$endpoints, $ip"; done
    storage=""
    [ -n "$MONITORING_STORAGE_CLASS_NAME" ] && storage="storageSpec: {volumeClaimTemplate: {spec: {storageClassName: $MONITORING_STORAGE_CLASS_NAME, resources: {requests: {storage: ${MONITORING_RETENTION_SIZE}Gi}}}}}"
    add_chart prometheus-operator monitoring https://prometheus-community.github.io/helm-charts \
        kube-prometheus-stack "$PROMETHEUS_OPERATOR_CHART_TAG" <<VALUES
grafana:
  adminPassword: "__GRAFANA_ADMIN_PASSWD__"
  ingress: {enabled: ${MONITORING_INGRESS_ENABLED,,}, hosts: [grafana.${CLUSTER_ROOT_DOMAIN_NAME}]}
prometheus:
  ingress: {enabled: ${MONITORING_INGRESS_ENABLED,,}, hosts: [prometheus.${CLUSTER_ROOT_DOMAIN_NAME}]}
  prometheusSpec:
    scrapeInterval: ${MONITORING_INTERVAL_SECONDS}s
    retention: ${MONITORING_RETENTION_DAYS}d
    retentionSize: ${MONITORING_RETENTION_SIZE}GB
    ${storage}
kubeEtcd: {endpoints: [${endpoints#, }]}
kubeControllerManager: {endpoints: [${endpoints#, }]}
kubeScheduler: {endpoints: [${endpoints#, }]}
VALUES
fi
