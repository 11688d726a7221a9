        # ---- enable-ingress-octavia.sh (inlined in enable-ingress-controller.sh)
        # octavia-ingress-controller: each Ingress becomes an Octavia load balancer
        # on the cluster's subnet, made with the trustee's credentials.
        apply_manifest ingress-octavia <<MANIFEST
apiVersion: v1
kind: ServiceAccount
metadata: {name: octavia-ingress-controller, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: octavia-ingress-controller}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: octavia-ingress-controller, namespace: kube-system}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: octavia-ingress-controller-config, namespace: kube-system}
data:
  config: |
    octavia: {provider: "${OCTAVIA_PROVIDER}", subnet-id: "${CLUSTER_SUBNET}", floating-network-id: "${EXTERNAL_NETWORK_ID}"}
    openstack: {region: "${REGION_NAME}", auth-url: "${AUTH_URL}", trust-id: "${TRUST_ID}", user-id: "${TRUSTEE_USER_ID}", password: "${TRUSTEE_PASSWORD}"}
    cluster-name: ${CLUSTER_UUID}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: octavia-ingress-controller, namespace: kube-system}
spec:
  serviceName: octavia-ingress-controller
  replicas: 1
  selector: {matchLabels: {k8s-app: octavia-ingress-controller}}
  template:
    metadata: {labels: {k8s-app: octavia-ingress-controller}}
    spec:
      serviceAccountName: octavia-ingress-controller
      tolerations: [{key: node-role.kubernetes.io/master, effect: NoSchedule}]
      containers:
      - name: octavia-ingress-controller
        image: ${CONTAINER_INFRA_PREFIX:-docker.io/k8scloudprovider/}octavia-ingress-controller:${OCTAVIA_INGRESS_CONTROLLER_TAG}
        args: [/bin/octavia-ingress-controller, --config=/etc/config/octavia-ingress-controller-config.yaml]
        volumeMounts: [{name: config, mountPath: /etc/config}]
      volumes: [{name: config, configMap: {name: octavia-ingress-controller-config, items: [{key: config, path: octavia-ingress-controller-config.yaml}]}}]
MANIFEST
