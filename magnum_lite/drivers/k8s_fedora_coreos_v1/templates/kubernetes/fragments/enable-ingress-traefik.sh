        # ---- enable-ingress-traefik.sh (inlined in enable-ingress-controller.sh)
        # Traefik as a DaemonSet on the nodes labelled role=$INGRESS_CONTROLLER_ROLE,
        # listening on the hosts' ports 80 and 443.
        apply_manifest ingress-traefik <<MANIFEST
apiVersion: v1
kind: ServiceAccount
metadata: {name: ingress-traefik, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: ingress-traefik}
rules:
- {apiGroups: [""], resources: [services, endpoints, secrets], verbs: [get, list, watch]}
- {apiGroups: [extensions, networking.k8s.io], resources: [ingresses, ingressclasses], verbs: [get, list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: ingress-traefik}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ingress-traefik}
subjects: [{kind: ServiceAccount, name: ingress-traefik, namespace: kube-system}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ingress-traefik, namespace: kube-system}
spec:
  selector: {matchLabels: {app: ingress-traefik}}
  template:
    metadata: {labels: {app: ingress-traefik}}
    spec:
      serviceAccountName: ingress-traefik
      hostNetwork: true
      nodeSelector: {role: "${INGRESS_CONTROLLER_ROLE}"}
      containers:
      - name: traefik
        image: ${CONTAINER_INFRA_PREFIX:-docker.io/library/}traefik:${TRAEFIK_INGRESS_CONTROLLER_TAG}
        args: [--kubernetes, --defaultentrypoints=http,https, --entrypoints=Name:http Address::80, --entrypoints=Name:https Address::443 TLS]
        ports: [{containerPort: 80, hostPort: 80}, {containerPort: 443, hostPort: 443}]
MANIFEST
