# ==== enable-auto-healing.sh ====
# auto_healing_enabled: the node problem detector reports node conditions (npd_enabled)
# and the auto_healing_controller acts on them: draino drains a broken node, the
# magnum-auto-healer asks Magnum to replace it (as the trustee).
. /etc/sysconfig/heat-params
if [ "$NPD_ENABLED" = "True" ]; then
    apply_manifest node-problem-detector <<MANIFEST
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: npd, namespace: kube-system}
spec:
  selector: {matchLabels: {app: node-problem-detector}}
  template:
    metadata: {labels: {app: node-problem-detector}}
    spec:
      tolerations: [{operator: Exists}]
      containers:
      - name: node-problem-detector
        image: ${CONTAINER_INFRA_PREFIX:-k8s.gcr.io/}node-problem-detector:${NODE_PROBLEM_DETECTOR_TAG}
        command: [/node-problem-detector, --logtostderr, --system-log-monitors=/config/kernel-monitor.json]
        securityContext: {privileged: true}
        env: [{name: NODE_NAME, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}]
MANIFEST
fi
if [ "$AUTO_HEALING_ENABLED" = "True" ]; then
    case "$AUTO_HEALING_CONTROLLER" in
    draino)
        apply_manifest draino <<MANIFEST
apiVersion: v1
kind: ServiceAccount
metadata: {name: draino, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: draino}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: draino, namespace: kube-system}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: draino, namespace: kube-system}
spec:
  selector: {matchLabels: {component: draino}}
  template:
    metadata: {labels: {component: draino}}
    spec:
      serviceAccountName: draino
      tolerations: [{key: node-role.kubernetes.io/master, effect: NoSchedule}]
      containers:
      - name: draino
        image: ${CONTAINER_INFRA_PREFIX:-docker.io/planetlabs/}draino:${DRAINO_TAG}
        command: [/draino, --node-label=magnum.openstack.org/role=worker, KernelDeadlock, ReadonlyFilesystem, OutOfDisk]
MANIFEST
        ;;
    magnum-auto-healer)
        apply_manifest magnum-auto-healer <<MANIFEST
apiVersion: v1
kind: ServiceAccount
metadata: {name: magnum-auto-healer, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: magnum-auto-healer}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: magnum-auto-healer, namespace: kube-system}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: magnum-auto-healer-config, namespace: kube-system}
data:
  config.yaml: |
    # the trustee acts for the cluster's owner when a node is replaced
    openstack: {trust-id: "${TRUST_ID}", user-id: "${TRUSTEE_USER_ID}", password: "${TRUSTEE_PASSWORD}", auth-url: "${AUTH_URL}", region: "${REGION_NAME}"}
    cluster-name: ${CLUSTER_UUID}
    # a node gets 20 minutes to join before it is judged; then every 30 s
    check-delay-after-add: 20m
    monitor-interval: 30s
    leader-elect: true
    dry-run: false
    healthcheck:
      master: [{type: Endpoint, params: {unhealthy-duration: 3m, protocol: HTTPS, port: 6443, endpoints: [/healthz], ok-codes: [200]}}]
      worker: [{type: NodeCondition, params: {unhealthy-duration: 3m, types: [Ready], ok-values: ["True"]}}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: magnum-auto-healer, namespace: kube-system}
spec:
  selector: {matchLabels: {k8s-app: magnum-auto-healer}}
  template:
    metadata: {labels: {k8s-app: magnum-auto-healer}}
    spec:
      serviceAccountName: magnum-auto-healer
      hostNetwork: true
      nodeSelector: {node-role.kubernetes.io/master: ""}
      tolerations: [{key: node-role.kubernetes.io/master, effect: NoSchedule}]
      containers:
      - name: magnum-auto-healer
        image: ${CONTAINER_INFRA_PREFIX:-docker.io/k8scloudprovider/}magnum-auto-healer:${MAGNUM_AUTO_HEALER_TAG}
        args: [/bin/magnum-auto-healer, --config=/etc/magnum-auto-healer/config.yaml]
        volumeMounts: [{name: config, mountPath: /etc/magnum-auto-healer}]
      volumes: [{name: config, configMap: {name: magnum-auto-healer-config}}]
MANIFEST
        ;;
    esac
fi
