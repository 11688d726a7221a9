# ==== enable-prometheus-monitoring.sh ====
# The older monitoring label (prometheus_monitoring): Prometheus scraping the
# nodes and Grafana in front of it, in the prometheus-monitoring namespace. The
# monitoring_enabled label uses the Helm chart instead (helm/prometheus-operator.sh).
. /etc/sysconfig/heat-params
if [ "$PROMETHEUS_MONITORING" = "True" ]; then
    grafana_password='__GRAFANA_ADMIN_PASSWD__'
    apply_manifest prometheus-monitoring <<MANIFEST
apiVersion: v1
kind: Namespace
metadata: {name: prometheus-monitoring}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: prometheus, namespace: prometheus-monitoring}
data:
  prometheus.yml: |
    global: {scrape_interval: 30s}
    scrape_configs:
    - job_name: kubernetes-nodes
      kubernetes_sd_configs: [{role: node}]
      scheme: https
      tls_config: {ca_file: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt, insecure_skip_verify: true}
      bearer_token_file: /var/run/secrets/kubernetes.io/serviceaccount/token
    - job_name: kubernetes-pods
      kubernetes_sd_configs: [{role: pod}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: prometheus, namespace: prometheus-monitoring}
spec:
  selector: {matchLabels: {app: prometheus}}
  template:
    metadata: {labels: {app: prometheus}}
    spec:
      containers:
      - name: prometheus
        image: ${CONTAINER_INFRA_PREFIX:-docker.io/prom/}prometheus:${PROMETHEUS_TAG}
        args: [--config.file=/etc/prometheus/prometheus.yml]
        volumeMounts: [{name: config, mountPath: /etc/prometheus}]
      volumes: [{name: config, configMap: {name: prometheus}}]
---
apiVersion: v1
kind: Secret
metadata: {name: grafana, namespace: prometheus-monitoring}
stringData: {admin-password: "${grafana_password}"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: grafana, namespace: prometheus-monitoring}
spec:
  selector: {matchLabels: {app: grafana}}
  template:
    metadata: {labels: {app: grafana}}
    spec:
      containers:
      - name: grafana
        image: ${CONTAINER_INFRA_PREFIX:-docker.io/grafana/}grafana:${GRAFANA_TAG}
        env: [{name: GF_SECURITY_ADMIN_PASSWORD, valueFrom: {secretKeyRef: {name: grafana, key: admin-password}}}]
MANIFEST
fi
