# ==== kube-dashboard-service.sh ====
# The Kubernetes dashboard and its metrics scraper (kube_dashboard_enabled), in
# the kubernetes-dashboard namespace, reached through kubectl proxy.
. /etc/sysconfig/heat-params
if [ "$KUBE_DASHBOARD_ENABLED" = "True" ]; then
    dashboard_prefix="${CONTAINER_INFRA_PREFIX:-docker.io/kubernetesui/}"
    apply_manifest kube-dashboard <<MANIFEST
apiVersion: v1
kind: Namespace
metadata: {name: kubernetes-dashboard}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: kubernetes-dashboard, namespace: kubernetes-dashboard}
---
apiVersion: v1
kind: Secret
metadata: {name: kubernetes-dashboard-certs, namespace: kubernetes-dashboard}
type: Opaque
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: kubernetes-dashboard, namespace: kubernetes-dashboard}
spec:
  selector: {matchLabels: {k8s-app: kubernetes-dashboard}}
  template:
    metadata: {labels: {k8s-app: kubernetes-dashboard}}
    spec:
      serviceAccountName: kubernetes-dashboard
      tolerations: [{key: node-role.kubernetes.io/master, effect: NoSchedule}]
      containers:
      - name: kubernetes-dashboard
        image: ${dashboard_prefix}dashboard:${KUBE_DASHBOARD_VERSION}
        args: [--auto-generate-certificates, --namespace=kubernetes-dashboard]
        ports: [{containerPort: 8443, protocol: TCP}]
      - name: dashboard-metrics-scraper
        image: ${dashboard_prefix}metrics-scraper:${METRICS_SCRAPER_TAG}
        ports: [{containerPort: 8000, protocol: TCP}]
---
apiVersion: v1
kind: Service
metadata: {name: kubernetes-dashboard, namespace: kubernetes-dashboard}
spec:
  selector: {k8s-app: kubernetes-dashboard}
  ports: [{port: 443, targetPort: 8443}]
MANIFEST
fi
